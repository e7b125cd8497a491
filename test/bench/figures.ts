/**
 * The measured operations, shared by the in-process timing loop and the per-figure child
 * processes that measure peak RSS.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { getLanguageService, TextDocument } from 'vscode-json-languageservice';
import { analyzeState, reanalyzeState, type StateAnalysis } from '../../shared/state/analyze';
import { resourceLayoutOf } from '../../shared/state/model/snapshot';

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
  service = getLanguageService({
    // Our schemas refer to each other by relative $ref; without a workspace context the service
    // resolves those against nothing, finds no schema and validates records against {}.
    workspaceContext: { resolveRelativePath: (relative, resource) => new URL(relative, resource).toString() },
    schemaRequestService: async (uri) => {
      if (!(uri in schemas)) throw new Error(`the reference point asked for an unknown schema ${uri}`);
      return JSON.stringify(schemas[uri]);
    },
  });
  service.configure({
    validate: true,
    schemas: Object.entries(schemas).map(([uri, s]) => ({ uri, schema: s as object, fileMatch: uri.includes('state-file') ? ['*.state.json'] : [] })),
  });
  return service;
}

export async function jsonLanguageService(text: string): Promise<number> {
  return (await jsonLanguageServiceMessages(text)).length;
}

async function jsonLanguageServiceMessages(text: string): Promise<string[]> {
  const ls = jsonService();
  const document = TextDocument.create('file:///bench/file.state.json', 'json', 1, text);
  const parsed = ls.parseJSONDocument(document);
  const diagnostics = await ls.doValidation(document, parsed, { schemaValidation: 'error' });
  return diagnostics.map((d) => (typeof d.message === 'string' ? d.message : d.message.value));
}

/**
 * Refuses to benchmark a reference point that does not validate what we validate: a record
 * with an unknown property and a malformed secret deep in its outputs must be reported by
 * both, or the comparison is against a service checking less (as it once silently was).
 */
export async function checkReferencePoint(): Promise<void> {
  const record = {
    urn: 'urn:pulumi:dev::bench::pulumi:pulumi:Stack::bench-dev',
    type: 'pulumi:pulumi:Stack',
    notARecordProperty: true,
    outputs: { nested: { deeper: { '4dabf18193072939515e22adb298388d': '1b47061264138c4ac30d75fd1eb44270' } } },
  };
  const text = JSON.stringify({ version: 3, deployment: { manifest: { time: '2024-01-01T00:00:00Z', magic: '', version: '' }, resources: [record] } });
  const theirs = await jsonLanguageServiceMessages(text);
  const ours = analyzeState(text).diagnostics.map((d) => d.message);
  const both = (pattern: RegExp) => theirs.some((m) => pattern.test(m)) && ours.some((m) => pattern.test(m));
  if (!both(/notARecordProperty/) || !both(/ciphertext/)) {
    throw new Error(`the reference point does not validate the same schemas: it reported ${JSON.stringify(theirs)}, we reported ${JSON.stringify(ours)}`);
  }
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
