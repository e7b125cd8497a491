/** `value-cut-by-comment`: a `;` or `#` glued to a quota value, where go-ini starts a comment. */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest } from '../../edits';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';

/** `free ; paid later` is a comment on purpose; only a comment character right after the value is flagged. */
function check(context: AppIniContext): AppIniFinding[] {
  const { text } = context;
  const findings: AppIniFinding[] = [];
  for (const entry of context.quotaEntries) {
    const { comment } = entry;
    if (!comment || entry.valueSpan.length === 0 || /\s/.test(text[comment.offset - 1] ?? ' ')) continue;
    const message = l10n.t(
      '"{0}" starts a comment: Forgejo reads {1} as {2} and ignores {3}. Wrap the value in backticks to keep the character.',
      text[comment.offset],
      entry.key,
      JSON.stringify(entry.value),
      JSON.stringify(text.slice(comment.offset, comment.offset + comment.length)),
    );
    findings.push({ code: 'value-cut-by-comment', at: comment, message });
  }
  return findings;
}

/** Wraps the value and the comment in backticks, which go-ini reads verbatim (impossible when the text holds a backtick). */
function fix(context: AppIniContext, request: FixRequest): Fix[] {
  const entry = context.quotaEntries.find((candidate) => candidate.comment?.offset === request.span.offset);
  if (!entry?.comment) return [];
  const full = context.text.slice(entry.valueSpan.offset, entry.comment.offset + entry.comment.length);
  if (full.includes('`')) return [];
  return [{ title: l10n.t('Wrap the value in backticks'), edits: [{ offset: entry.valueSpan.offset, length: full.length, newText: `\`${full}\`` }], preferred: true }];
}

export const valueCutByComment: AppIniRule = {
  code: 'value-cut-by-comment',
  doc: 'A `;` or `#` right after a quota value, as in `free;pro`, starts a comment: Forgejo reads only the text before it (`free`).',
  check,
  fix,
};
