/**
 * The measured operations, shared by the in-process timing loop and the per-figure child
 * processes that measure peak RSS.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { analyzeState, reanalyzeState, type StateAnalysis } from '../../shared/state/analyze';
import { resourceLayoutOf } from '../../shared/state/snapshot';

const ROOT = resolve(__dirname, '..', '..');
const schema = (name: string) => JSON.parse(readFileSync(resolve(ROOT, 'schemas', name), 'utf8'));

let service: ReturnType<typeof getLanguageService> | undefined;

/** vscode-json-languageservice configured with our three schemas, the file matched to the wrapper. */
function jsonService(): ReturnType<typeof getLanguageService> {
  if (service) return service;
  const schemas: Record<string, unknown> = {
    'https://quota-state.dev/schemas/state-file.schema.json': schema('state-file.schema.json'),
    'https://quota-state.dev/schemas/resource-state.v3.schema.json': schema('resource-state.v3.schema.json'),
    'https://quota-state.dev/schemas/property-value.schema.json': schema('property-value.schema.json'),
  };
  service = getLanguageService({ schemaRequestService: async (uri) => JSON.stringify(schemas[uri] ?? {}) });
  service.configure({
    validate: true,
    schemas: Object.entries(schemas).map(([uri, s]) => ({ uri, schema: s as object, fileMatch: uri.includes('state-file') ? ['*.state.json'] : [] })),
  });
  return service;
}

export async function jsonLanguageService(text: string): Promise<number> {
  const ls = jsonService();
  const document = TextDocument.create('file:///bench/file.state.json', 'json', 1, text);
  const parsed = ls.parseJSONDocument(document);
  const diagnostics = await ls.doValidation(document, parsed, { schemaValidation: 'error' });
  return diagnostics.length;
}

export function ours(text: string): number {
  return analyzeState(text).diagnostics.length;
}

/** The analysis a keystroke starts from; `warm` when the record spans were already scanned. */
export function previousAnalysis(text: string, warm: boolean): StateAnalysis {
  const analysis = analyzeState(text);
  if (warm) resourceLayoutOf(analysis);
  return analysis;
}

/** Re-analysis of `edited` from the previous version's analysis (the server's keystroke path). */
export function oursAfterEdit(previous: StateAnalysis, edited: string): number {
  return reanalyzeState(previous, edited).diagnostics.length;
}

export function floor(text: string): number {
  return JSON.parse(text) === null ? 0 : 1;
}

/** One-character edits in the middle of the document. */
export function edit(text: string, kind: 'value' | 'key' | 'syntax'): string {
  const middle = Math.floor(text.length / 2);
  if (kind === 'value') {
    const at = text.indexOf('"name": "res-', middle) + '"name": "res-'.length;
    return text.slice(0, at) + 'x' + text.slice(at);
  }
  if (kind === 'key') {
    const at = text.indexOf('"protect"', middle) !== -1 ? text.indexOf('"protect"', middle) + 1 : text.indexOf('"custom"', middle) + 1;
    return text.slice(0, at) + 'x' + text.slice(at);
  }
  const at = text.indexOf('"custom"', middle);
  return text.slice(0, at) + text.slice(at + 1);
}
