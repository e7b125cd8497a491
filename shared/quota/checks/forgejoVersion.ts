/** A `forgejoVersion` that is not a Forgejo version, or names a server without the quota API. */
import * as l10n from '@vscode/l10n';
import type { QuotaCheck } from './finding';

export const invalidForgejoVersion: QuotaCheck = (reading) => {
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
};
