/**
 * `quota-state secrets change-passphrase STACK`: a stack's secrets moved to a new passphrase, offline,
 * as `pulumi stack change-secrets-provider passphrase` does: a fresh salt, the current state's
 * ciphertexts and `secrets_providers` re-sealed under it (under Pulumi's lock, with the `.bak`), and
 * the stack's `Pulumi.<stack>.yaml` given the new `encryptionsalt` and its `secure:` values re-sealed.
 * With --include-history, the history's checkpoints, the `config` of its `.history.json` entries and
 * the stack's backups too (each under its own salt's key, left as it is when that does not open it).
 */
import { chmodSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  createBackendService,
  CiphertextError,
  IncorrectPassphraseError,
  goTrimSpace,
  listAll,
  newPassphraseCrypter,
  objectUrl,
  passphraseCrypter,
  passphraseSaltOf,
  readHistory,
  rekeyConfigFile,
  rekeyConfigMap,
  rekeyState,
  secretsProviderOf,
  SecretsError,
  StackLockedError,
  StoreConflict,
  withStackWrite,
  type BackendStack,
  type PassphraseCrypter,
} from '../../shared/backend';
import { createStateService } from '../../shared/state';
import { compressionOf, decodeFile } from '../../shared/text/inflate';
import { InputError, UsageError, type ParsedArguments } from '../args';
import { openBackend, openStack, scopeOf, type Opened } from '../backendAccess';
import type { CliIO } from '../io';
import { cliLockOptions, staleAfterFlag } from '../lockFlags';
import { askNewPassphrase } from '../passphrasePrompt';
import { environmentPassphrase, NEEDS_PASSPHRASE } from '../secretsAccess';
import { findStackConfig, readStackConfig, type StackConfigFile } from '../stackConfig';
import { compressAs, Refusal } from '../stateFiles';

const state = createStateService();
const backends = createBackendService();

/** What the change did, for the summary. */
interface Changed {
  state: number;
  config: number;
  history: { objects: number; secrets: number; unopened: string[] };
}

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

async function crypterOf(passphrase: string, saltState: string, whose: string): Promise<PassphraseCrypter> {
  try {
    return await passphraseCrypter(passphrase, saltState);
  } catch (error) {
    if (error instanceof IncorrectPassphraseError) throw new IncorrectPassphraseError();
    if (error instanceof SecretsError) throw new Refusal(`the secrets provider of ${whose} cannot be used: ${error.message}; nothing was written`);
    throw error;
  }
}

/** The passphrase salt state of a state's text; a Refusal when its provider is not the passphrase provider. */
function saltStateOf(text: string, whose: string): string {
  const provider = secretsProviderOf(state.structureOf(JSON.parse(text)));
  const salt = provider && passphraseSaltOf(provider);
  if (!salt) throw new Refusal(`${whose} is not under the passphrase secrets provider (${provider ? `its provider is "${provider.type}"` : 'it names none'}); nothing was written`);
  return salt;
}

/** One stored state (a checkpoint, a backup) re-sealed under `to`, or undefined when it holds no secret `old` opens under its own salt. */
async function rekeyedStateBytes(bytes: Uint8Array, name: string, old: string, to: PassphraseCrypter, opened: Opened): Promise<{ bytes: Uint8Array; secrets: number } | undefined> {
  const decoded = decodeFile(bytes, { name, maxBytes: opened.maxInflatedBytes, budget: opened.budget });
  const root: unknown = JSON.parse(decoded.text);
  const structure = state.structureOf(root);
  const provider = secretsProviderOf(structure);
  const salt = provider && passphraseSaltOf(provider);
  if (!salt || salt === to.saltState) return undefined;
  let from: PassphraseCrypter;
  try {
    from = await passphraseCrypter(old, salt);
  } catch (error) {
    if (error instanceof SecretsError) return undefined;
    throw error;
  }
  const { rekeyed } = await rekeyState(structure, from, to, { type: 'passphrase', state: { salt: to.saltState } });
  return { bytes: compressAs(new TextEncoder().encode(JSON.stringify(root)), compressionOf(bytes) ?? 'none'), secrets: rekeyed };
}

