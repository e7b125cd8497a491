/**
 * `quota-state stack rm|restore-deleted|rename`: a DIY stack removed into the backend's deleted area
 * (shared/backend/deleted.ts, never deleted outright), brought back from it or from what Pulumi's own
 * `stack rm` leaves, and renamed as Pulumi's DIY backend renames (shared/backend/rename.ts), through
 * the store of any backend `openBackend` opens, holding Pulumi's lock of each stack.
 * Exit codes: 0 done, 1 refused (resources without --force, a lock, an existing stack, nothing to
 * restore), 2 usage error or unreadable input.
 */
import { existsSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createBackendService, DeletedRefusal, StackLockedError, StoreConflict, type Backend } from '../../shared/backend';
import { UsageError } from '../args';
import { killingAfterWrites, openBackend, scopeOf, type Opened } from '../backendAccess';
import { commandArguments, formatFlag, type CliIO } from '../io';
import { cliLockOptions, staleAfterFlag } from '../lockFlags';
import { findStackConfig } from '../stackConfig';

const backends = createBackendService();

const LOCK_FLAGS_TEXT = `  --backend URL            the backend (default: as \`quota-state backend ls\` finds it)
  --break-lock             remove the stack's Pulumi lock files first, naming each
  --stale-after DURATION   a lock this old is stale whoever holds it (default 1h)
  --format text|json       the report's format (default text)`;

const STACK_RM_USAGE = `Usage:
  quota-state stack rm STACK [--backend URL] [--force] [--break-lock] [--stale-after DURATION] [--format text|json]

Removes a stack as \`pulumi stack rm\` does, but keeps it: its stack file, .bak, history, backups,
retained checkpoints and tags move into the backend's deleted area,
.pulumi/deleted/<project>/<stack>/<UnixNano>/ (docs/cli.md), from where \`quota-state stack
restore-deleted\` brings it back. Refused, as Pulumi refuses, while the stack holds resources other
than its root pulumi:pulumi:Stack, unless --force. Pulumi.<stack>.yaml is never touched (Pulumi deletes
it unless --preserve-config): the project's files are left alone.

  --force                  remove a stack that still holds resources
${LOCK_FLAGS_TEXT}

Exit codes: 0 removed, 1 refused (resources, a lock, no such stack), 2 usage error or unreadable input.`;

const STACK_RESTORE_USAGE = `Usage:
  quota-state stack restore-deleted STACK [--backend URL] [--id UNIXNANO] [--break-lock] [--stale-after DURATION] [--format text|json]

Brings a removed stack back with its history: from the newest entry of the deleted area that
\`quota-state stack rm\` (or \`backend copy --move\`/\`--overwrite\`) made, or --id's; without one, from
what Pulumi's own \`stack rm\` leaves (the stack file's .bak, else the newest backup), listing what
could not be recovered (Pulumi deletes the history and the tags). Refused when the stack exists.

  --id UNIXNANO            the deleted entry (\`quota-state backend ls --deleted\` lists them)
${LOCK_FLAGS_TEXT}

Exit codes: 0 restored, 1 refused (the stack exists, nothing to restore, a lock), 2 usage error or unreadable input.`;

const STACK_RENAME_USAGE = `Usage:
  quota-state stack rename STACK NEW_NAME [--backend URL] [--break-lock] [--stale-after DURATION] [--format text|json]

Renames a stack as Pulumi's DIY backend does (\`pulumi stack rename\`): the current state's urns take
the new name (and project, when NEW_NAME names another: organization/<project>/<stack>), the new
stack file is written, the old one becomes its .bak, and the history files are renamed with their
contents untouched. Unlike Pulumi: checkpoint.stack is set to the new name, the tags file and the
backups move too, and both names are locked. Pulumi.<stack>.yaml is renamed when the project's
folder is the working folder or above it.

${LOCK_FLAGS_TEXT}

Exit codes: 0 renamed, 1 refused (NEW_NAME exists, a lock, no such stack), 2 usage error or unreadable input.`;

