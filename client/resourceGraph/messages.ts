/**
 * What the resource graph's panel (the extension) and its webview (webview.ts) say to each other.
 * The webview draws what the language server laid out and reports back what it drew, so the tests
 * read the picture through these messages, as the user sees it.
 */
import type { GraphEdgeKind } from '../../shared/state/vocabulary';
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
  | { type: 'simulate'; action: 'search'; query: string };

/** What the webview drew: the focus, the nodes and edges on screen, the search's matches. */
export interface RenderedGraph {
  focus: string | null;
  nodes: string[];
  edges: Array<{ from: string; to: string; kind: GraphEdgeKind; labels: string[] }>;
  matches?: string[];
  /** The text alternative: the focus's edges as listed. */
  edgeList: string[];
  notice?: string;
}

export type FromWebview =
  | { type: 'ready' }
  | { type: 'rendered'; rendered: RenderedGraph }
  | { type: 'select'; id: string }
  | { type: 'depth'; depth: number | 'all' }
  | { type: 'filters'; edgeKinds: GraphEdgeKind[]; resourceType?: string; provider?: string }
  | { type: 'search'; query: string }
  | { type: 'exportSvg'; svg: string }
  | { type: 'exportDot' };
