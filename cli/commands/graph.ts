/**
 * `quota-state graph FILE|STACK`: a state file's (or a DIY stack's) resource graph as DOT (by
 * default what `pulumi stack graph` prints with the same flags), Mermaid or JSON, whole or focused
 * on one resource.
 * A deployment without resources is an empty graph (\`strict digraph {\n}\`, as Pulumi's).
 * Exit codes: 0 printed; 1 the focus is no resource of the file, or Mermaid would be unreadable;
 * 2 usage error or unreadable input.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createStateService, MERMAID_NODE_LIMIT, type ResourceGraph, type StateSnapshot } from '../../shared/state';
import { InputError, UsageError } from '../args';
import { commandArguments, displayPath, readDocumentOrFail, type CliIO } from '../io';
import { readStackText } from '../backendAccess';

const state = createStateService();

export const GRAPH_USAGE = `Usage:
  quota-state graph FILE|STACK [--backend URL] [--focus URN] [--depth N] [--format dot|mermaid|json]
                         [--ignore-parent-edges] [--ignore-dependency-edges] [--short-node-name] [--all-edges]

A state file's resource graph, or a DIY stack's (STACK as \`quota-state history\` takes it, in the
backend --backend names or \`quota-state backend ls\` finds; a path that exists is a file). DOT (the default) is what \`pulumi stack graph\` writes with the same
flags: a dependency edge from the dependency to the dependent, labelled with the properties whose
propertyDependencies list it; a parent edge from the child to the parent; copies of one urn as one
node, the last copy's.

  --all-edges                provider, deletedWith and replaceWith edges too, each named; every copy of a
                             urn as its own node (URN#N); references to missing resources as missing nodes
  --focus URN --depth N      the resource and everything within N edges of it, either way (default depth 1)
  --format dot|mermaid|json  json: {nodes: [{id, urn, type, name, custom, delete, protect, taint, missing?, pending,
                             diagnostics: {errors, warnings}}], edges: [{from, to, kind, labels}]} (pending and
                             diagnostics count the operations and the check's findings on the node's urn);
                             mermaid refuses more than ${MERMAID_NODE_LIMIT} nodes without --focus

Exit codes: 0 printed, 1 no such resource to focus on (or too big for Mermaid), 2 usage error or unreadable file.`;

const FLAGS = {
  backend: 'value',
  focus: 'value',
  depth: 'value',
  format: 'value',
  'ignore-parent-edges': 'boolean',
  'ignore-dependency-edges': 'boolean',
  'short-node-name': 'boolean',
  'all-edges': 'boolean',
} as const;

export async function graph(args: string[], io: CliIO): Promise<number> {
  const parsed = commandArguments(GRAPH_USAGE, args, FLAGS, io);
  if (!parsed) return 0;
  if (parsed.positional.length !== 1) throw new UsageError('graph takes one state FILE or STACK');
  const format = parsed.flags.format ?? 'dot';
  if (format !== 'dot' && format !== 'mermaid' && format !== 'json') throw new UsageError(`--format must be dot, mermaid or json, not "${format}"`);
  const depth = parsed.flags.depth === undefined ? 1 : Number(parsed.flags.depth);
  if (!Number.isInteger(depth) || depth < 0) throw new UsageError(`--depth must be a whole number, not "${parsed.flags.depth}"`);
  if (parsed.flags.depth !== undefined && parsed.flags.focus === undefined) throw new UsageError('--depth needs --focus URN');
  const file = resolve(io.cwd, parsed.positional[0]);
  let text: string;
  let display: string;
  if (parsed.flags.backend === undefined && existsSync(file)) {
    display = displayPath(io.cwd, file);
    text = readDocumentOrFail(file, io, display).text;
  } else {
    const stack = await readStackText(parsed.positional[0], parsed.flags.backend, io);
    if (typeof stack === 'number') return stack;
    ({ text, display } = stack);
  }
  // DOT and Mermaid read only the records: JSON.parse, without the positions `--format json`'s findings need.
  let structure;
  let snapshot: StateSnapshot | undefined;
  if (format === 'json') structure = (snapshot = state.parse(text)).parsedWith === 'json' ? snapshot.structure : undefined;
  else {
    try {
      structure = state.structureOf(JSON.parse(text));
    } catch {
      structure = undefined;
    }
  }
  if (!structure) throw new InputError(`${display} is not valid JSON; \`quota-state check\` shows where`);
  // A deployment without resources (a destroyed stack: Pulumi omits the empty array) is an empty graph, as
  // \`pulumi stack graph\` draws it; a state without a deployment (a stack never updated) has no snapshot to draw.
  if (!structure.deploymentPath) {
    throw new InputError(
      structure.shape === 'checkpoint'
        ? `${display} holds no deployment (a stack never updated); \`pulumi stack graph\` finds no snapshot either`
        : `${display} holds no resources array (an export, a checkpoint or a deployment)`,
    );
  }
  const whole = state.graph.build(
    structure.resources.map((r) => r.value),
    { ignoreParentEdges: parsed.booleans.has('ignore-parent-edges'), ignoreDependencyEdges: parsed.booleans.has('ignore-dependency-edges'), allEdges: parsed.booleans.has('all-edges') },
  );
  const focus = parsed.flags.focus;
  const shown = focus === undefined ? whole : state.graph.focus(whole, focus, depth);
  if (!shown) {
    io.stderr(`quota-state: ${focus} is no resource of ${display}`);
    return 1;
  }
  const shortNodeName = parsed.booleans.has('short-node-name');
  if (format === 'json') io.stdout(JSON.stringify(withFindings(shown, snapshot!), null, 2));
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

/** The JSON form's nodes with the pending operations and the check's errors and warnings on each urn. */
function withFindings(shown: ResourceGraph, snapshot: StateSnapshot) {
  const document = { snapshot, navigation: state.navigationIndex(snapshot) };
  const perUrn = new Map<string, { errors: number; warnings: number }>();
  for (const diagnostic of state.analyzeSnapshot(snapshot).diagnostics) {
    if (diagnostic.severity !== 'error' && diagnostic.severity !== 'warning') continue;
    const index = document.navigation.recordAt(snapshot.lines.offsetAt(diagnostic.range.start));
    const urn = index === undefined ? undefined : snapshot.structure.resources[index]?.urn;
    if (!urn) continue;
    const counts = perUrn.get(urn) ?? { errors: 0, warnings: 0 };
    counts[diagnostic.severity === 'error' ? 'errors' : 'warnings']++;
    perUrn.set(urn, counts);
  }
  const pending = new Map(state.surgery.pendingOperations(document).reduce((counts, op) => counts.set(op.urn, (counts.get(op.urn) ?? 0) + 1), new Map<string, number>()));
  return {
    nodes: shown.nodes.map((node) => ({ ...node, pending: pending.get(node.urn) ?? 0, diagnostics: perUrn.get(node.urn) ?? { errors: 0, warnings: 0 } })),
    edges: shown.edges,
  };
}
