/**
 * The surgery table: one row per `pulumi state` operation, and everything that differs between
 * them. The CLI reads its names, aliases, switches and arguments (cli/commands/state.ts);
 * the server its code actions and confirmation words (server/features/surgery.ts); the client its
 * palette commands (client/stateSurgery.ts). Each row's run is in runs.ts, keyed by its name: the
 * client bundles this table but never the analysis an operation runs, and TypeScript refuses a row
 * without its run. A new operation is one row here, its run, one operation file beside this one,
 * and its spec; test/state/surgeryTable.test.ts checks that package.json contributes each row's
 * commands.
 */
import * as l10n from '@vscode/l10n';
import type { JsonObject } from '../model/structure';

export type SurgeryOperation = 'remove' | 'protect' | 'unprotect' | 'taint' | 'untaint' | 'rename' | 'repair' | 'clear-pending' | 'move';

/** A switch an operation may take on the command line, besides --dry-run, --format and --break-lock. */
export type SurgerySwitch = 'all' | 'target-dependents' | 'force' | 'include-parents';

/** One operation as the editor and the CLI ask for it; targets are URNs or `URN#N` copies. */
export interface SurgeryCall {
  operation: SurgeryOperation;
  targets?: string[];
  all?: boolean;
  targetDependents?: boolean;
  force?: boolean;
  newName?: string;
  includeParents?: boolean;
}

/**
 * The positional arguments after FILE: `urns` at least one URN; `urns-or-all` at least one, or --all;
 * `optional-urns` any number (none means every one); `urn-and-name` URN NEW-NAME; `none` nothing.
 */
type SurgeryArguments = 'urns' | 'urns-or-all' | 'optional-urns' | 'urn-and-name' | 'none';

/** The flags of a record a palette command filters on (SurgeryResource's). */
interface RecordFlags {
  delete: boolean;
  protect: boolean;
  taint: boolean;
}

/** A palette command of an operation: it asks for its targets, then runs the operation. */
export interface SurgeryPaletteCommand {
  /** The command id (package.json contributes it, in the palette and the editor's context menu). */
  id: string;
  /** The quick pick's title. */
  title: () => string;
  /** Whether several resources may be picked. */
  many: boolean;
  /** Which records the pick offers (every one by default). */
  offers?: (record: RecordFlags) => boolean;
  /** Fixed parameters of the call (remove with its dependents). */
  call?: Pick<SurgeryCall, 'targetDependents'>;
  /** The command asks for more than targets (a new name, a destination file): the client implements it itself. */
  asks?: 'new-name' | 'destination' | 'pending' | 'nothing';
}

/** The resource under the cursor, as the code actions see it. */
interface CodeActionTarget {
  /** Its name, with `(copy N of M)` when several records share its urn. */
  named: string;
  name: string;
  record: JsonObject;
  /** How many records refer to it. */
  dependents: number;
  /** How many records share its urn. */
  copies: number;
}

/** A refactor an operation offers on the record under the cursor. */
interface SurgeryCodeAction {
  /** The code action kind's last part: `refactor.rewrite.state.<kind>`. */
  kind: string;
  title: string;
  /** The call, run through the confirmation; absent when the row's palette command asks first (rename, move). */
  call?: Omit<SurgeryCall, 'operation' | 'targets'>;
}

export interface SurgeryRow {
  operation: SurgeryOperation;
  /** Other names the CLI takes (`rm`, `delete`, `mv`). */
  aliases: readonly string[];
  switches: readonly SurgerySwitch[];
  arguments: SurgeryArguments;
  /** Its usage line after `quota-state state`. */
  usage: string;
  /** The operation needs a second file (`--dest` on the command line, `dest` in the editor). */
  destination?: true;
  /** The editor's words for the call: "Remove orders-api" (the confirmation's question) and the button. */
  label(what: string, call: SurgeryCall): string;
  action(records: number, pendingCleared: number, overridesProtection: boolean): string;
  commands: readonly SurgeryPaletteCommand[];
  /** The refactors offered on the record under the cursor (pending deletions take no flag changes). */
  codeActions?(target: CodeActionTarget): SurgeryCodeAction[];
}

