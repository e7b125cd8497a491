/**
 * What `quota-state secrets …` reads (commands/secrets.ts, commands/secretsCheck.ts): the state a
 * STACK or FILE names, the passphrase of the environment, the stack's identity, and other stacks'
 * salts to explain a ciphertext the stack's key does not open.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  createBackendService,
  IncorrectPassphraseError,
  objectUrl,
  openCiphertexts,
  passphraseCrypter,
  passphraseFromEnvironment,
  passphraseSaltOf,
  readBytes,
  secretsProviderOf,
  SecretsError,
  type BackendStack,
  type OtherSalt,
  type Passphrase,
} from '../shared/backend';
import { createStateService, findSecrets, type StateStructure } from '../shared/state';
import { decodeFile, InflateBudgetError } from '../shared/text/inflate';
import { InputError, UsageError } from './args';
import { openBackend, openStack, readStackState, scopeOf, type Opened } from './backendAccess';
import { displayPath, readDocumentOrFail, type CliIO } from './io';

const state = createStateService();
const backends = createBackendService();

/** The state a command reads: its text, how messages name it, and for a STACK the backend and stack. */
export interface SecretsTarget {
  display: string;
  structure: StateStructure;
  opened?: Opened;
  stack?: BackendStack;
}

/** Reads the STACK or FILE `operand` names (a path that exists, without --backend, is a file). */
export async function loadSecretsTarget(operand: string, backendFlag: string | undefined, io: CliIO): Promise<SecretsTarget | number> {
  const file = resolve(io.cwd, operand);
  let text: string;
  let display: string;
  let opened: Opened | undefined;
  let stack: BackendStack | undefined;
  if (backendFlag === undefined && existsSync(file)) {
    display = displayPath(io.cwd, file);
    text = readDocumentOrFail(file, io, display).text;
  } else {
    const found = await openBackend(backendFlag, io, scopeOf(operand));
    if (typeof found === 'number') return found;
    const named = openStack(found, operand, io);
    if (named === 1) return 1;
    const read = await readStackState(found, named, io);
    if (typeof read === 'number') return read;
    ({ text, display } = read);
    [opened, stack] = [found, named];
  }
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch {
    throw new InputError(`${display} is not valid JSON; \`quota-state check\` shows where`);
  }
  return { display, structure: state.structureOf(root), ...(opened ? { opened } : {}), ...(stack ? { stack } : {}) };
}

/** The passphrase of the environment (PULUMI_CONFIG_PASSPHRASE, else PULUMI_CONFIG_PASSPHRASE_FILE's content), or undefined. */
export function environmentPassphrase(io: CliIO): Passphrase | undefined {
  return passphraseFromEnvironment(process.env, (path) => {
    try {
      return io.readFile(resolve(io.cwd, path));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new InputError(`unable to read PULUMI_CONFIG_PASSPHRASE_FILE (${path}): ${code ?? (error instanceof Error ? error.message : String(error))}`);
    }
  });
}

export const NEEDS_PASSPHRASE = 'the secrets are encrypted: set PULUMI_CONFIG_PASSPHRASE, or PULUMI_CONFIG_PASSPHRASE_FILE to a file holding the passphrase';

/** The project and name of the stack a state belongs to: the backend's, else its checkpoint's or its first urn's. */
export function stackOfTarget(target: SecretsTarget): { project?: string; name: string } | undefined {
  if (target.stack) return { ...(target.stack.project ? { project: target.stack.project } : {}), name: target.stack.name };
  const urn = target.structure.resources.find((entry) => entry.urn?.startsWith('urn:pulumi:'))?.urn;
  const [stackOfUrn, project] = urn ? urn.slice('urn:pulumi:'.length).split('::') : [];
  const name = target.structure.checkpointStack?.split('/').pop() ?? stackOfUrn;
  return name ? { ...(project ? { project } : {}), name } : undefined;
}

/** At most this many other stacks of the backend are read for their salts, to explain a ciphertext. */
const MAX_OTHER_STACKS = 8;

