/** `duplicate-key`: a quota key set again later in its section, so Forgejo ignores this one. */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest } from '../../edits';
import type { AppIniContext, AppIniFinding, AppIniRule } from './context';
import { lineNumberOf } from './context';

function check(context: AppIniContext): AppIniFinding[] {
  const findings: AppIniFinding[] = [];
  for (const entry of context.quotaEntries) {
    const winner = context.readEntry(entry.section, entry.key)!;
    if (winner === entry) continue;
    findings.push({
      code: 'duplicate-key',
      at: entry.keySpan,
      message: l10n.t('{0} is set again on line {1}: Forgejo reads only the last value ({2}), so this one is ignored.', entry.key, lineNumberOf(context, winner.keySpan), JSON.stringify(winner.value)),
      tags: ['unnecessary'],
      related: [{ at: winner.keySpan, message: l10n.t('the {0} Forgejo reads', entry.key) }],
    });
  }
  return findings;
}

/** Removes the ignored entry's whole lines (a multi-line value included), newline and all. */
function fix(context: AppIniContext, request: FixRequest): Fix[] {
  const entry = context.quotaEntries.find((candidate) => candidate.keySpan.offset === request.span.offset);
  if (!entry) return [];
  const { lines } = context;
  const start = lines.offsetAt({ line: lines.positionAt(entry.lineSpan.offset).line, character: 0 });
  const end = lines.offsetAt({ line: lines.positionAt(entry.lineSpan.offset + entry.lineSpan.length).line + 1, character: 0 });
  return [{ title: l10n.t('Remove the ignored {0}', entry.key), edits: [{ offset: start, length: end - start, newText: '' }], preferred: false }];
}

export const duplicateKey: AppIniRule = {
  code: 'duplicate-key',
  doc: 'A quota key set twice in the same section (repeated sections included): Forgejo reads only the last one, so the earlier one is ignored (and shown faded).',
  check,
  fix,
};