/** `one` for a single item, else `many` of the count (a translation may place the number anywhere). */
const countOf = (count: number, one: () => string, many: (count: number) => string): string => (count === 1 ? one() : many(count));

const live = (record: JsonObject) => record.delete !== true;

function flagRow(
  operation: 'protect' | 'unprotect' | 'taint' | 'untaint',
  words: { label: (what: string) => string; action: (records: number) => string; pick: () => string; offer: (record: JsonObject, name: string) => string | undefined },
  offers: (record: RecordFlags) => boolean,
): SurgeryRow {
  const all = operation !== 'taint';
  return {
    operation,
    aliases: [],
    switches: all ? ['all'] : [],
    arguments: all ? 'urns-or-all' : 'urns',
    usage: `${operation} FILE ${all ? '(URN…|--all)' : 'URN…'}`,
    label: (what) => words.label(what),
    action: (records) => words.action(records),
    commands: [{ id: `quotaState.state.${operation}`, title: words.pick, many: true, offers: (r) => !r.delete && offers(r) }],
    codeActions: ({ record, name }) => {
      const title = live(record) ? words.offer(record, name) : undefined;
      return title ? [{ kind: operation, title, call: {} }] : [];
    },
  };
}

export const SURGERY_TABLE: readonly SurgeryRow[] = [
  {
    operation: 'remove',
    aliases: ['rm', 'delete'],
    switches: ['all', 'target-dependents', 'force'],
    arguments: 'urns-or-all',
    usage: 'remove|rm|delete FILE (URN…|--all) [--target-dependents] [--force]',
    label: (what, call) => (call.targetDependents ? l10n.t('Remove {0} and its dependents', what) : l10n.t('Remove {0}', what)),
    action: (records, _, overrides) =>
      overrides
        ? l10n.t('Remove Anyway')
        : countOf(
            records,
            () => l10n.t('Remove 1 Resource'),
            (n) => l10n.t('Remove {0} Resources', n),
          ),
    commands: [
      { id: 'quotaState.state.remove', title: () => l10n.t('Remove resources'), many: true },
      { id: 'quotaState.state.removeWithDependents', title: () => l10n.t('Remove resources with their dependents'), many: true, call: { targetDependents: true } },
    ],
    codeActions: ({ named, record, dependents }) => {
      const force = record.protect === true;
      if (dependents === 0) {
        return [{ kind: 'remove', title: force ? l10n.t('Remove protected resource {0}, overriding protection', named) : l10n.t('Remove resource {0}', named), call: { force } }];
      }
      const title = force
        ? l10n.t('Remove protected {0} with its dependents ({1} direct), overriding protection', named, dependents)
        : l10n.t('Remove {0} with its dependents ({1} direct)', named, dependents);
      return [{ kind: 'removeWithDependents', title, call: { targetDependents: true, force } }];
    },
  },
  flagRow(
    'protect',
    {
      label: (what) => l10n.t('Protect {0}', what),
      action: (n) =>
        countOf(
          n,
          () => l10n.t('Protect 1 Resource'),
          (count) => l10n.t('Protect {0} Resources', count),
        ),
      pick: () => l10n.t('Protect resources'),
      offer: (record, name) => (record.protect === true ? undefined : l10n.t('Protect {0}', name)),
    },
    (r) => !r.protect,
  ),
  flagRow(
    'unprotect',
    {
      label: (what) => l10n.t('Unprotect {0}', what),
      action: (n) =>
        countOf(
          n,
          () => l10n.t('Unprotect 1 Resource'),
          (count) => l10n.t('Unprotect {0} Resources', count),
        ),
      pick: () => l10n.t('Unprotect resources'),
      offer: (record, name) => (record.protect === true ? l10n.t('Unprotect {0}', name) : undefined),
    },
    (r) => r.protect,
  ),
  flagRow(
    'taint',
    {
      label: (what) => l10n.t('Taint {0}', what),
      action: (n) =>
        countOf(
          n,
          () => l10n.t('Taint 1 Resource'),
          (count) => l10n.t('Taint {0} Resources', count),
        ),
      pick: () => l10n.t('Taint resources'),
      offer: (record, name) => (record.taint === true ? undefined : l10n.t('Taint {0} (replace on the next update)', name)),
    },
    (r) => !r.taint,
  ),
  flagRow(
    'untaint',
    {
      label: (what) => l10n.t('Untaint {0}', what),
      action: (n) =>
        countOf(
          n,
          () => l10n.t('Untaint 1 Resource'),
          (count) => l10n.t('Untaint {0} Resources', count),
        ),
      pick: () => l10n.t('Untaint resources'),
      offer: (record, name) => (record.taint === true ? l10n.t('Untaint {0}', name) : undefined),
    },
    (r) => r.taint,
  ),
  {
    operation: 'rename',
    aliases: [],
    switches: [],
    arguments: 'urn-and-name',
    usage: 'rename FILE URN NEW-NAME',
    label: (what, call) => l10n.t('Rename {0} to {1}', what, call.newName ?? ''),
    action: () => l10n.t('Rename'),
    commands: [{ id: 'quotaState.state.rename', title: () => l10n.t('Rename resource'), many: false, offers: () => true, asks: 'new-name' }],
    codeActions: ({ name, copies }) => (copies === 1 ? [{ kind: 'rename', title: l10n.t('Rename {0} (and re-URN its children)…', name) }] : []),
  },
  {
    operation: 'repair',
    aliases: [],
    switches: [],
    arguments: 'none',
    usage: 'repair FILE',
    label: () => l10n.t('Repair state'),
    action: () => l10n.t('Repair'),
    commands: [{ id: 'quotaState.state.repair', title: () => l10n.t('Repair state'), many: false, asks: 'nothing' }],
  },
  {
    operation: 'clear-pending',
    aliases: [],
    switches: [],
    arguments: 'optional-urns',
    usage: 'clear-pending FILE [URN…]',
    label: (what) => (what ? l10n.t('Clear pending operations on {0}', what) : l10n.t('Clear all pending operations')),
    action: (_, pending) =>
      countOf(
        pending,
        () => l10n.t('Clear 1 Pending Operation'),
        (n) => l10n.t('Clear {0} Pending Operations', n),
      ),
    commands: [{ id: 'quotaState.state.clearPending', title: () => l10n.t('Clear pending operations'), many: true, asks: 'pending' }],
  },
  {
    operation: 'move',
    aliases: ['mv'],
    switches: ['include-parents'],
    arguments: 'urns',
    usage: 'move|mv FILE URN… --dest FILE [--include-parents]',
    destination: true,
    label: (what) => l10n.t('Move {0}', what),
    action: (records) =>
      countOf(
        records,
        () => l10n.t('Move 1 Resource'),
        (n) => l10n.t('Move {0} Resources', n),
      ),
    commands: [{ id: 'quotaState.state.move', title: () => l10n.t('Move resources to another state file'), many: true, asks: 'destination' }],
    codeActions: ({ name }) => [{ kind: 'move', title: l10n.t('Move {0} to another state file…', name) }],
  },
];

export const SURGERY_OPERATIONS: readonly SurgeryOperation[] = SURGERY_TABLE.map((row) => row.operation);

const BY_NAME = new Map<string, SurgeryRow>(SURGERY_TABLE.flatMap((row) => [row.operation, ...row.aliases].map((name) => [name, row] as const)));

/** The row of an operation or one of its CLI aliases. */
export function surgeryRow(name: string): SurgeryRow | undefined {
  return BY_NAME.get(name);
}
