#!/usr/bin/env node
// Rewrites the diagnostic-code lists of package.json (the severity setting's propertyNames),
// package.nls.json (what each code means) and the docs pages' code tables (docs/state-files.md,
// docs/quota-files.md, docs/app-ini.md: CODE_TABLE_PAGES) from the rule modules in shared/*/rules/
// and the severities of the registries in shared/*/codes.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { tsImport } from 'tsx/esm/api';

const root = new URL('..', import.meta.url);
const tables = await tsImport('./codeTables.ts', import.meta.url);
for (const [file, rewrite] of [
  ['package.json', tables.withManifestCodes],
  ['package.nls.json', tables.withNlsCodeDescriptions],
  ...tables.CODE_TABLE_PAGES.map((page) => [page, (text) => tables.withCodeTables(page, text)]),
]) {
  const path = new URL(file, root);
  const before = readFileSync(path, 'utf8');
  const after = rewrite(before);
  if (after !== before) writeFileSync(path, after);
  console.log(`${file}: ${after === before ? 'up to date' : 'updated'}`);
}
