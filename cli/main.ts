/** Process entry of `quota-state`: real I/O around `runCli`, with `check` spread over worker threads. */
import { availableParallelism } from 'node:os';
import { checkInWorkers } from './checkPool';
import { runCliParallel } from './quotaState';
import { realIo } from './realIo';

// A reader that stops early (`quota-state … | head`) closes the pipe: the rest of the output has no
// one to read it, which is not an error of ours. Work already done (a write) stays done.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  process.stdout.destroy();
});

const io = realIo(process.cwd());
runCliParallel(process.argv.slice(2), io, checkInWorkers(io.cwd), availableParallelism()).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    io.stderr(`quota-state: internal error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
