/**
 * Lists in sentences, with the conjunction translated: `a and b and c`, `a or b` (English joins every
 * item with the word; a translation may word the pair its own way). Empty lists give ''.
 */
import * as l10n from '@vscode/l10n';

export function andList(items: readonly string[]): string {
  return items.length ? items.reduce((list, item) => l10n.t('{0} and {1}', list, item)) : '';
}

export function orList(items: readonly string[]): string {
  return items.length ? items.reduce((list, item) => l10n.t('{0} or {1}', list, item)) : '';
}
