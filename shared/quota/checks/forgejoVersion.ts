/** A `forgejoVersion` that is not a Forgejo version, or names a server without the quota API. */
import type { QuotaCheck } from './finding';

export const invalidForgejoVersion: QuotaCheck = (reading) => {
  const declared = reading.result.forgejoVersion;
  if (!declared?.error) return [];
  return [
    {
      code: 'invalid-forgejo-version',
      message: `${declared.error}. The previews follow the setting, the connected server or the default instead.`,
      at: declared.span,
      data: { version: declared.text },
    },
  ];
};
