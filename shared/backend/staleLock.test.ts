import { strict as assert } from 'node:assert';
import { judgeLock, lockAgeText, parseStaleLockAge, type StaleLockContext } from './staleLock';

const HOUR = 3_600_000;
const now = Date.parse('2025-06-01T12:00:00Z');
/** This machine is `here`; pid 100 runs, pid 200 is gone, anything else cannot be told. */
const context: StaleLockContext = { now, hostname: 'here', pidAlive: (pid) => (pid === 100 ? true : pid === 200 ? false : undefined), staleAfterMs: HOUR };
const at = (msAgo: number) => new Date(now - msAgo).toISOString();

describe('the stale-lock rule', () => {
  it('a lock of this machine whose process is gone is stale, however young', () => {
    assert.deepEqual(judgeLock({ hostname: 'here', pid: 200, timestamp: at(5000) }, context), { stale: true, reason: 'process-gone', ageMs: 5000 });
  });

  it('a young lock of this machine whose process runs is not stale', () => {
    assert.deepEqual(judgeLock({ hostname: 'here', pid: 100, timestamp: at(60_000) }, context), { stale: false, ageMs: 60_000 });
  });

  it("another machine's pid is never checked here: a young lock there may be live", () => {
    assert.equal(judgeLock({ hostname: 'elsewhere', pid: 200, timestamp: at(60_000) }, context).stale, false);
  });

  it('any lock older than the limit is stale, even with a running holder', () => {
    assert.deepEqual(judgeLock({ hostname: 'here', pid: 100, timestamp: at(HOUR) }, context), { stale: true, reason: 'too-old', ageMs: HOUR });
    assert.equal(judgeLock({ hostname: 'elsewhere', pid: 1, timestamp: at(2 * HOUR) }, context).reason, 'too-old');
    assert.equal(judgeLock({ hostname: 'here', pid: 100, timestamp: at(2 * HOUR) }, { ...context, staleAfterMs: 3 * HOUR }).stale, false);
  });

  it("reads Go's nanosecond timestamps and zones; a missing or zero time has no age and is not stale by age", () => {
    assert.equal(judgeLock({ hostname: 'x', timestamp: '2025-06-01T11:59:00.123456789Z' }, context).ageMs, 59_877);
    assert.equal(judgeLock({ hostname: 'x', timestamp: '2025-06-01T13:30:00+02:00' }, context).ageMs, 30 * 60_000);
    assert.deepEqual(judgeLock({ hostname: 'x', timestamp: '0001-01-01T00:00:00Z' }, context), { stale: false });
    assert.deepEqual(judgeLock({}, context), { stale: false });
  });

  it('where processes cannot be checked (the browser), only the age decides', () => {
    const browser: StaleLockContext = { now, staleAfterMs: HOUR };
    assert.equal(judgeLock({ hostname: 'here', pid: 200, timestamp: at(1000) }, browser).stale, false);
    assert.equal(judgeLock({ hostname: 'here', pid: 200, timestamp: at(HOUR + 1) }, browser).stale, true);
    // pid 0 (the web editor's own lock) is no process to check.
    assert.equal(judgeLock({ hostname: 'here', pid: 0, timestamp: at(1000) }, { ...context, pidAlive: () => false }).stale, false);
  });

  it('takes the limit as a Go duration, positive', () => {
    assert.equal(parseStaleLockAge('1h'), HOUR);
    assert.equal(parseStaleLockAge(' 90m '), 90 * 60_000);
    assert.equal(parseStaleLockAge('2d'), 48 * HOUR);
    assert.equal(parseStaleLockAge('0s'), undefined);
    assert.equal(parseStaleLockAge('an hour'), undefined);
  });

  it('says an age in short words', () => {
    assert.deepEqual([45_000, 12 * 60_000, 3 * HOUR + 5 * 60_000, 2 * HOUR, 52 * HOUR, 48 * HOUR].map(lockAgeText), ['45 s', '12 min', '3 h 5 min', '2 h', '2 d 4 h', '2 d']);
  });
});
