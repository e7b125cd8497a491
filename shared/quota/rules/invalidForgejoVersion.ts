/** `invalid-forgejo-version`: a `forgejoVersion` that is not a Forgejo version, or names a server without the quota API. */
import * as l10n from '@vscode/l10n';
import { ofReading, type QuotaDiagnosticRule } from './quotaDiagnosticRule';

export const invalidForgejoVersion: QuotaDiagnosticRule = {
  code: 'invalid-forgejo-version',
  doc: '`forgejoVersion` is not a Forgejo version, or names a Gitea or Forgejo server without the quota API (before 9.0), so the previews cannot follow it.',
  check: ofReading((reading) => {
    const declared = reading.result.forgejoVersion;
    if (!declared?.error) return [];
    return [
      {
        code: 'invalid-forgejo-version',
        message: l10n.t('{0}. The previews follow the setting, the connected server or the default instead.', declared.error),
        at: declared.span,
        data: { version: declared.text },
      },
    ];
  }),
};
