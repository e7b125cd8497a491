/** mocha's browser build: a script that sets `globalThis.mocha`. */
declare module 'mocha/mocha.js';
