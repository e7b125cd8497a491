/** Comparing DOT with real `pulumi stack graph`'s: its node ids are numbered differently, its facts are the same. */

/** DOT as dotconv prints it, as sorted lines of labels: `node <label>` and `<from> -> <to> [attributes]`. */
export function dotFacts(dot: string): string[] {
  const labels = new Map<string, string>();
  for (const match of dot.matchAll(/^ {4}(Resource\d+) \[label="([^"]*)"\];$/gm)) labels.set(match[1], match[2]);
  const facts = [...labels.values()].map((label) => `node ${label}`);
  for (const match of dot.matchAll(/^ {4}(Resource\d+) -> (Resource\d+)(?: \[(.*)\])?;$/gm)) facts.push(`${labels.get(match[1])} -> ${labels.get(match[2])} [${match[3] ?? ''}]`);
  return [...new Set(facts)].sort();
}
