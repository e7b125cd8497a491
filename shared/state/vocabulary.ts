/**
 * What resource-state files say that needs none of their analysis: the schema modes and codes, the
 * surgery table (its names, switches and palette commands), the graph's words, and a parsed value's
 * records (`structureOf`, which the backend kind reads through this door). The client
 * bundles this door, never index.ts's service; everything else outside the kind goes through index.ts.
 */
export { isStateSchemaMode, STATE_CODES, STATE_SCHEMA_MODES, stateSchemaModeOf, type StateSchemaMode } from './codes';
export { isObject, type JsonObject, type StateShape, type StateStructure } from './model/structure';
export { surgeryRow, SURGERY_OPERATIONS, SURGERY_TABLE, type SurgeryCall, type SurgeryPaletteCommand, type SurgeryRow, type SurgerySwitch } from './surgery/operations';
export { GRAPH_EDGE_KINDS, GRAPH_GROUP_BYS, GROUP_ID_PREFIX, type GraphEdgeKind, type GraphGroupBy } from './graph/kinds';
export { buildStateStructure as structureOf } from './model/structure';
export { pathKey as secretsPassKey } from './model/locate';
export { findSecrets, stateSecrets, storedSecret, type SecretSite, type SecretsPass, type UndecryptableCause } from './passes/secrets';
