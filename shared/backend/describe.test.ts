import { strict as assert } from 'node:assert';
import type { HistoryEntry } from './backend';
import {
  describeEntry,
  describeLock,
  lastUpdateText,
  lockFileHolder,
  lockRefusalText,
  lockRemovalText,
  prunePlanText,
  pruneTotalText,
  sizeText,
  upgradePlanText,
  upgradeTotalText,
  type PlanVoice,
} from './describe';
import type { PrunePlan } from './prune';
import type { LockFacts, LockVerdict, StaleLockContext } from './staleLock';
import type { StackUpgrade } from './upgrade';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Each row: what is described, and the words every view shows for it. */
function table<I>(rows: ReadonlyArray<readonly [I, string]>, describe: (input: I) => string): void {
  for (const [input, expected] of rows) assert.equal(describe(input), expected, JSON.stringify(input));
}

const entry = (fields: Partial<HistoryEntry>): HistoryEntry => ({
  id: '1',
  version: 9,
  kind: 'update',
  startTime: '2026-11-28T05:40:07.000Z',
  message: 'deploy 4f2c1e',
  environment: {},
  config: {},
  file: 'h',
  checkpoint: 'c',
  ...fields,
});

const prune = (stack: string, files: number, freedBytes: number): PrunePlan => ({
  stack,
  remove: Array.from({ length: files }, (_, i) => ({ name: `f${i}`, size: 1, modifiedMs: 0 })),
  entries: { before: 9, after: 5 },
  backups: { before: 9, after: 5 },
  retained: { before: 2, after: 0 },
  freedBytes,
});

const upgrade = (stack: string, project: string | undefined, files: number, skipped?: string): StackUpgrade => ({
  stack,
  ...(project ? { project } : {}),
  moves: Array.from({ length: files }, (_, i) => ({ from: `a${i}`, to: `b${i}` })),
  ...(skipped ? { skipped } : {}),
});

