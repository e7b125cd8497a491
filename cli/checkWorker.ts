/**
 * Worker thread of `quota-state check --jobs N`: analyses the files it is sent, one at a time,
 * and answers each with its outcome (a report, or why the file could not be read).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkKeysOf, checkOne, type CheckOptions, type CheckOutcome } from './commands/check';
import { ProjectConfigs } from './io';
import { realIo } from './realIo';

export interface CheckWorkerData {
  cwd: string;
  options: CheckOptions;
}
export interface CheckWorkerRequest {
  index: number;
  file: string;
}
export type CheckWorkerResponse = { index: number; outcome: CheckOutcome } | { index: number; internalError: string };

const { cwd, options } = workerData as CheckWorkerData;
const io = realIo(cwd);
const configs = new ProjectConfigs(io);
const keys = checkKeysOf(options);

parentPort!.on('message', async ({ index, file }: CheckWorkerRequest) => {
  let response: CheckWorkerResponse;
  try {
    response = { index, outcome: await checkOne(file, options, io, configs, keys) };
  } catch (error) {
    response = { index, internalError: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(response);
});
