/** The kinds of edge the resource graph draws, each distinct and named in the editor's legend. */
export type GraphEdgeKind = 'parent' | 'dependency' | 'provider' | 'deletedWith' | 'replaceWith';
export const GRAPH_EDGE_KINDS: readonly GraphEdgeKind[] = ['parent', 'dependency', 'provider', 'deletedWith', 'replaceWith'];

/** What a group of the whole graph's overview is: resources under one top-level component, of one type, or of one provider. */
export type GraphGroupBy = 'parent' | 'type' | 'provider';
export const GRAPH_GROUP_BYS: readonly GraphGroupBy[] = ['parent', 'type', 'provider'];
/** The prefix of an overview group's id: never a urn, which starts with `urn:`. */
export const GROUP_ID_PREFIX = 'group:';