export const STACK_USAGE = `${STACK_RM_USAGE}\n\n${STACK_RESTORE_USAGE}\n\n${STACK_RENAME_USAGE}`;

const FLAGS = { backend: 'value', force: 'boolean', id: 'value', 'break-lock': 'boolean', 'stale-after': 'value', format: 'value' } as const;

/** A stack by name in the opened backend, whether or not it exists: legacy bare names, else organization/p/s, p/s or a bare name of the project at hand. */
function stackNameIn(backend: Pick<Backend, 'layout'>, reference: string, project: string | undefined): { project?: string; name: string } {
  const valid = (name: string) => /^[A-Za-z0-9_.-]+$/.test(name);
  if (backend.layout === 'legacy') {
    if (reference.includes('/') || !valid(reference)) throw new UsageError(`"${reference}": a legacy backend's stacks have bare names`);
    return { name: reference };
  }
  const scoped = scopeOf(reference) ?? (reference.includes('/') ? undefined : project ? { project, name: reference } : undefined);
  if (!scoped || !valid(scoped.name) || !valid(scoped.project)) throw new UsageError(`"${reference}": name the stack organization/<project>/<stack> (no Pulumi.yaml gives a project here)`);
  return scoped;
}

/**
 * The stack named: a bare name may be a legacy stack's that was removed (a legacy backend whose last
 * stack was removed reads as the project layout, for Pulumi as for us), found in the deleted area.
 */
async function stackNameOf(opened: Opened, reference: string, removed: boolean): Promise<{ project?: string; name: string }> {
  if (removed && !reference.includes('/') && (await backends.listDeleted(opened.store, { name: reference })).length > 0) return { name: reference };
  return stackNameIn(opened.backend, reference, opened.project);
}

async function withRefusals(io: CliIO, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof StackLockedError || error instanceof StoreConflict || error instanceof DeletedRefusal)) throw error;
    io.stderr(`quota-state: ${error.message}`);
    return 1;
  }
}

async function opening(flags: Record<string, string | undefined>, io: CliIO): Promise<Opened | number> {
  return openBackend(flags.backend, io);
}

export async function runStackCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) throw new UsageError('stack needs a command: rm, restore-deleted or rename', STACK_USAGE);
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    io.stdout(STACK_USAGE);
    return 0;
  }
  const usage = sub === 'rm' ? STACK_RM_USAGE : sub === 'restore-deleted' ? STACK_RESTORE_USAGE : sub === 'rename' ? STACK_RENAME_USAGE : undefined;
  if (!usage) throw new UsageError(`unknown stack command "${sub}" (rm, restore-deleted or rename)`, STACK_USAGE);
  try {
    const parsed = commandArguments(usage, rest, FLAGS, io);
    if (!parsed) return 0;
    const want = sub === 'rename' ? 2 : 1;
    if (parsed.positional.length !== want) throw new UsageError(sub === 'rename' ? 'rename takes STACK and NEW_NAME' : `${sub} takes one STACK`);
    if (parsed.booleans.has('force') && sub !== 'rm') throw new UsageError('--force is for stack rm');
    if (parsed.flags.id !== undefined && sub !== 'restore-deleted') throw new UsageError('--id is for stack restore-deleted');
    if (parsed.flags.id !== undefined && !/^\d+$/.test(parsed.flags.id)) throw new UsageError(`--id takes an entry's <UnixNano>, not "${parsed.flags.id}"`);
    const format = formatFlag(parsed.flags.format, ['text', 'json']);
    const lock = cliLockOptions(parsed.booleans.has('break-lock'), staleAfterFlag(parsed.flags['stale-after']), io.stderr);
    const opened = await opening(parsed.flags, io);
    if (typeof opened === 'number') return opened;
    const stack = await stackNameOf(opened, parsed.positional[0], sub === 'restore-deleted');
    const say = (text: string, json: unknown) => io.stdout(format === 'json' ? JSON.stringify(json, null, 2) : text);
    return await withRefusals(io, async () => {
      if (sub === 'rm') return await stackRm(opened, stack, parsed.booleans.has('force'), lock, say);
      if (sub === 'restore-deleted') {
        const report = await backends.restoreDeleted(opened.store, stack, { ...lock, id: parsed.flags.id, projectLayout: opened.backend.layout === 'project' });
        const text = [
          `restored ${report.stack} from ${report.from === 'deleted-area' ? `the deleted entry ${report.entry}` : "what Pulumi's stack rm left"}: ${report.stackFile} (from ${report.stackFileFrom})`,
          `  recovered: ${report.recovered.historyEntries} history entries, ${report.recovered.backups} backups, ${report.recovered.tags ? 'the tags' : 'no tags'} (${report.recovered.objects} objects)`,
          ...(report.placedInProject
            ? [`  a legacy stack, placed in project ${report.placedInProject}: the backend has the project layout now (Pulumi writes meta.yaml version 1 once no legacy stack is left)`]
            : []),
          ...report.lost.map((lost) => `  not recovered: ${lost}`),
        ].join('\n');
        say(text, report);
        return 0;
      }
      return await stackRename(opened, stack, parsed.positional[1], lock, io, say);
    });
  } catch (error) {
    if (error instanceof UsageError && error.usage === undefined) throw new UsageError(error.message, usage);
    throw error;
  }
}

