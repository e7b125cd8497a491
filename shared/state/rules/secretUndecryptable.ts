/**
 * `secret-undecryptable`: a ciphertext that does not open with the stack's key (the key of the
 * passphrase and the salt in the state's own `secrets_providers`, which `pulumi stack export
 * --show-secrets` decrypts it with). Pulumi loads such a state, then fails at its first decryption
 * (`failed to decrypt`), so a Warning. Only a caller that holds the key can tell (the language
 * server's secrets pass, once a passphrase is known, in `secretsPass`): the plain analysis decrypts
 * nothing and reports nothing of it. The message says the likely cause, never the value.
 */
import * as l10n from '@vscode/l10n';
import { pathKey } from '../model/locate';
import type { StateFinding } from '../passes/findings';
import type { UndecryptableCause } from '../passes/secrets';
import type { StateRule, StateRuleContext } from './stateRule';

function messageOf(cause: UndecryptableCause): string {
  switch (cause.kind) {
    case 'damaged':
      return l10n.t('This secret\'s ciphertext is damaged ("{0}"): Pulumi cannot decrypt it.', cause.message);
    case 'not-json':
      return l10n.t("This secret opens with the stack's key, but not to JSON text: Pulumi cannot read it.");
    case 'no-key':
      return l10n.t("This secret does not decrypt with the stack's key: it was likely encrypted under another stack's salt (copied from another stack), or before the passphrase was changed.");
  }
}

function check({ secrets, secretsPass }: StateRuleContext): StateFinding[] {
  if (!secretsPass || secretsPass.undecryptable.size === 0) return [];
  const out: StateFinding[] = [];
  for (const { jsonPath, secret } of secrets) {
    const cause = secret.form === 'ciphertext' ? secretsPass.undecryptable.get(pathKey(jsonPath)) : undefined;
    if (!cause) continue;
    out.push({ code: 'secret-undecryptable', message: messageOf(cause), at: { path: [...jsonPath, 'ciphertext'], part: 'value' }, data: { path: jsonPath, cause: cause.kind } });
  }
  return out;
}

export const secretUndecryptable: StateRule = {
  code: 'secret-undecryptable',
  doc: "A ciphertext does not decrypt with the stack's key (another stack's salt, or a changed passphrase); checked only once the passphrase is given.",
  check,
};
