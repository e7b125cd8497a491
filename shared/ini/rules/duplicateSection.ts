/** `duplicate-section`: a quota section header repeated, which go-ini merges into the first. */
import * as l10n from '@vscode/l10n';
import { isQuotaSection } from '../quotaSettings';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';
import { lineNumberOf } from './context';

function check(context: AppIniContext): AppIniFinding[] {
  const findings: AppIniFinding[] = [];
  context.document.headers.forEach((header, index) => {
    const first = context.firstHeaders.get(header.name);
    if (!isQuotaSection(header.name) || first === undefined || first === index) return;
    const firstSpan = context.document.headers[first].span;
    findings.push({
      code: 'duplicate-section',
      at: header.span,
      message: l10n.t('[{0}] appears again (first on line {1}): Forgejo merges both into one section, and a key set in both keeps the later value.', header.name, lineNumberOf(context, firstSpan)),
      related: [{ at: firstSpan, message: l10n.t('first [{0}]', header.name) }],
    });
  });
  return findings;
}

export const duplicateSection: AppIniRule = {
  code: 'duplicate-section',
  doc: 'A `[quota]` or `[quota.default]` header repeated: Forgejo merges both into one section, and a key set in both keeps the later value.',
  check,
};
