// Types of the module scripts/generate-validators.mjs writes beside this file (ajv standalone code).
import type { ValidateFunction } from 'ajv';

export declare const record: ValidateFunction;
export declare const deployment: ValidateFunction;
export declare const checkpoint: ValidateFunction;
export declare const legacyCheckpoint: ValidateFunction;
declare const exportShape: ValidateFunction;
export { exportShape as export };
