/**
 * `quota-state secrets change-passphrase STACK`: a stack's secrets moved to a new passphrase, offline,
 * as `pulumi stack change-secrets-provider passphrase` does: a fresh salt, the current state's
 * ciphertexts and `secrets_providers` re-sealed under it (under Pulumi's lock, with the `.bak`), and
 * the stack's `Pulumi.<stack>.yaml` given the new `encryptionsalt` and its `secure:` values re-sealed.
 * With --include-history, the history's checkpoints, the `config` of its `.history.json` entries and
 * the stack's backups too (each under its own salt's key, left as it is when that does not open it).
 * The change itself is shared/backend's `changePassphrase` (the Backends view's Change Passphrase...
 * runs the same); this command finds the passphrases and `Pulumi.<stack>.yaml`, and writes that file.
 */
import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  changePassphrase,
  CiphertextError,
  goTrimSpace,
  IncorrectPassphraseError,
  objectUrl,
  PassphraseChangeRefusal,
  StackLockedError,
  StoreConflict,
  type BackendStack,
  type PassphraseChanged,
} from '../../shared/backend';
import { InputError, UsageError, type ParsedArguments } from '../args';
import { openBackend, openStack, scopeOf } from '../backendAccess';
import type { CliIO } from '../io';
import { cliLockOptions, staleAfterFlag } from '../lockFlags';
import { askNewPassphrase } from '../passphrasePrompt';
import { environmentPassphrase, NEEDS_PASSPHRASE } from '../secretsAccess';
import { findStackConfig, readStackConfig, type StackConfigFile } from '../stackConfig';
import { compressAs } from '../stateFiles';

/** The new passphrase: QUOTA_STATE_NEW_PASSPHRASE as it is, else --new-passphrase-file trimmed as Pulumi trims its file, else asked twice on a terminal. */
async function newPassphrase(parsed: ParsedArguments, io: CliIO): Promise<string> {
  const direct = process.env.QUOTA_STATE_NEW_PASSPHRASE;
  if (direct !== undefined) return direct;
  const file = parsed.flags['new-passphrase-file'];
  if (file !== undefined) {
    try {
      return goTrimSpace(readFileSync(resolve(io.cwd, file), 'utf8'));
    } catch (error) {
      throw new InputError(`cannot read --new-passphrase-file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  const asked = await askNewPassphrase();
  if (asked === undefined) throw new UsageError('change-passphrase needs the new passphrase: QUOTA_STATE_NEW_PASSPHRASE, or --new-passphrase-file FILE (on a terminal it is asked for twice)');
  return asked;
}

/** Writes the config file's new text in one rename, its old text kept beside it as `<file>.bak`, its mode kept. */
function writeConfigFile(config: StackConfigFile, before: string, text: string): string {
  const backup = `${config.path}.bak`;
  const mode = statSync(config.path).mode & 0o7777;
  writeFileSync(backup, before, { mode });
  const temporary = join(dirname(config.path), `.${basename(config.path)}.quota-state-${process.pid}.tmp`);
  writeFileSync(temporary, text, { mode });
  chmodSync(temporary, mode);
  renameSync(temporary, config.path);
  return backup;
}

export const CHANGE_PASSPHRASE_FLAGS = { 'new-passphrase-file': 'value', 'include-history': 'boolean', 'break-lock': 'boolean', 'stale-after': 'value' } as const;

/** `secrets change-passphrase STACK`. */
export async function runSecretsChangePassphrase(parsed: ParsedArguments, io: CliIO): Promise<number> {
  if (parsed.positional.length !== 1) throw new UsageError('secrets change-passphrase takes one STACK');
  if (parsed.flags.format !== undefined) throw new UsageError('secrets change-passphrase takes no --format');
  const staleAfter = staleAfterFlag(parsed.flags['stale-after']);
  const old = environmentPassphrase(io);
  if (!old) {
    io.stderr(`quota-state: ${NEEDS_PASSPHRASE} (the current one)`);
    return 2;
  }
  const opened = await openBackend(parsed.flags.backend, io, scopeOf(parsed.positional[0]));
  if (typeof opened === 'number') return opened;
  const stack = openStack(opened, parsed.positional[0], io);
  if (stack === 1) return 1;
  if (!stack.file) throw new InputError(`the stack "${stack.ref}" in ${opened.backend.url} has no stack file`);
  const configFlag = parsed.flags['config-file'];
  const config = configFlag !== undefined ? readStackConfig(resolve(io.cwd, configFlag), io.cwd) : findStackConfig(io.cwd, stack.project, stack.name);
  if (!config) {
    io.stderr(
      `quota-state: Pulumi.${stack.name}.yaml of ${stack.ref} is not at hand (run in the project's folder, or give --config-file): its encryptionsalt and secure values would stay under the old key; nothing was written`,
    );
    return 1;
  }
  const next = await newPassphrase(parsed, io);
  const shown = objectUrl(opened.backend.url, stack.file.name);
  try {
    const configBefore = readFileSync(config.path, 'utf8');
    const changed = await changePassphrase(
      {
        store: opened.store,
        read: { maxInflatedBytes: opened.maxInflatedBytes, budget: opened.budget },
        compress: (bytes, compression) => Promise.resolve(compressAs(bytes, compression)),
        writeConfig: (text) => Promise.resolve(writeConfigFile(config, configBefore, text)),
      },
      {
        stack,
        current: old.value,
        next,
        config: { display: config.display, text: configBefore },
        includeHistory: parsed.booleans.has('include-history'),
        lock: cliLockOptions(parsed.booleans.has('break-lock'), staleAfter, io.stderr),
      },
    );
    say(io, stack, changed);
    return changed.history.unopened.length ? 1 : 0;
  } catch (error) {
    if (error instanceof IncorrectPassphraseError) {
      io.stderr(`quota-state: incorrect passphrase: PULUMI_CONFIG_PASSPHRASE(_FILE) does not open the salt of ${shown}; nothing was written`);
      return 2;
    }
    if (error instanceof PassphraseChangeRefusal || error instanceof StackLockedError || error instanceof StoreConflict || error instanceof CiphertextError) {
      io.stderr(`quota-state: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function say(io: CliIO, stack: BackendStack, changed: PassphraseChanged): void {
  const { backups } = changed;
  io.stdout(
    `changed the passphrase of ${stack.ref}: a new salt; ${changed.state} secrets of its state and ${changed.config} secure config values re-encrypted (the old ones are in ${backups.state} and ${backups.config})`,
  );
  const { history } = changed;
  if (history.objects) io.stdout(`rewrote ${history.objects} history and backup files (${history.secrets} secrets re-encrypted)`);
  for (const left of history.unopened) io.stderr(`warning: left as it was (the old passphrase does not open it): ${left}`);
}
