// Mocha `require` hook: the sources import the generated validators, so they must exist before any
// test file loads; a fresh clone or a changed schema regenerates them here (else it is a no-op).
import { generateValidators } from './generate-validators.mjs';

generateValidators();
