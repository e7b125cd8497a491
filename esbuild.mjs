// Bundles every entry point into dist/ as CommonJS. Type-checking is separate (`npm run typecheck`).
// Usage: node esbuild.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { existsSync } from 'node:fs';
import { generateValidators } from './scripts/generate-validators.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** One entry per shipped program. `external` lists what must stay a runtime require. */
export const entries = [
  { in: 'client/extension.ts', out: 'client/extension', external: ['vscode'] },
  { in: 'server/server.ts', out: 'server/server', external: [] },
  // Loaded by the server with new Worker(): validates state files off the request thread.
  { in: 'server/state/analysisWorker.ts', out: 'server/stateWorker', external: [] },
  { in: 'server/cli/main.ts', out: 'cli/quota-state', external: [] },
  // Loaded by the CLI with new Worker(): `check --jobs N` analyses files on N threads.
  { in: 'server/cli/checkWorker.ts', out: 'cli/checkWorker', external: [] },
  // better-sqlite3 is a native addon; fastify stays a normal dependency so its plugins resolve as published.
  { in: 'quota-api/main.ts', out: 'quota-api/main', external: ['better-sqlite3', 'fastify'] },
];

async function build() {
  // The sources import ajv's standalone code for the schemas; it must exist before bundling.
  generateValidators();
  const missing = entries.filter((entry) => !existsSync(entry.in));
  if (missing.length > 0) throw new Error(`missing entry points: ${missing.map((e) => e.in).join(', ')}`);
  const contexts = await Promise.all(
    entries.map((entry) =>
      esbuild.context({
        entryPoints: { [entry.out]: entry.in },
        outdir: 'dist',
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        sourcemap: !production,
        minify: production,
        external: entry.external,
        // Prefer ESM builds: jsonc-parser's UMD build hides its requires from the bundler.
        mainFields: ['module', 'main'],
        logLevel: 'warning',
        // Some dependencies ship ESM with `import.meta.url`; nothing we bundle relies on it at run time.
        logOverride: { 'empty-import-meta': 'silent' },
      }),
    ),
  );
  if (watch) {
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('esbuild: watching for changes');
    return;
  }
  try {
    await Promise.all(contexts.map((c) => c.rebuild()));
  } finally {
    await Promise.all(contexts.map((c) => c.dispose()));
  }
}

build().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
