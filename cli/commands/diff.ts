/**
 * `quota-state diff A B`: what changed between two states. Each operand is a state document (export,
 * checkpoint, history checkpoint, backup or bare deployment; plain, gzip or zstd), or a DIY stack's
 * state: `STACK@VERSION`, `STACK@ID` or `STACK` (its current state). A path that exists always wins.
 * Exit codes, as diff(1)'s: 0 compared (whatever it found; with --exit-code, 1 when they differ), 2
 * every error (a usage error, no such backend, stack or version, unreadable input).
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createStateService } from '../../shared/state';
import { createBackendService, type StateDiff } from '../../shared/backend';
import { InputError, UsageError } from '../args';
import { commandArguments, displayPath, formatFlag, readDocumentOrFail, type CliIO } from '../io';
import { readStackText } from '../backendAccess';
import { openStateSecrets, requirePassphraseToShow } from '../secretsAccess';

const state = createStateService();
const backends = createBackendService();

export const DIFF_USAGE = `Usage:
  quota-state diff A B [--backend URL] [--show-same] [--show-secrets] [--exit-code] [--format text|json|markdown]

What changed from state A to state B. A and B are state files (an export, a checkpoint, a history
checkpoint, a backup or a bare deployment; plain, gzip or zstd), or a DIY stack's state:
STACK@VERSION (the version \`quota-state history\` lists), STACK@ID (an entry's <UnixNano>) or STACK
(its current state), in --backend URL or the backend \`quota-state backend ls\` finds. A path that
exists is always a file.

Resources match by urn, copies of one urn by their position (URN#N), and a record whose aliases name
a urn gone from A is a rename. Each is added, removed, renamed, replaced (a new id), changed (each
changed leaf with its JSON path, old => new) or the same. Pending operations and the manifest are
compared too. Secrets are not shown but with --show-secrets: "secret changed", or [secret] for a
plaintext one.

  --show-same                   list the resources that did not change too
  --show-secrets                a changed secret shows its old and new values, each state's ciphertexts
                                decrypted with its own salt and the passphrase of PULUMI_CONFIG_PASSPHRASE
                                or PULUMI_CONFIG_PASSPHRASE_FILE (as Pulumi reads it; needed)
  --exit-code                   exit 1 when the states differ, 0 when they are the same (as diff(1))
  --format text|json|markdown   text reads like \`pulumi preview --diff\`; markdown is for a pull request

Exit codes: 0 compared (with --exit-code: the same), 1 the states differ (with --exit-code only),
2 every error, with or without --exit-code: a usage error (--show-secrets without a passphrase), no
such backend, stack or version, unreadable input, or an incorrect passphrase.`;

const FLAGS = { backend: 'value', 'show-same': 'boolean', 'show-secrets': 'boolean', 'exit-code': 'boolean', format: 'value' } as const;

/** One operand's text: a file that exists, else a stack's state (`STACK`, `STACK@VERSION`, `STACK@ID`). */
async function operand(spec: string, backend: string | undefined, io: CliIO): Promise<{ text: string; display: string } | number> {
  const file = resolve(io.cwd, spec);
  if (existsSync(file)) {
    const display = displayPath(io.cwd, file);
    return { text: readDocumentOrFail(file, io, display).text, display };
  }
  const at = spec.lastIndexOf('@');
  const [stack, revision] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, undefined];
  if (revision !== undefined && !/^[0-9]+$/.test(revision)) throw new UsageError(`"${spec}": a version is a number (quota-state history lists them) or an entry's id`);
  return readStackText(stack, backend, io, revision);
}

function structureOf(text: string, display: string) {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${display} is not valid JSON (${error instanceof Error ? error.message : String(error)}); \`quota-state check\` shows where`);
  }
  const structure = state.structureOf(root);
  if (!structure.deploymentPath && structure.shape !== 'record') throw new InputError(`${display} is not a state: it holds no resources (an export, a checkpoint or a deployment)`);
  return structure;
}

export async function diff(args: string[], io: CliIO): Promise<number> {
  const parsed = commandArguments(DIFF_USAGE, args, FLAGS, io);
  if (!parsed) return 0;
  if (parsed.positional.length !== 2) throw new UsageError('diff takes two states, A and B');
  const format = formatFlag(parsed.flags.format, ['text', 'json', 'markdown']);
  const showSecrets = parsed.booleans.has('show-secrets');
  if (showSecrets) requirePassphraseToShow(io);
  const sides = [];
  for (const spec of parsed.positional) {
    const read = await operand(spec, parsed.flags.backend, io);
    // Said on stderr already (no such backend, stack or version): an error, 2 as diff(1) exits, never 1 ("they differ").
    if (typeof read === 'number') return 2;
    sides.push(read);
  }
  const [a, b] = sides;
  const [before, after] = [structureOf(a.text, a.display), structureOf(b.text, b.display)];
  if (showSecrets)
    for (const [structure, display] of [
      [before, a.display],
      [after, b.display],
    ] as const)
      if ((await openStateSecrets(structure, display, io)) !== undefined) return 2;
  const result: StateDiff = backends.diff.states(before, after, { showSecrets });
  const showSame = parsed.booleans.has('show-same');
  if (format === 'json') {
    const resources = showSame ? result.resources : result.resources.filter((r) => r.kind !== 'same');
    io.stdout(JSON.stringify({ a: a.display, b: b.display, ...result, resources }, null, 2));
  } else if (format === 'markdown') io.stdout(backends.diff.markdown(result, { showSame, title: `${parsed.positional[0]} → ${parsed.positional[1]}` }));
  else io.stdout(backends.diff.text(result, { showSame }));
  return parsed.booleans.has('exit-code') && backends.diff.differ(result) ? 1 : 0;
}
