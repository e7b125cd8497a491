/**
 * `quota-state secrets get|check|change-passphrase` (the last in secretsChange.ts): a stack's secrets under Pulumi's passphrase provider, offline
 * (shared/backend/secrets/, docs/pulumi-secrets.md). `get` prints one secret's value and nothing
 * else; `check` reports every secret stored in plaintext and every ciphertext the stack's key does not
 * open, with what can be told of why. No value, passphrase or key is ever printed anywhere else.
 * Exit codes: 0 printed or clean; 1 a finding (check), or no such secret or one that does not
 * decrypt (get); 2 usage error, unreadable input, no passphrase, or an incorrect one.
 */
import {
  CiphertextError,
  formatPropertyPath,
  IncorrectPassphraseError,
  NotJsonSecretError,
  parsePropertyPath,
  PropertyPathError,
  revealAt,
  SecretsError,
  type PassphraseCrypter,
} from '../../shared/backend';
import { InputError, UsageError, type ParsedArguments } from '../args';
import { commandArguments, type CliIO } from '../io';
import { loadSecretsTarget, stateCrypter } from '../secretsAccess';
import { runSecretsCheck } from './secretsCheck';
import { CHANGE_PASSPHRASE_FLAGS, runSecretsChangePassphrase } from './secretsChange';

export const SECRETS_USAGE = `Usage:
  quota-state secrets get STACK|FILE URN PATH [--backend URL]
  quota-state secrets check STACK|FILE [--backend URL] [--config-file FILE] [--format text|json]
  quota-state secrets change-passphrase STACK [--backend URL] [--config-file FILE]
      [--new-passphrase-file FILE] [--include-history] [--break-lock] [--stale-after DURATION]

A state's secrets under Pulumi's passphrase provider, offline: a DIY stack's (STACK as \`quota-state
history\` takes it, in --backend or the backend \`quota-state backend ls\` finds) or a state file's (a
path that exists). The key is the state's salt (secrets_providers) and the passphrase Pulumi reads:
PULUMI_CONFIG_PASSPHRASE (as it is, even empty), else the file PULUMI_CONFIG_PASSPHRASE_FILE names
(its content, surrounding white space trimmed). A secret's value is printed by \`get\` alone, to
stdout, and never appears in a message.

get    prints the value of the secret at PATH of the resource URN: a string as it is, anything else
       as JSON. PATH is a property path as Pulumi writes them: outputs.dbPassword,
       inputs.tags["a.b"], outputs.list[0]; it may end at a secret or go on inside one.
check  reports every secret stored in plaintext (no passphrase needed), every malformed one, and
       every ciphertext that does not decrypt with the stack's key, saying why when it can (damaged;
       another stack's salt, when a key at hand opens it; a passphrase changed since). The stack's
       config file (Pulumi.<stack>.yaml beside the nearest Pulumi.yaml of the stack's project, or
       --config-file) is checked too: its secure values against its encryptionsalt.
change-passphrase
       moves the stack to a new passphrase, as \`pulumi stack change-secrets-provider passphrase\`
       does: a new salt; the current state's secrets and secrets_providers re-encrypted under Pulumi's
       lock (the old state kept as the .bak); Pulumi.<stack>.yaml given the new encryptionsalt and its
       secure values re-encrypted (the old file kept as Pulumi.<stack>.yaml.bak). Refused, with nothing
       written, when that file is not at hand. The new passphrase: QUOTA_STATE_NEW_PASSPHRASE (as it
       is), else --new-passphrase-file (trimmed), else asked twice on a terminal.
       --include-history also REWRITES THE HISTORY: every checkpoint, the secure config of every
       .history.json entry and every backup, so that each version stays restorable and readable with
       the new passphrase (a file the old passphrase does not open is left as it is, and named).

  --backend URL       the backend (default: as \`quota-state backend ls\` finds it)
  --config-file FILE  the stack's config file, instead of looking for Pulumi.<stack>.yaml
  --format text|json  check's report (default text)
  --new-passphrase-file FILE, --include-history, --break-lock, --stale-after DURATION
                      change-passphrase's (--break-lock and --stale-after as \`quota-state restore\` takes them)

Exit codes: 0 printed (get) or no problem (check); 1 a problem found (check), or no such resource,
no secret at PATH, or one that does not decrypt (get); 2 usage error, unreadable input, no
passphrase when one is needed, or an incorrect passphrase.`;

const FLAGS = { backend: 'value', 'config-file': 'value', format: 'value', ...CHANGE_PASSPHRASE_FLAGS } as const;