/** --include-history: every checkpoint, `.history.json` config and backup of the stack, each written only if still the version read. */
async function rekeyHistory(opened: Opened, stack: BackendStack, old: string, oldSalt: string, to: PassphraseCrypter, changed: Changed): Promise<void> {
  const { store } = opened;
  const { entries } = await readHistory(store, stack, { maxInflatedBytes: opened.maxInflatedBytes, budget: opened.budget });
  const configFrom = await passphraseCrypter(old, oldSalt);
  const write = async (name: string, edit: (bytes: Uint8Array) => Promise<{ bytes: Uint8Array; secrets: number } | undefined>) => {
    const current = await store.read(name);
    let edited: { bytes: Uint8Array; secrets: number } | undefined;
    try {
      edited = await edit(current.bytes);
    } catch (error) {
      if (!(error instanceof SyntaxError || error instanceof SecretsError)) throw error;
      changed.history.unopened.push(objectUrl(opened.backend.url, name));
      return;
    }
    if (!edited) return;
    await store.write(name, edited.bytes, { ifVersion: current.version });
    changed.history.objects++;
    changed.history.secrets += edited.secrets;
  };
  for (const entry of entries) {
    if (entry.checkpoint) await write(entry.checkpoint, (bytes) => rekeyedStateBytes(bytes, entry.checkpoint!, old, to, opened));
    await write(entry.file, async (bytes) => {
      const info = JSON.parse(new TextDecoder().decode(bytes)) as { config?: Record<string, unknown> };
      if (!info.config) return undefined;
      const { rekeyed, unopened } = await rekeyConfigMap(info.config, configFrom, to);
      if (unopened) changed.history.unopened.push(`${unopened} config values of ${objectUrl(opened.backend.url, entry.file)}`);
      return rekeyed ? { bytes: new TextEncoder().encode(JSON.stringify(info)), secrets: rekeyed } : undefined;
    });
  }
  for (const backup of await listAll(store, `.pulumi/backups/${stack.project ? `${stack.project}/` : ''}${stack.name}/`)) {
    await write(backup.name, (bytes) => rekeyedStateBytes(bytes, backup.name, old, to, opened));
  }
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
  const to = await newPassphraseCrypter(next);
  const changed: Changed = { state: 0, config: 0, history: { objects: 0, secrets: 0, unopened: [] } };
  const options = { ...cliLockOptions(parsed.booleans.has('break-lock'), staleAfter, io.stderr) };
  const stateName = stack.file.name;
  const shown = objectUrl(opened.backend.url, stateName);
  try {
    const configBefore = readFileSync(config.path, 'utf8');
    // The passphrase is checked before any lock is taken: a wrong one changes nothing, not even a lock.
    const stateText = async () => decodeFile((await opened.store.read(stateName)).bytes, { name: stateName, maxBytes: opened.maxInflatedBytes, budget: opened.budget }).text;
    const seenSalt = saltStateOf(await stateText(), shown);
    await crypterOf(old.value, seenSalt, shown);
    const configFrom = config.encryptionSalt ? await crypterOf(old.value, config.encryptionSalt, config.display) : undefined;
    const backups = await backends.withStackLock(opened.store, stack, options.identity, options, async () => {
      const oldSalt = saltStateOf(await stateText(), shown);
      const from = await crypterOf(old.value, oldSalt, shown);
      const rekeyedConfig = await rekeyConfigFile(configBefore, configFrom ?? from, to);
      if (rekeyedConfig.unopened) throw new Refusal(`${rekeyedConfig.unopened} secure values of ${config.display} do not decrypt with its encryptionsalt's key; nothing was written`);
      if (parsed.booleans.has('include-history')) await rekeyHistory(opened, stack, old.value, oldSalt, to, changed);
      const written = await withStackWrite(opened.store, stateName, { ...options, stack: null }, async (read) => {
        const root: unknown = JSON.parse(decodeFile(read!.bytes, { name: stateName, maxBytes: opened.maxInflatedBytes, budget: opened.budget }).text);
        const { rekeyed, unopened } = await rekeyState(state.structureOf(root), from, to, { type: 'passphrase', state: { salt: to.saltState } });
        if (unopened) throw new Refusal(`${unopened} secrets of ${shown} do not decrypt with its salt's key (\`quota-state secrets check\` says why); nothing was written`);
        changed.state = rekeyed;
        return { bytes: compressAs(new TextEncoder().encode(JSON.stringify(root)), compressionOf(read!.bytes) ?? 'none'), value: undefined };
      });
      changed.config = rekeyedConfig.rekeyed;
      return { state: written.backup, config: writeConfigFile(config, configBefore, rekeyedConfig.text) };
    });
    say(io, stack, changed, { state: objectUrl(opened.backend.url, backups.state ?? `${stateName}.bak`), config: backups.config });
    return changed.history.unopened.length ? 1 : 0;
  } catch (error) {
    if (error instanceof IncorrectPassphraseError) {
      io.stderr(`quota-state: incorrect passphrase: PULUMI_CONFIG_PASSPHRASE(_FILE) does not open the salt of ${shown}; nothing was written`);
      return 2;
    }
    if (error instanceof Refusal || error instanceof StackLockedError || error instanceof StoreConflict || error instanceof CiphertextError) {
      io.stderr(`quota-state: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function say(io: CliIO, stack: BackendStack, changed: Changed, backups: { state: string; config: string }): void {
  io.stdout(
    `changed the passphrase of ${stack.ref}: a new salt; ${changed.state} secrets of its state and ${changed.config} secure config values re-encrypted (the old ones are in ${backups.state} and ${backups.config})`,
  );
  const { history } = changed;
  if (history.objects) io.stdout(`rewrote ${history.objects} history and backup files (${history.secrets} secrets re-encrypted)`);
  for (const left of history.unopened) io.stderr(`warning: left as it was (the old passphrase does not open it): ${left}`);
}
