/**
 * The layering rules of docs/architecture.md, enforced by `npm run lint` (dependency-cruiser).
 * Type-only imports count too: a circle through types is still a circle for a reader.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle anywhere.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-is-the-ground-floor',
      severity: 'error',
      comment: 'shared/ imports nothing above it: not the server, the client, the reference API, the scripts or the tests.',
      from: { path: '^shared/', pathNot: '\\.test\\.ts$' },
      to: { path: '^(server|cli|client|quota-api|scripts|test|tools)/' },
    },
    {
      name: 'shared-has-no-editor-and-no-io',
      severity: 'error',
      comment:
        'shared/ is editor-independent and does no I/O of its own: no vscode, no LSP connection, no files, processes or network. shared/node/ alone is the Node I/O the CLI, the server and the client share.',
      from: { path: '^shared/', pathNot: '^shared/node/' },
      to: {
        path: '^(vscode$|vscode-languageserver/|vscode-languageclient|node:(fs|child_process|net|http|https|worker_threads|os)$|(fs|child_process|net|http|https|worker_threads|os)$)',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'shared-imports-no-node-module',
      severity: 'error',
      comment: 'shared/ runs in the browser too: no node: module at all, not even node:path; what it needs is injected. Specs beside their modules may use Node.',
      from: { path: '^shared/', pathNot: ['[.]test[.]ts$', '^shared/node/'] },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'node-io-only-from-the-programs',
      severity: 'error',
      comment: "shared/node/ is Node's I/O (files, buckets, processes): the programs import it, the core below them never does, and the browser build maps what the client takes of it to client/web/.",
      from: { path: '^shared/', pathNot: ['^shared/node/', '[.]test[.]ts$'] },
      to: { path: '^shared/node/' },
    },
    {
      name: 'node-io-is-the-only-node-door-of-the-client',
      severity: 'error',
      comment:
        "The client reaches files, buckets and processes through shared/node/ (which lint sees), never an SDK or node:fs of its own; the vscode.workspace.fs store of remote workspaces and the browser is the client's. node:path, node:os and node:crypto's pure helpers stay allowed.",
      from: { path: '^client/' },
      to: { path: '^(node:)?(fs|fs/promises|child_process|net|http|https)$|(^|/)node_modules/@aws-sdk/|^@aws-sdk/' },
    },
    {
      name: 'nothing-from-dist',
      severity: 'error',
      comment: 'No module reaches into dist/ (a built bundle): an import of the source is an edge the rules can see.',
      from: {},
      to: { path: '^dist/' },
    },
    {
      name: 'lsp-types-only-in-the-server',
      severity: 'error',
      comment: 'The core returns plain data (shared/features.ts, shared/diagnostics.ts); only the protocol module and server/ speak LSP types.',
      from: { path: '^shared/', pathNot: '^shared/protocol\\.ts$' },
      to: { path: '(^|/)node_modules/vscode-languageserver(-types|-protocol)?/|^vscode-languageserver(-types|-protocol)?$' },
    },
    {
      name: 'core-below-the-protocol',
      severity: 'error',
      comment: 'The protocol module serves the adapters; the core below it does not import it.',
      from: { path: '^shared/', pathNot: '^shared/protocol\\.ts$' },
      to: { path: '^shared/protocol\\.ts$' },
    },
    {
      name: 'code-tables-are-leaves',
      severity: 'error',
      comment: "A kind's code table imports no check, fix or doc: each code's module in rules/ holds them.",
      from: { path: '^shared/(state|quota|ini)/codes\\.ts$' },
      to: { path: '^shared/', pathNot: '^shared/(codes|diagnostics)\\.ts$' },
    },
    {
      name: 'server-not-client-or-api',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(client|quota-api)/' },
    },
    {
      name: 'client-not-server-or-api',
      severity: 'error',
      comment: 'The client asks the server through shared/protocol.ts; it never imports the server.',
      from: { path: '^client/' },
      to: { path: '^(server|cli|quota-api)/' },
    },
    // One rule per file kind: outside its folder, only its front door.
    ...['state', 'quota', 'ini', 'backend'].map((kind) => ({
      name: 'one-door-per-kind',
      severity: 'error',
      comment: `Outside shared/${kind}/, only its front door is imported: index.ts (the service object), or vocabulary.ts (its words, which the client bundles without the analysis). Specs may reach inside.`,
      from: { path: '^(server|cli|client|quota-api|shared)/', pathNot: [`^shared/${kind}/`, '[.]test[.]ts$'] },
      to: { path: `^shared/${kind}/`, pathNot: `^shared/${kind}/(index|vocabulary)[.]ts$` },
    })),
    {
      name: 'engine-in-the-server-only',
      severity: 'error',
      comment:
        "The analysis and the quota engine run in the language server: the client imports a kind's vocabulary.ts, and of its index.ts (the service) only types; it asks the server for the rest (ExplainAccountRequest and the other requests of shared/protocol.ts).",
      from: { path: '^client/' },
      to: { path: '^shared/(state|quota|ini|backend)/index[.]ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'api-not-server-or-client',
      severity: 'error',
      from: { path: '^quota-api/' },
      to: { path: '^(server|cli|client)/' },
    },
    {
      name: 'language-server-not-cli',
      severity: 'error',
      comment: 'The language server does not import the CLI (cli/, a program of its own beside server/).',
      from: { path: '^server/' },
      to: { path: '^cli/' },
    },
    {
      name: 'cli-only-the-shared-node-io',
      severity: 'error',
      comment:
        'The CLI reads files and starts as the server does, through shared/node/ (regularFiles.ts, diskLookup.ts, codeCache.ts); nothing of the server, and neither the client nor the reference API.',
      from: { path: '^cli/' },
      to: { path: '^(server|client|quota-api)/' },
    },
    {
      name: 'product-not-tests',
      severity: 'error',
      comment: 'Only a spec beside its module (`*.test.ts`) may import the test helpers.',
      from: { path: '^(shared|server|cli|client|quota-api)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules', '^dist/'] },
    exclude: { path: '^(node_modules|test/vscode-host|esbuild\\.mjs$|shared/validators/.*\\.js$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
  },
};
