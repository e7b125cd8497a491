/**
 * `quota-state graph FILE`: a state file's resource graph as DOT (by default what `pulumi stack
 * graph` prints with the same flags), Mermaid or JSON, whole or focused on one resource.
 * Exit codes: 0 printed; 1 the focus is no resource of the file, or Mermaid would be unreadable;
 * 2 usage error or unreadable input.
 */
import { resolve } from 'node:path';
import { createStateService, MERMAID_NODE_LIMIT } from '../../shared/state';
import { InputError, UsageError } from '../args';
import { commandArguments, displayPath, readDocumentOrFail, type CliIO } from '../io';

const state = createStateService();

export const GRAPH_USAGE = `Usage:
  quota-state graph FILE [--focus URN] [--depth N] [--format dot|mermaid|json]
                         [--ignore-parent-edges] [--ignore-dependency-edges] [--short-node-name] [--all-edges]

A state file's resource graph. DOT (the default) is what \`pulumi stack graph\` writes with the same
flags: a dependency edge from the dependency to the dependent, labelled with the properties whose
propertyDependencies list it; a parent edge from the child to the parent; copies of one urn as one
node, the last copy's.

  --all-edges                provider, deletedWith and replaceWith edges too, each named; every copy of a
                             urn as its own node (URN#N); references to missing resources as missing nodes
  --focus URN --depth N      the resource and everything within N edges of it, either way (default depth 1)
  --format dot|mermaid|json  json: {nodes: [{urn, type, name, custom, delete, protect, taint}], edges: [{from, to, kind, labels}]};
                             mermaid refuses more than ${MERMAID_NODE_LIMIT} nodes without --focus

Exit codes: 0 printed, 1 no such resource to focus on (or too big for Mermaid), 2 usage error or unreadable file.`;

const FLAGS = {
  focus: 'value',
  depth: 'value',
  format: 'value',
  'ignore-parent-edges': 'boolean',
  'ignore-dependency-edges': 'boolean',
  'short-node-name': 'boolean',
  'all-edges': 'boolean',
} as const;

export function graph(args: string[], io: CliIO): number {
  const parsed = commandArguments(GRAPH_USAGE, args, FLAGS, io);
  if (!parsed) return 0;
  if (parsed.positional.length !== 1) throw new UsageError('graph takes one state FILE');
  const format = parsed.flags.format ?? 'dot';
  if (format !== 'dot' && format !== 'mermaid' && format !== 'json') throw new UsageError(`--format must be dot, mermaid or json, not "${format}"`);
  const depth = parsed.flags.depth === undefined ? 1 : Number(parsed.flags.depth);
  if (!Number.isInteger(depth) || depth < 0) throw new UsageError(`--depth must be a whole number, not "${parsed.flags.depth}"`);
  if (parsed.flags.depth !== undefined && parsed.flags.focus === undefined) throw new UsageError('--depth needs --focus URN');
  const file = resolve(io.cwd, parsed.positional[0]);
  const { text } = readDocumentOrFail(file, io, displayPath(io.cwd, file));
  const snapshot = state.parse(text);
  if (snapshot.parsedWith !== 'json') throw new InputError(`${displayPath(io.cwd, file)} is not valid JSON; \`quota-state check\` shows where`);
  if (!snapshot.structure.resourcesPath) throw new InputError(`${displayPath(io.cwd, file)} holds no resources array (an export, a checkpoint or a deployment)`);
  const whole = state.graph.build(
    snapshot.structure.resources.map((r) => r.value),
    { ignoreParentEdges: parsed.booleans.has('ignore-parent-edges'), ignoreDependencyEdges: parsed.booleans.has('ignore-dependency-edges'), allEdges: parsed.booleans.has('all-edges') },
  );
  const focus = parsed.flags.focus;
  const shown = focus === undefined ? whole : state.graph.focus(whole, focus, depth);
  if (!shown) {
    io.stderr(`quota-state: ${focus} is no resource of ${displayPath(io.cwd, file)}`);
    return 1;
  }
  const shortNodeName = parsed.booleans.has('short-node-name');
  if (format === 'json') io.stdout(JSON.stringify(shown, null, 2));
  else if (format === 'dot') io.stdout(state.graph.dot(shown, { shortNodeName }).trimEnd());
  else {
    if (focus === undefined && shown.nodes.length > MERMAID_NODE_LIMIT) {
      io.stderr(`quota-state: ${shown.nodes.length} nodes are more than Mermaid can draw readably (${MERMAID_NODE_LIMIT}); give --focus URN, or use --format dot`);
      return 1;
    }
    io.stdout(state.graph.mermaid(shown, { shortNodeName }).trimEnd());
  }
  return 0;
}
