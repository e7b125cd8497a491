#!/usr/bin/env node
// `npm run pulumi -- ARGS`: the pinned real Pulumi CLI (built on first use, see pulumi-cli.mjs), run
// hermetically from the caller's directory. `npm run --silent pulumi:judge -- FILE...` runs the judge:
// one JSON line per file with Pulumi's verdict.
import { spawnSync } from 'node:child_process';
import { ensurePulumi, hermeticEnv } from './pulumi-cli.mjs';

const args = process.argv.slice(2);
const judge = args[0] === '--judge';
if (judge) args.shift();
if (args[0] === '--') args.shift();

let binaries;
try {
  binaries = ensurePulumi({ log: (line) => process.stderr.write(`${line}\n`) });
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
let hermetic;
try {
  hermetic = hermeticEnv();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}
// npm runs scripts from the package root; INIT_CWD is where the user typed the command.
const cwd = process.env.INIT_CWD ?? process.cwd();
const env = judge ? { ...hermetic.env, INIT_CWD: cwd } : hermetic.env;
const result = spawnSync(judge ? binaries.judge : binaries.pulumi, args, { cwd, env, stdio: 'inherit' });
hermetic.cleanup();
if (result.error) {
  process.stderr.write(`${result.error.message}\n`);
  process.exit(2);
}
process.exit(result.status ?? 1);
