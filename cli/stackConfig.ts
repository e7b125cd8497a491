/**
 * A stack's project config file, `Pulumi.<stack>.yaml`, found where Pulumi looks for it
 * (sdk/go/common/workspace/paths.go `ProjectStackPath`, v3.274.1): beside the nearest `Pulumi.yaml`
 * at or above the working folder (its `stackConfigDir`, or a string `config`, moves it), named by the
 * stack's name with `/` written `-`, with the project file's extension. Only when that project is the
 * stack's: another project's config says nothing of this stack. Its `encryptionsalt` is the
 * passphrase salt its `secure:` values are encrypted with.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { InputError } from './args';
import { displayPath } from './io';

export interface StackConfigFile {
  path: string;
  display: string;
  encryptionSalt?: string;
  config: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A `Pulumi.<stack>.yaml` read: its salt and config (an unreadable or non-YAML file is unreadable input). */
export function readStackConfig(path: string, cwd: string): StackConfigFile {
  let value: unknown;
  try {
    value = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code ? `cannot read ${displayPath(cwd, path)}: ${code}` : `${displayPath(cwd, path)}: not valid YAML`);
  }
  const file = isRecord(value) ? value : {};
  return {
    path,
    display: displayPath(cwd, path),
    ...(typeof file.encryptionsalt === 'string' && file.encryptionsalt !== '' ? { encryptionSalt: file.encryptionsalt } : {}),
    config: isRecord(file.config) ? file.config : {},
  };
}

/** The nearest `Pulumi.yaml` (or `.yml`) at or above `cwd`, read whole (shared/backend/url.ts reads only its name and `backend.url`). */
function projectFile(cwd: string): { path: string; value: Record<string, unknown> } | undefined {
  for (let folder = cwd; ; folder = dirname(folder)) {
    for (const name of ['Pulumi.yaml', 'Pulumi.yml']) {
      const path = join(folder, name);
      if (!existsSync(path)) continue;
      let value: unknown;
      try {
        value = parseYaml(readFileSync(path, 'utf8'));
      } catch (error) {
        throw new InputError(`${path}: not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      }
      return { path, value: isRecord(value) ? value : {} };
    }
    if (dirname(folder) === folder) return undefined;
  }
}

/** The folder of the nearest project's stack config files and their extension, when that project is `project` (any, when unknown). */
function stackConfigFolder(cwd: string, project: string | undefined): { folder: string; extension: string } | undefined {
  const found = projectFile(cwd);
  if (!found || (project !== undefined && found.value.name !== project)) return undefined;
  const dir = typeof found.value.stackConfigDir === 'string' ? found.value.stackConfigDir : typeof found.value.config === 'string' ? found.value.config : undefined;
  return { folder: dir === undefined ? dirname(found.path) : resolve(dirname(found.path), dir), extension: extname(found.path) };
}

/** `Pulumi.<stack>.yaml` of the stack `name` of `project`, read; undefined when there is none at hand. */
export function findStackConfig(cwd: string, project: string | undefined, name: string): StackConfigFile | undefined {
  const place = stackConfigFolder(cwd, project);
  if (!place) return undefined;
  const path = join(place.folder, `Pulumi.${name.replace(/\//g, '-')}${place.extension}`);
  try {
    readFileSync(path);
  } catch {
    return undefined;
  }
  return readStackConfig(path, cwd);
}

/** The other stacks' config files beside `file` (`Pulumi.*.yaml`), each with its salt: keys to try on a ciphertext this stack's key does not open. */
export function siblingSalts(file: StackConfigFile | undefined, cwd: string, project: string | undefined): Array<{ label: string; saltState: string }> {
  const folder = file ? dirname(file.path) : stackConfigFolder(cwd, project)?.folder;
  if (!folder) return [];
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const salts: Array<{ label: string; saltState: string }> = [];
  for (const name of names.filter((n) => /^Pulumi\..+\.ya?ml$/.test(n) && n !== basename(file?.path ?? '')).sort()) {
    try {
      const other = readStackConfig(join(folder, name), cwd);
      if (other.encryptionSalt) salts.push({ label: `${other.display}'s encryptionsalt`, saltState: other.encryptionSalt });
    } catch {
      // an unreadable neighbour explains nothing
    }
  }
  return salts;
}
