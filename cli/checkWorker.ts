/**
 * Worker thread of `quota-state check --jobs N`: analyses the files it is sent, one at a time,
 * and answers each with its outcome (a report, or why the file could not be read).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { checkOne, type CheckOptions } from './commands/check';
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
export type CheckWorkerResponse = { index: number; outcome: ReturnType<typeof checkOne> } | { index: number; internalError: string };

const { cwd, options } = workerData as CheckWorkerData;
const io = realIo(cwd);
const configs = new ProjectConfigs(io);

parentPort!.on('message', ({ index, file }: CheckWorkerRequest) => {
  let response: CheckWorkerResponse;
  try {
    response = { index, outcome: checkOne(file, options, io, configs) };
  } catch (error) {
    response = { index, internalError: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(response);
});
