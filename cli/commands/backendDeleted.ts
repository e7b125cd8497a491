/**
 * The deleted area of a DIY backend (`.pulumi/deleted/`, shared/backend/deleted.ts) as `backend ls
 * --deleted` lists it (with the stacks Pulumi's own `stack rm` left a `.bak` or backups of) and as
 * `backend prune --deleted` prunes it by age or count.
 */
import { createBackendService, sizeText, type DeletedEntry } from '../../shared/backend';
import type { Opened } from '../backendAccess';
import type { CliIO } from '../io';

const backends = createBackendService();

/** `backend ls --deleted`: what `stack restore-deleted` can bring back. */
export async function listDeletedCommand(opened: Opened, format: 'text' | 'json', io: CliIO): Promise<number> {
  const entries = await backends.listDeleted(opened.store);
  const leftovers = await backends.listPulumiLeftovers(opened.store, opened.backend.layout);
  if (format === 'json') {
    io.stdout(JSON.stringify({ backend: opened.backend.url, deleted: entries, pulumiLeftovers: leftovers }, null, 2));
    return 0;
  }
  io.stdout(`${opened.backend.url}: ${entries.length} deleted ${entries.length === 1 ? 'entry' : 'entries'} in .pulumi/deleted/`);
  for (const entry of entries) {
    const state = entry.complete
      ? `${entry.reason ?? 'removed'} ${entry.time ?? ''}`
      : entry.removing
        ? `an interrupted removal (${entry.reason ?? 'removed'} ${entry.time ?? ''}): \`quota-state stack rm ${entry.stack}\` finishes it`
        : 'incomplete (an interrupted restore; `backend prune --deleted` removes it)';
    io.stdout(`  ${entry.stack}  --id ${entry.id}  ${entry.historyEntries} history entries, ${entry.objects} objects, ${sizeText(entry.bytes)}  ${state}`);
  }
  if (leftovers.length) {
    io.stdout("no stack file, but a .bak or backups: what Pulumi's own `stack rm` (or `stack rename`) leaves; restore-deleted brings back the state, not the history or tags:");
    for (const leftover of leftovers) io.stdout(`  ${leftover.stack}  ${leftover.bak ? `${leftover.bak}, ` : ''}${leftover.backups} backups`);
  }
  return 0;
}

/** `backend prune --deleted`: the deleted area's entries older than the rule (or beyond the newest N of each stack), and incomplete ones. */
export async function pruneDeletedCommand(
  opened: Opened,
  rule: { keep?: number; olderThanMs?: number },
  only: string | undefined,
  dryRun: boolean,
  format: 'text' | 'json',
  io: CliIO,
): Promise<number> {
  const entries = (await backends.listDeleted(opened.store)).filter((e) => only === undefined || e.stack === only || e.name === only || `${e.project}/${e.name}` === only);
  const remove: DeletedEntry[] = backends.planPruneDeleted(entries, rule);
  let objects = 0;
  if (!dryRun) for (const entry of remove) objects += await backends.removeDeletedEntry(opened.store, entry);
  if (format === 'json') {
    io.stdout(JSON.stringify({ dryRun, removed: remove, kept: entries.length - remove.length }, null, 2));
    return 0;
  }
  for (const entry of remove) io.stdout(`${dryRun ? 'would remove' : 'removed'} ${entry.folder} (${entry.stack}, ${entry.historyEntries} history entries, ${sizeText(entry.bytes)})`);
  io.stdout(
    `${dryRun ? 'would remove' : 'removed'} ${remove.length} of ${entries.length} deleted entries${dryRun ? '' : ` (${objects} objects)`}, freeing ${sizeText(remove.reduce((sum, e) => sum + e.bytes, 0))}`,
  );
  return 0;
}
