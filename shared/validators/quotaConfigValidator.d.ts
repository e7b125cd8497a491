// Types of the module scripts/generate-validators.mjs writes beside this file (ajv standalone code).
import type { ValidateFunction } from 'ajv';

export declare const config: ValidateFunction;
