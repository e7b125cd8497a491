// Bundles every entry point into dist/ as CommonJS, and the browser build (vscode.dev, github.dev)
// into dist/web/. Type-checking is separate (`npm run typecheck`).
// Usage: node esbuild.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { existsSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateValidators } from './scripts/generate-validators.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/**
 * Modules that are bundles of their own (entries below), required lazily by the programs: the source
 * names the module (`require('./s3Store')` in shared/node/remoteStore.ts, an edge the layering rules see), and
 * the build turns that require into one of the built sibling bundle. Every Node bundle sits one folder
 * below dist/, so the path is the same from each. The store's errors stay `instanceof` across the two
 * bundles through their brand (shared/backend/store.ts).
 */
const lazyBundle = (name, external = []) => ({ in: `shared/node/${name}.ts`, out: `stores/${name}`, name, source: resolve(`shared/node/${name}.ts`), bundle: `../stores/${name}.js`, external });
// pg requires pg-native only when asked for it (NODE_PG_FORCE_NATIVE, pg.native): never here.
const LAZY_BUNDLES = [lazyBundle('s3Store'), lazyBundle('gcsStore'), lazyBundle('postgresStore', ['pg-native'])];

/** One entry per shipped program. `external` lists what must stay a runtime require. */
export const entries = [
  { in: 'client/extension.ts', out: 'client/extension', external: ['vscode'] },
  // dist/server/server.js starts the server: it runs dist/server/languageServer.js with a V8 code cache.
  { in: 'server/start.ts', out: 'server/server', external: [] },
  { in: 'server/server.ts', out: 'server/languageServer', external: [] },
  // Loaded by the server with new Worker(): validates state files off the request thread.
  { in: 'server/state/workerStart.ts', out: 'server/stateWorker', external: [] },
  { in: 'server/state/analysisWorker.ts', out: 'server/analysisWorker', external: [] },
  // Loaded by the server with new Worker(): lays out the resource graph's pictures off the request thread.
  { in: 'server/state/graphWorker.ts', out: 'server/graphWorker', external: [] },
  // dist/cli/quota-state.js runs dist/cli/quotaStateMain.js with a V8 code cache, as the server does.
  { in: 'cli/start.ts', out: 'cli/quota-state', external: [] },
  { in: 'cli/main.ts', out: 'cli/quotaStateMain', external: [] },
  // Loaded by the CLI with new Worker(): `check --jobs N` analyses files on N threads.
  { in: 'cli/checkWorker.ts', out: 'cli/checkWorker', external: [] },
  // Each remote backend's store with its SDK, a bundle of its own: the CLI and the extension require it
  // only when a backend of its scheme is opened (shared/node/remoteStore.ts, lazyBundlePlugin), so no
  // other start parses the SDK.
  ...LAZY_BUNDLES.map((lazy) => ({ in: lazy.in, out: lazy.out, external: lazy.external })),
  // better-sqlite3 is a native addon; fastify stays a normal dependency so its plugins resolve as published.
  { in: 'quota-api/main.ts', out: 'quota-api/main', external: ['better-sqlite3', 'fastify'] },
];

/**
 * The browser build: the extension (CommonJS, loaded by VS Code's web extension host) and the
 * language server (a web worker script). dist/web/ holds these two files and nothing else.
 */
export const webEntries = [
  { in: 'client/extension.ts', out: 'web/extension', format: 'cjs', external: ['vscode'] },
  { in: 'server/web/server.ts', out: 'web/server', format: 'iife', external: [] },
];

/** Scripts that run inside webviews (desktop and browser alike): browser code, no Node, no `vscode`. */
export const webviewEntries = [{ in: 'client/resourceGraph/webview.ts', out: 'webview/resourceGraph', format: 'iife', external: [] }];

/** Modules the browser build takes from elsewhere: the browser language client, and the two tiny path helpers. */
const WEB_SWAPS = new Map([
  [resolve('client/languageClient.ts'), resolve('client/web/languageClient.ts')],
  [resolve('shared/node/lockIdentity.ts'), resolve('client/web/lockIdentity.ts')],
  [resolve('client/backends/bucketAccess.ts'), resolve('client/web/bucketAccess.ts')],
]);
const WEB_NODE_SHIMS = new Map([
  ['node:path', resolve('server/web/nodePath.ts')],
  ['node:url', resolve('server/web/nodeUrl.ts')],
]);
const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** Swaps modules for the browser and fails the build on any other Node built-in. */
const webPlugin = {
  name: 'web',
  setup(build) {
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === 'web') return undefined;
      const shim = WEB_NODE_SHIMS.get(args.path);
      if (shim) return { path: shim };
      if (NODE_BUILTINS.has(args.path)) {
        return { errors: [{ text: `the browser build cannot use the Node built-in "${args.path}" (imported by ${args.importer})` }] };
      }
      if (!args.path.startsWith('.')) return undefined;
      const resolved = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: 'web' });
      const swap = WEB_SWAPS.get(resolved.path);
      return swap ? { path: swap } : undefined;
    });
  },
};

/** esbuild options of one browser entry (also used by the bench to measure the production size). */
export function webBuildOptions(entry, production, outdir = 'dist') {
  return {
    entryPoints: { [entry.out]: entry.in },
    outdir,
    bundle: true,
    platform: 'browser',
    format: entry.format,
    target: 'es2022',
    // Maps stay out of dist/web/: it holds the two scripts and nothing else.
    sourcemap: production ? false : 'inline',
    minify: production,
    external: entry.external,
    mainFields: ['browser', 'module', 'main'],
    plugins: [webPlugin],
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'silent' },
  };
}

const LAZY_NAMES = new RegExp(`(?:${LAZY_BUNDLES.map((lazy) => lazy.name).join('|')})$`);

const lazyBundlePlugin = (entryIn) => ({
  name: 'lazy-bundles',
  setup(build) {
    build.onResolve({ filter: LAZY_NAMES }, async (args) => {
      if (args.pluginData === 'lazy' || args.kind !== 'require-call') return undefined;
      const resolved = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, pluginData: 'lazy' });
      const lazy = LAZY_BUNDLES.find((entry) => entry.source === resolved.path && resolve(entryIn) !== entry.source);
      return lazy ? { path: lazy.bundle, external: true } : undefined;
    });
  },
});

async function build() {
  // The sources import ajv's standalone code for the schemas; it must exist before bundling.
  generateValidators();
  const missing = entries.filter((entry) => !existsSync(entry.in));
  if (missing.length > 0) throw new Error(`missing entry points: ${missing.map((e) => e.in).join(', ')}`);
  rmSync('dist/web', { recursive: true, force: true });
  rmSync('dist/webview', { recursive: true, force: true });
  const contexts = await Promise.all([
    ...entries.map((entry) =>
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
        plugins: [lazyBundlePlugin(entry.in)],
        // Prefer ESM builds: jsonc-parser's UMD build hides its requires from the bundler.
        mainFields: ['module', 'main'],
        logLevel: 'warning',
        // Some dependencies ship ESM with `import.meta.url`; nothing we bundle relies on it at run time.
        logOverride: { 'empty-import-meta': 'silent' },
      }),
    ),
    ...[...webEntries, ...webviewEntries].map((entry) => esbuild.context(webBuildOptions(entry, production))),
  ]);
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

// Imported (by the bench) for its options only; run, it builds.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  build().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
