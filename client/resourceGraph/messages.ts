/**
 * What the resource graph's panel (the extension) and its webview (webview.ts) say to each other.
 * The webview draws what the language server laid out and reports back what it drew, so the tests
 * read the picture through these messages, as the user sees it.
 */
import type { GraphEdgeKind, GraphGroupBy } from '../../shared/state/vocabulary';
import type { ResourceGraphResult } from '../../shared/protocol';

/** The words the page shows, translated by the extension (the webview has no `vscode.l10n`). */
export interface GraphWords {
  depth: string;
  wholeGraph: string;
  search: string;
  allTypes: string;
  allProviders: string;
  exportSvg: string;
  exportDot: string;
  edgesOf: string;
  noEdges: string;
  legend: string;
  kinds: Record<GraphEdgeKind, string>;
  /** How an edge reads from the focus: `out` when the focus is the edge's start, `in` when its end (`{0}`: the other resource). */
  relations: Record<GraphEdgeKind, { out: string; in: string }>;
  /** An overview's group box: `{0}` resources; and the notice of an overview: `{0}` groups of `{1}` resources, grouped by `{2}`. */
  groupMembers: string;
  overview: string;
  groupBy: Record<GraphGroupBy, string>;
  /** `{0}` of `{1}` edges drawn. */
  edgesLeftOut: string;
  /** The layout ran past its time: the boxes are in rows. */
  grid: string;
  /** How many edges one bundled edge stands for: `{0}`. */
  edgeCount: string;
  marks: { protect: string; taint: string; delete: string; pending: string; missing: string; errors: string; warnings: string };
  /** `{0}` shown of `{1}` within reach. */
  truncated: string;
  /** `{0}` resources, `{1}` edges in the file. */
  total: string;
  tooLarge: string;
  empty: string;
  matches: string;
  noMatches: string;
}

export type ToWebview =
  | { type: 'view'; view: ResourceGraphResult | null; words: GraphWords }
  /** Tests and keyboard users drive the page as a pointer would: a click on a node, a search typed. */
  | { type: 'simulate'; action: 'click'; id: string }
  | { type: 'simulate'; action: 'search'; query: string }
  /** The depth buttons and "Whole graph", as a click on them sends. */
  | { type: 'simulate'; action: 'depth'; depth: number | 'all' };

/** What the webview drew: the focus, the nodes and edges on screen, the search's matches. */
export interface RenderedGraph {
  focus: string | null;
  nodes: string[];
  edges: Array<{ from: string; to: string; kind: GraphEdgeKind; labels: string[] }>;
  matches?: string[];
  /** The text alternative: the focus's edges as listed. */
  edgeList: string[];
  /** The overview's group boxes drawn (ids), when the picture is the whole graph's overview. */
  groups?: string[];
  notice?: string;
}

export type FromWebview =
  | { type: 'ready' }
  | { type: 'rendered'; rendered: RenderedGraph }
  | { type: 'select'; id: string }
  | { type: 'depth'; depth: number | 'all' }
  /** A group box of the overview was clicked: show its members, or fold them back. */
  | { type: 'toggleGroup'; id: string }
  | { type: 'groupBy'; by: GraphGroupBy }
  | { type: 'filters'; edgeKinds: GraphEdgeKind[]; resourceType?: string; provider?: string }
  | { type: 'search'; query: string }
  | { type: 'exportSvg'; svg: string }
  | { type: 'exportDot' };