describe('the words of a backend (describe.ts)', () => {
  it('a size: bytes, then KiB, MiB and GiB with one decimal', () => {
    table(
      [
        [0, '0 B'],
        [1023, '1023 B'],
        [1024, '1.0 KiB'],
        [42_188, '41.2 KiB'],
        [1024 * 1024 - 1, '1024.0 KiB'],
        [96 * 1024 * 1024, '96.0 MiB'],
        [1.5 * 1024 ** 3, '1.5 GiB'],
        [3 * 1024 ** 4, '3072.0 GiB'],
      ],
      sizeText,
    );
  });

  it('a history entry: its title, summary, details, changes in both lengths, message and checkpoint', () => {
    const ago = (iso: string) => `ago(${iso.slice(11, 16)})`;
    table<[Partial<HistoryEntry>, keyof ReturnType<typeof describeEntry>]>(
      [
        [[{ version: 9, kind: 'destroy' }, 'title'], '9  destroy'],
        [[{ result: 'succeeded' }, 'summary'], 'update succeeded ago(05:40)'],
        [[{}, 'summary'], 'update ago(05:40)'],
        [[{ result: 'failed', resourceChanges: { update: 1, same: 40 } }, 'details'], 'failed · ago(05:40) · +0 ~1 -0'],
        [[{ result: 'in-progress' }, 'details'], 'in-progress · ago(05:40) · +0 ~0 -0'],
        [[{ resourceChanges: { create: 2, import: 1, update: 1, delete: 3, replace: 2 } }, 'counts'], '+3 ~1 -3 ±2'],
        [[{ resourceChanges: { delete: 4 } }, 'counts'], '+0 ~0 -4'],
        [[{ resourceChanges: { update: 1, same: 40 } }, 'changes'], 'update 1, same 40'],
        [[{ resourceChanges: {} }, 'changes'], ''],
        [[{}, 'changes'], ''],
        [[{ message: '"deploy 4f2c1e"' }, 'message'], 'deploy 4f2c1e'],
        [[{ message: 'fix the queue\n\nlonger body' }, 'message'], 'fix the queue'],
        [[{ message: '"two\nlines"' }, 'message'], 'two'],
        [[{}, 'checkpoint'], ''],
        [[{ checkpoint: undefined }, 'checkpoint'], 'checkpoint missing'],
      ],
      ([fields, part]) => describeEntry(entry(fields), ago)[part],
    );
    // The CLI shows the time as Pulumi wrote it.
    assert.equal(describeEntry(entry({ result: 'succeeded' })).summary, 'update succeeded 2026-11-28T05:40:07.000Z');
  });

  it("a stack's last update, or none", () => {
    table(
      [
        [{ kind: 'destroy', result: 'succeeded', startTime: '2026-11-27T16:02:11.000Z' }, 'destroy succeeded 2026-11-27T16:02:11.000Z'],
        [{ kind: 'update', startTime: '2026-11-27T16:02:11.000Z' }, 'update 2026-11-27T16:02:11.000Z'],
        [null, 'never updated'],
      ],
      (last) => lastUpdateText(last),
    );
  });

  it('a lock: its holder, marked when stale, its age and the verdict in words', () => {
    const ci: LockFacts = { username: 'ci', hostname: 'runner-7', pid: 4121 };
    const rows: Array<readonly [[LockFacts, LockVerdict, keyof ReturnType<typeof describeLock>], string]> = [
      [[ci, { stale: false, ageMs: 5 * MIN }, 'holder'], 'ci@runner-7 (pid 4121)'],
      [[{}, { stale: false }, 'holder'], '?@? (pid ?)'],
      [[ci, { stale: false, ageMs: 5 * MIN }, 'marked'], 'ci@runner-7 (pid 4121)'],
      [[ci, { stale: true, reason: 'too-old', ageMs: 48 * HOUR }, 'marked'], 'ci@runner-7 (pid 4121, stale)'],
      [[ci, { stale: true, reason: 'process-gone' }, 'marked'], 'ci@runner-7 (pid 4121, stale)'],
      [[ci, { stale: false, ageMs: 5 * MIN }, 'taken'], 'ci@runner-7 (pid 4121), taken 5 min ago'],
      [[ci, { stale: false }, 'taken'], 'ci@runner-7 (pid 4121), taken at an unknown time'],
      [[ci, { stale: false, ageMs: 5 * MIN }, 'line'], 'ci@runner-7 (pid 4121), taken 5 min ago: its holder may still be running'],
      [[ci, { stale: true, reason: 'too-old', ageMs: 48 * HOUR }, 'line'], 'ci@runner-7 (pid 4121), taken 2 d ago: stale, older than 1 h'],
      [[ci, { stale: true, reason: 'process-gone', ageMs: 30_000 }, 'line'], 'ci@runner-7 (pid 4121), taken 30 s ago: stale, its process on this machine is no longer running'],
    ];
    table(rows, ([lock, verdict, part]) => describeLock(lock, verdict, HOUR)[part]);
  });

  it("a lock file as Pulumi's refusal names it, with the rule's verdict when asked", () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    const here: StaleLockContext = { now, hostname: 'here', pidAlive: (pid) => pid !== 200, staleAfterMs: HOUR };
    const file = (lock: object) => JSON.stringify(lock);
    table<[string | Error, StaleLockContext?]>(
      [
        [[file({ pid: 4242, username: 'ci', hostname: 'runner-7', timestamp: '2025-06-01T10:20:30.123456789+02:00' })], 'created by ci@runner-7 (pid 4242) at 2025-06-01T10:20:30+02:00'],
        [[file({})], 'created by @ (pid 0) at 0001-01-01T00:00:00Z'],
        [
          [file({ pid: 200, username: 'ci', hostname: 'here', timestamp: '2025-06-01T11:59:00Z' }), here],
          'created by ci@here (pid 200) at 2025-06-01T11:59:00Z; stale: pid 200 is not running on this machine',
        ],
        [[file({ pid: 1, username: 'ci', hostname: 'far', timestamp: '2025-06-01T09:00:00Z' }), here], 'created by ci@far (pid 1) at 2025-06-01T09:00:00Z; stale: taken 3 h ago (older than 1 h)'],
        [
          [file({ pid: 1, username: 'ci', hostname: 'far', timestamp: '2025-06-01T11:50:00Z' }), here],
          'created by ci@far (pid 1) at 2025-06-01T11:50:00Z; may be live: taken 10 min ago (stale after 1 h)',
        ],
        [[file({ pid: 1, username: 'ci', hostname: 'far' }), here], 'created by ci@far (pid 1) at 0001-01-01T00:00:00Z; may be live: taken at an unknown time (stale after 1 h)'],
        [[new Error('EACCES: permission denied')], 'unreadable (EACCES: permission denied)'],
      ],
      ([read, staleness]) => lockFileHolder(read, staleness),
    );
    // No JSON: the parser's message is the runtime's own, so only the frame is ours.
    assert.match(lockFileHolder('{"pid": 1'), /^unreadable \(.*JSON.*\)$/);
  });

  it("Pulumi's refusal of a locked stack, and what breaking a lock says", () => {
    table<[Array<{ where: string; holder: string }>, string?]>(
      [
        [
          [[{ where: '/b/.pulumi/locks/organization/p/dev/1.json', holder: 'created by ci@h (pid 1) at T' }]],
          'the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n  /b/.pulumi/locks/organization/p/dev/1.json: created by ci@h (pid 1) at T',
        ],
        [
          [
            [
              { where: 'a.json', holder: 'x' },
              { where: 'b.json', holder: 'y' },
            ],
            '--break-lock removes it.',
          ],
          'the stack is currently locked by 2 lock(s). Either wait for the other process(es) to end or delete the lock file with `pulumi cancel`.\n  a.json: x\n  b.json: y\n--break-lock removes it.',
        ],
      ],
      ([locks, hint]) => lockRefusalText(locks, hint),
    );
    assert.equal(lockRemovalText('a.json', 'created by ci@h (pid 1) at T'), "removing Pulumi's lock a.json (created by ci@h (pid 1) at T)");
  });

  it('a prune plan, per stack in each voice, and its total', () => {
    table<[PrunePlan, PlanVoice]>(
      [
        [[prune('organization/hist/dev', 36, 42_188), 'dry-run'], 'organization/hist/dev: would remove 36 files (41.2 KiB): history 9 → 5, backups 9 → 5, retained checkpoints 2 → 0'],
        [[prune('organization/hist/dev', 1, 512), 'done'], 'organization/hist/dev: removed 1 file (512 B): history 9 → 5, backups 9 → 5, retained checkpoints 2 → 0'],
        [[prune('organization/hist/dev', 4, 2048), 'plan'], 'organization/hist/dev: 4 files (2.0 KiB): history 9 → 5, backups 9 → 5, retained checkpoints 2 → 0'],
      ],
      ([plan, voice]) => prunePlanText(plan, voice),
    );
    table<[PrunePlan[], boolean]>(
      [
        [[[prune('a', 1, 1024), prune('b', 0, 0)], true], 'would free 1.0 KiB in 2 stacks (nothing removed)'],
        [[[prune('a', 1, 100)], false], 'freed 100 B in 1 stack'],
        [[[], false], 'freed 0 B in 0 stacks'],
      ],
      ([plans, dryRun]) => pruneTotalText(plans, dryRun),
    );
  });

  it('an upgrade plan, per stack in each voice, and its total', () => {
    table<[StackUpgrade, PlanVoice]>(
      [
        [[upgrade('dev', 'hist', 20), 'dry-run'], 'dev → organization/hist/dev: would move 20 files'],
        [[upgrade('dev', 'hist', 1), 'done'], 'dev → organization/hist/dev: moved 1 file'],
        [[upgrade('dev', 'hist', 3), 'plan'], 'dev → organization/hist/dev: 3 files'],
        [[upgrade('empty', undefined, 0, 'no project name found'), 'dry-run'], 'empty: skipped: no project name found'],
        [[upgrade('empty', undefined, 0, 'no project name found'), 'plan'], 'empty: skipped: no project name found'],
      ],
      ([plan, voice]) => upgradePlanText(plan, voice),
    );
    table<[StackUpgrade[], boolean]>(
      [
        [[[upgrade('dev', 'hist', 2)], false], 'upgraded 1 of 1 stack to the project layout'],
        [[[upgrade('dev', 'hist', 2), upgrade('empty', undefined, 0, 'why')], true], 'would upgrade 1 of 2 stacks to the project layout (nothing written)'],
      ],
      ([plans, dryRun]) => upgradeTotalText(plans, dryRun),
    );
  });
});
