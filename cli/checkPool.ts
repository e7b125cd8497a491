/**
 * `quota-state check` on several threads: a pool of check workers, each taking the next file when
 * it finishes one, so a large file does not hold up the rest. Outcomes come back in file order.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CheckWorkerData, CheckWorkerRequest, CheckWorkerResponse } from './checkWorker';
import type { CheckOutcome, CheckPlan } from './commands/check';

export function checkInWorkers(cwd: string, script = join(__dirname, 'checkWorker.js')) {
  return (plan: CheckPlan, jobs: number): Promise<CheckOutcome[]> =>
    new Promise((resolve, reject) => {
      const outcomes: CheckOutcome[] = new Array(plan.files.length);
      const workers: Worker[] = [];
      let next = 0;
      let done = 0;
      let settled = false;
      const finish = (error?: Error) => {
        if (settled) return;
        settled = true;
        for (const worker of workers) void worker.terminate();
        if (error) reject(error);
        else resolve(outcomes);
      };
      const feed = (worker: Worker) => {
        if (next < plan.files.length) {
          const index = next++;
          worker.postMessage({ index, file: plan.files[index] } satisfies CheckWorkerRequest);
        }
      };
      for (let i = 0; i < jobs; i++) {
        const worker = new Worker(script, { workerData: { cwd, options: plan.options } satisfies CheckWorkerData });
        workers.push(worker);
        worker.on('message', (response: CheckWorkerResponse) => {
          if ('internalError' in response) return finish(new Error(response.internalError));
          outcomes[response.index] = response.outcome;
          if (++done === plan.files.length) finish();
          else feed(worker);
        });
        worker.on('error', (error) => finish(error));
        worker.on('exit', (code) => finish(new Error(`a check worker stopped (exit code ${code})`)));
        feed(worker);
      }
    });
}
