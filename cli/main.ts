/** Process entry of `quota-state`: real I/O around `runCli`, with `check` spread over worker threads. */
import { availableParallelism } from 'node:os';
import { checkInWorkers } from './checkPool';
import { runCliParallel } from './quotaState';
import { realIo } from './realIo';

const io = realIo(process.cwd());
runCliParallel(process.argv.slice(2), io, checkInWorkers(io.cwd), availableParallelism()).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    io.stderr(`quota-state: internal error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
