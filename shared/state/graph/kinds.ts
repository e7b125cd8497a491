/** The kinds of edge the resource graph draws, each distinct and named in the editor's legend. */
export type GraphEdgeKind = 'parent' | 'dependency' | 'provider' | 'deletedWith' | 'replaceWith';
export const GRAPH_EDGE_KINDS: readonly GraphEdgeKind[] = ['parent', 'dependency', 'provider', 'deletedWith', 'replaceWith'];