/** The salts of the backend's other stacks (its project's first), read only when asked. */
export async function otherStackSalts(target: SecretsTarget): Promise<OtherSalt[]> {
  const { opened, stack } = target;
  if (!opened || !stack) return [];
  let all: BackendStack[];
  try {
    all = (await backends.read(opened.store, { maxInflatedBytes: opened.maxInflatedBytes, budget: opened.budget })).stacks;
  } catch {
    return [];
  }
  const others = all.filter((other) => other.ref !== stack.ref && other.file).sort((a, b) => Number(b.project === stack.project) - Number(a.project === stack.project));
  const salts: OtherSalt[] = [];
  for (const other of others.slice(0, MAX_OTHER_STACKS)) {
    try {
      const text = decodeFile(await readBytes(opened.store, other.file!.name), { name: other.file!.name, maxBytes: opened.maxInflatedBytes, budget: opened.budget }).text;
      const provider = secretsProviderOf(state.structureOf(JSON.parse(text)));
      const saltState = provider && passphraseSaltOf(provider);
      if (saltState) salts.push({ label: `the salt of stack ${other.ref} (${objectUrl(opened.backend.url, other.file!.name)})`, saltState });
    } catch (error) {
      if (error instanceof InflateBudgetError) throw error;
      // a stack that cannot be read explains nothing
    }
  }
  return salts;
}

/** The crypter of the state's salt, opened with the environment's passphrase; a message and exit code when it cannot be. */
export async function stateCrypter(target: SecretsTarget, io: CliIO) {
  const provider = secretsProviderOf(target.structure);
  if (!provider) {
    io.stderr(`quota-state: ${target.display} holds encrypted secrets but names no secrets provider (secrets_providers): Pulumi cannot decrypt them either`);
    return 1;
  }
  if (provider.type !== 'passphrase') throw new InputError(`${target.display} uses the "${provider.type}" secrets provider; only the passphrase provider is read here`);
  const passphrase = environmentPassphrase(io);
  if (!passphrase) {
    io.stderr(`quota-state: ${NEEDS_PASSPHRASE}`);
    return 2;
  }
  return passphraseCrypter(passphrase.value, passphraseSaltOf(provider) ?? '');
}

/** `--show-secrets` (diff, restore --dry-run) needs the passphrase: without one it is a usage error. */
export function requirePassphraseToShow(io: CliIO): void {
  if (!environmentPassphrase(io)) throw new UsageError('--show-secrets needs the passphrase: set PULUMI_CONFIG_PASSPHRASE, or PULUMI_CONFIG_PASSPHRASE_FILE to a file holding it');
}

/** What a command says of a passphrase that does not open a state's salt: no value, no passphrase. */
const incorrectPassphrase = (display: string) =>
  `incorrect passphrase: it does not open the salt of ${display}'s secrets (the salt's check value does not decrypt to "pulumi"); set PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE to the stack's`;

/**
 * `--show-secrets`: every ciphertext of the state opened in place (secrets.openCiphertexts) with the
 * key of its own salt and the environment's passphrase; nothing when it holds none. An incorrect
 * passphrase is an InputError; a number is an exit code, said on stderr already (no provider named).
 */
export async function openStateSecrets(structure: StateStructure, display: string, io: CliIO): Promise<number | undefined> {
  if (!findSecrets(structure).some((site) => site.secret.form === 'ciphertext')) return undefined;
  let crypter: Awaited<ReturnType<typeof stateCrypter>>;
  try {
    crypter = await stateCrypter({ display, structure }, io);
  } catch (error) {
    if (error instanceof IncorrectPassphraseError) throw new InputError(incorrectPassphrase(display));
    // Another provider, or a malformed salt state: Pulumi stops there too.
    if (error instanceof SecretsError) throw new InputError(`${display}'s secrets provider cannot be used: ${error.message}`);
    throw error;
  }
  if (typeof crypter === 'number') return crypter;
  const unopened = await openCiphertexts(structure, crypter.decrypt);
  if (unopened)
    io.stderr(`warning: ${unopened} ${unopened === 1 ? 'secret' : 'secrets'} of ${display} did not decrypt with its salt's key (\`quota-state secrets check\` says why): shown as [secret changed]`);
  return undefined;
}