export async function runSecretsCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) throw new UsageError('secrets needs a command: get, check or change-passphrase');
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout(SECRETS_USAGE);
    return 0;
  }
  if (sub !== 'get' && sub !== 'check' && sub !== 'change-passphrase') throw new UsageError(`unknown secrets command "${sub}" (get, check or change-passphrase)`);
  const parsed = commandArguments(SECRETS_USAGE, rest, FLAGS, io);
  if (!parsed) return 0;
  try {
    if (sub !== 'change-passphrase') refuseChangeFlags(parsed, sub);
    return sub === 'get' ? await runSecretsGet(parsed, io) : sub === 'check' ? await runSecretsCheck(parsed, io) : await runSecretsChangePassphrase(parsed, io);
  } catch (error) {
    if (error instanceof IncorrectPassphraseError) {
      io.stderr(
        'quota-state: incorrect passphrase: it does not open the salt of the secrets (the salt\'s check value does not decrypt to "pulumi"); set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE to the stack\'s',
      );
      return 2;
    }
    // The provider is not the passphrase provider, or its salt state is malformed: Pulumi stops there too.
    if (error instanceof SecretsError && !(error instanceof CiphertextError)) throw new InputError(`the state's secrets provider cannot be used: ${error.message}`);
    throw error;
  }
}

/** get and check take none of change-passphrase's flags. */
function refuseChangeFlags(parsed: ParsedArguments, sub: string): void {
  for (const [flag, kind] of Object.entries(CHANGE_PASSPHRASE_FLAGS)) {
    if (kind === 'value' ? parsed.flags[flag] !== undefined : parsed.booleans.has(flag)) throw new UsageError(`secrets ${sub} takes no --${flag}`);
  }
}

/** `secrets get STACK|FILE URN PATH`: the value on stdout, nothing else anywhere. */
async function runSecretsGet(parsed: ParsedArguments, io: CliIO): Promise<number> {
  if (parsed.flags['config-file'] !== undefined || parsed.flags.format !== undefined) throw new UsageError('secrets get takes neither --config-file nor --format');
  if (parsed.positional.length !== 3) throw new UsageError('secrets get takes a STACK or FILE, a URN and a PATH');
  const [operand, urn, pathText] = parsed.positional;
  let path: Array<string | number>;
  try {
    path = parsePropertyPath(pathText);
  } catch (error) {
    if (error instanceof PropertyPathError) throw new UsageError(`PATH "${pathText}" is no property path: ${error.message}`);
    throw error;
  }
  if (path.length === 0) throw new UsageError('PATH is empty; name a property, such as outputs.password');
  const target = await loadSecretsTarget(operand, parsed.flags.backend, io);
  if (typeof target === 'number') return target;
  const { structure, display } = target;
  const record = structure.resources.find((entry) => entry.urn === urn) ?? structure.pendingResources.find((entry) => entry.urn === urn);
  if (!record) {
    io.stderr(`quota-state: no resource ${urn} in ${display}`);
    return 1;
  }
  const where = `${formatPropertyPath(path)} of ${urn}`;
  // The key is derived only when a ciphertext is on the way: a plaintext secret needs no passphrase.
  let crypter: Promise<PassphraseCrypter | number> | undefined;
  const decrypt = async (ciphertext: string) => {
    const opened = await (crypter ??= stateCrypter(target, io));
    if (typeof opened === 'number') throw new Exit(opened);
    return opened.decrypt(ciphertext);
  };
  try {
    const revealed = await revealAt(record.value, path, decrypt);
    if (!revealed.found) {
      const why = {
        missing: 'there is no such property',
        'not-secret': 'the value there is not a secret (nor inside one)',
        malformed: 'a malformed secret is on the way (needs exactly one of ciphertext or plaintext)',
      };
      io.stderr(`quota-state: ${where} in ${display}: ${why[revealed.reason]}`);
      return 1;
    }
    io.stdout(typeof revealed.value === 'string' ? revealed.value : JSON.stringify(revealed.value, null, 2));
    return 0;
  } catch (error) {
    if (error instanceof Exit) return error.code;
    if (error instanceof CiphertextError) {
      io.stderr(`quota-state: the secret at ${where} in ${display} does not decrypt with the stack's key (${error.message}); \`quota-state secrets check\` tells why`);
      return 1;
    }
    if (error instanceof NotJsonSecretError) {
      io.stderr(`quota-state: the secret at ${where} in ${display}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

/** Ends a command with `code` after its message was said. */
class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}
