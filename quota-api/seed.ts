/**
 * Seeds an empty database from an instance file, read with the same loader
 * the language server and `quota-state` use, so all three agree on what the file means.
 * A file with Error diagnostics is refused with located messages.
 */
import * as fs from 'node:fs';
import { createQuotaService } from '../shared/quota';
import type { QuotaStore } from './store/quotaStore';
import { isEmpty, seed } from './store/seeding';
import { hashToken } from './tokens';

const { analyze: analyzeQuotaConfig, isEvaluable } = createQuotaService();

export class SeedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SeedError';
  }
}

export type SeedOutcome = 'seeded' | 'kept-existing';

/** Loads `file` into the store when the store is empty; an existing database is never changed. */
export function seedFromFile(store: QuotaStore, file: string): SeedOutcome {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new SeedError(`cannot read seed file ${file}: ${(error as Error).message}`);
  }
  const analysis = analyzeQuotaConfig(text);
  if (!isEvaluable(analysis)) {
    const errors = analysis.diagnostics.filter((d) => d.severity === 'error').map((d) => `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: error ${d.code}: ${d.message}`);
    throw new SeedError(`the seed file has errors:\n${errors.join('\n')}`);
  }
  if (!isEmpty(store)) return 'kept-existing';
  const tokens = analysis.content.accounts.filter((a) => typeof a.token === 'string' && a.token.length > 0).map((a) => ({ account: a.name, sha256: hashToken(a.token!) }));
  seed(store, analysis.model, analysis.content, tokens);
  return 'seeded';
}
