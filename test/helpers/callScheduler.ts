/**
 * Interleavings of concurrent writers over the memory store (memoryStore.ts), chosen call by call.
 * Each writer runs as an actor; every store call it makes waits in the memory store's `before` hook
 * until the scheduler releases it, so a schedule is the order in which the waiting calls proceed.
 * Between two store calls a writer only runs promise callbacks (the memory store, the writer and the
 * lock do no other I/O and set no timers), so after one `setImmediate` every actor is either waiting
 * at its next call or settled: the outcome depends on the schedule alone, never on timing.
 * `everySchedule` enumerates the schedules depth first by replaying prefixes of choices.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { StoreCall } from './memoryStore';

export interface StoreStep {
  actor: string;
  call: StoreCall;
  name: string;
  /** What a write wrote. */
  bytes?: Uint8Array;
}

/** Chooses which waiting call proceeds (an index into `waiting`, in arrival order) at step `step`. */
export type Pick = (waiting: readonly StoreStep[], step: number) => number;

/** Every promise callback queued so far has run once this resolves (a macrotask comes after them all). */
const quiescent = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Which scheduler's actor makes a call. One for all schedulers: each live AsyncLocalStorage slows every promise. */
const running = new AsyncLocalStorage<{ scheduler: CallScheduler; actor: string }>();

export class CallScheduler {
  private readonly waiting: Array<StoreStep & { release(): void }> = [];
  /** The calls released so far, in order: the schedule that ran. */
  readonly steps: StoreStep[] = [];

  /** The memory store's `before`: a call made by an actor waits for its turn; any other call proceeds. */
  readonly before = (call: StoreCall, name: string, bytes?: Uint8Array): Promise<void> | undefined => {
    const context = running.getStore();
    if (context?.scheduler !== this) return undefined;
    const { actor } = context;
    return new Promise<void>((release) => this.waiting.push({ actor, call, name, bytes: bytes?.slice(), release }));
  };

  /**
   * Runs the actors together, releasing one waiting call at a time as `pick` chooses, until none waits;
   * answers how each actor ended. Throws when an actor never settles (it waits on something that is no
   * store call: a deadlock).
   */
  async run<T>(actors: Record<string, () => Promise<T>>, pick: Pick): Promise<Record<string, PromiseSettledResult<T>>> {
    const results: Record<string, PromiseSettledResult<T>> = {};
    for (const [name, body] of Object.entries(actors)) {
      running.run({ scheduler: this, actor: name }, body).then(
        (value) => (results[name] = { status: 'fulfilled', value }),
        (reason: unknown) => (results[name] = { status: 'rejected', reason }),
      );
    }
    await quiescent();
    while (this.waiting.length) {
      const [{ release, ...next }] = this.waiting.splice(pick(this.waiting, this.steps.length), 1);
      this.steps.push(next);
      release();
      await quiescent();
    }
    const stuck = Object.keys(actors).filter((name) => !(name in results));
    if (stuck.length) throw new Error(`${stuck.join(', ')} never settled, and no store call waits (a deadlock) after ${this.trace()}`);
    return results;
  }

  /** The schedule that ran, one call a line, for a failing assertion's message. */
  trace(): string {
    return this.steps.map((step) => `\n  ${step.actor}: ${step.call} ${step.name}`).join('');
  }
}

/**
 * Runs `once` under every schedule, depth first: each run takes the choices of a prefix, then the first
 * waiting call at every later step; the next prefix advances the last step that had another choice.
 * Answers the number of schedules run.
 */
export async function everySchedule(once: (pick: Pick) => Promise<void>): Promise<number> {
  let prefix: number[] = [];
  for (let count = 1; ; count++) {
    const taken: number[] = [];
    const widths: number[] = [];
    await once((waiting, step) => {
      const choice = step < prefix.length ? prefix[step] : 0;
      taken.push(choice);
      widths.push(waiting.length);
      return choice;
    });
    let last = taken.length - 1;
    while (last >= 0 && taken[last] + 1 >= widths[last]) last--;
    if (last < 0) return count;
    prefix = [...taken.slice(0, last), taken[last] + 1];
  }
}

/** Schedules where actor `first` makes `calls` store calls, then the others run to the end, then `first` finishes. */
export function pauseAfter(first: string, calls: number): Pick {
  let made = 0;
  return (waiting) => {
    const mine = waiting.findIndex((step) => step.actor === first);
    const others = waiting.findIndex((step) => step.actor !== first);
    if (mine !== -1 && (made < calls || others === -1)) {
      made++;
      return mine;
    }
    return others === -1 ? 0 : others;
  };
}

/** A schedule drawn from `random` (a seeded generator: the same seed, the same schedule). */
export function randomPick(random: () => number): Pick {
  return (waiting) => Math.floor(random() * waiting.length);
}
