/** Process entry of `quota-state`: real I/O around `runCli`. */
import { readRegularFile } from './files';
import { runCli } from './quotaState';

process.exitCode = runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
  readFile: (path) => readRegularFile(path),
  cwd: process.cwd(),
});
