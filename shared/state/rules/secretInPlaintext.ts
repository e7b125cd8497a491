/**
 * `secret-in-plaintext`: a secret stored as `{"4dab…": "1b47…", "plaintext": "<JSON text>"}`, as
 * `pulumi stack export --show-secrets` writes it. Pulumi reads and even writes these
 * (deployment.go's `DeserializePropertyValue` takes `plaintext`), so it is Information, never a
 * Warning, and reported with or without a passphrase. Its fix, once the stack's key is known (the
 * language server's secrets pass gives the value encrypted under it in `data.ciphertext`), replaces
 * the object by its ciphertext form, as `pulumi stack import` would store it.
 */
import * as l10n from '@vscode/l10n';
import type { Fix, FixRequest } from '../../edits';
import type { StateSnapshot } from '../model/snapshot';
import { pathKey, type JsonPath } from '../model/locate';
import { locate } from '../passes/fixes';
import type { StateFinding } from '../passes/findings';
import { SECRET_SIGNATURE, SECRET_SIGNATURE_KEY } from '../passes/secrets';
import { isObject } from '../model/structure';
import type { StateRule, StateRuleContext } from './stateRule';

function check({ secrets, secretsPass }: StateRuleContext): StateFinding[] {
  const out: StateFinding[] = [];
  for (const { jsonPath, secret } of secrets) {
    if (secret.form !== 'plaintext') continue;
    const ciphertext = secretsPass?.encrypted.get(pathKey(jsonPath));
    out.push({
      code: 'secret-in-plaintext',
      message: l10n.t("This secret is stored in plaintext: anyone who can read the state can read it. Pulumi accepts it, and encrypts it again on the stack's next update."),
      at: { path: jsonPath, part: 'name' },
      data: { path: jsonPath, ...(ciphertext !== undefined ? { ciphertext } : {}) },
    });
  }
  return out;
}

/** The secret object's text must still hold a secret in plaintext. */
function isPlaintextSecretAt(text: string, span: { offset: number; length: number }): boolean {
  try {
    const value: unknown = JSON.parse(text.slice(span.offset, span.offset + span.length));
    return isObject(value) && value[SECRET_SIGNATURE_KEY] === SECRET_SIGNATURE && typeof value.plaintext === 'string';
  } catch {
    return false;
  }
}

function fix(snapshot: StateSnapshot, { data }: FixRequest): Fix[] {
  const { ciphertext, path } = data;
  if (typeof ciphertext !== 'string' || !ciphertext.startsWith('v1:') || !Array.isArray(path)) return [];
  const span = locate(snapshot, path as JsonPath)?.value;
  if (!span || !isPlaintextSecretAt(snapshot.text, span)) return [];
  const newText = `{${JSON.stringify(SECRET_SIGNATURE_KEY)}:${JSON.stringify(SECRET_SIGNATURE)},"ciphertext":${JSON.stringify(ciphertext)}}`;
  return [{ title: l10n.t('Encrypt this secret'), edits: [{ offset: span.offset, length: span.length, newText }] }];
}

export const secretInPlaintext: StateRule = {
  code: 'secret-in-plaintext',
  doc: "A secret is stored in plaintext; once the stack's passphrase is given, the fix encrypts it under the stack's key.",
  check,
  fix,
};