async function stackRm(
  opened: Opened,
  stack: { project?: string; name: string },
  force: boolean,
  lock: ReturnType<typeof cliLockOptions>,
  say: (text: string, json: unknown) => void,
): Promise<number> {
  // A rerun resumes a killed removal: the locks its process left are taken over (shared/backend/stackLock.ts).
  const removing = { ...lock, takeOverAbandoned: true, force, nowMs: Date.now(), reason: 'stack rm' };
  const { folder, moved, resumed } = await backends.removeStack(killingAfterWrites(opened.store, process.env), stack, removing);
  const ref = stack.project ? `organization/${stack.project}/${stack.name}` : stack.name;
  if (resumed) lock.warn(`an interrupted removal of ${ref} was found in ${folder}: finished it`);
  const entries = moved.filter((o) => /\.history\.json(\.gz|\.zst)?$/.test(o.name)).length;
  say(
    `Stack '${ref}' has been removed: ${moved.length} objects (${entries} history entries) are kept in ${folder}\n` +
      `\`quota-state stack restore-deleted ${ref}\` brings it back; Pulumi.${stack.name}.yaml was left alone.`,
    { stack: ref, deletedEntry: folder, objects: moved.map((o) => o.name) },
  );
  return 0;
}

async function stackRename(
  opened: Opened,
  from: { project?: string; name: string },
  newName: string,
  lock: ReturnType<typeof cliLockOptions>,
  io: CliIO,
  say: (text: string, json: unknown) => void,
): Promise<number> {
  const to = stackNameIn(opened.backend, newName, from.project);
  const report = await backends.renameStack(killingAfterWrites(opened.store, process.env), from, to, { ...lock, takeOverAbandoned: true });
  if (report.resumed) lock.warn(`an interrupted rename of ${report.from} to ${report.to} was found (its journal): finished it`);
  // Pulumi.<stack>.yaml, when the project at hand is the stack's.
  let config: string | undefined;
  const found = findStackConfig(io.cwd, from.project, from.name);
  if (found && to.project === from.project) {
    const target = join(dirname(found.path), found.path.slice(dirname(found.path).length + 1).replace(`Pulumi.${from.name.replace(/\//g, '-')}.`, `Pulumi.${to.name}.`));
    if (existsSync(target)) io.stderr(`warning: ${target} exists; ${found.display} was not renamed`);
    else {
      renameSync(found.path, target);
      config = target;
    }
  }
  if (report.recompressed) io.stderr(`warning: ${report.recompressed}`);
  say(
    `Renamed ${report.from} to ${report.to}: ${report.stackFile} (the old stack file kept as ${report.bak}), ${report.historyFiles} history files, ${report.backups} backups${report.tags ? ', the tags' : ''}${config ? `; ${config}` : ''}`,
    { ...report, ...(config ? { config } : {}) },
  );
  return 0;
}
