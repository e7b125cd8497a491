/**
 * `quota-state`: a thin entry over shared/ beside the language server, for CI. This module only
 * dispatches: each command is a module in commands/ (check, fix, evaluate, state).
 * Exit codes: 0 clean, 1 findings (an Error diagnostic, a file `fix` cannot make valid, an account
 * over quota for `--subject`), 2 a usage error or input it cannot read. Never prints a stack trace.
 */
import { ProjectConfigError } from '../shared/projectConfig';
import { version as PACKAGE_VERSION } from '../package.json';
import { InputError, UsageError } from './args';
import { InflateBudgetError } from '../shared/text/inflate';
import { BACKEND_USAGE, HISTORY_USAGE, runBackendCommand, runHistoryCommand } from './commands/backend';
import { check, CHECK_FLAGS, CHECK_USAGE, checkInParallel, type ParallelChecker } from './commands/check';
import { evaluate, EVALUATE_USAGE } from './commands/evaluate';
import { fix, FIX_FLAGS, FIX_USAGE } from './commands/fix';
import { diff, DIFF_USAGE } from './commands/diff';
import { restore, RESTORE_USAGE } from './commands/restore';
import { graph, GRAPH_USAGE } from './commands/graph';
import { runStateCommand, STATE_USAGE, stateStackOperands } from './commands/state';
import { runSecretsCommand, SECRETS_USAGE } from './commands/secrets';
import { runStackCommand, STACK_USAGE } from './commands/stack';
import type { CliIO } from './io';
import { positionalStacks, runOnBackendStacks } from './backendStacks';

const USAGE = `Usage:
  quota-state check <files, globs or, with --backend URL, stacks…> [--format text|json|github|sarif] [--severity CODE=LEVEL]… [--schema pulumi|seed-v3] [--jobs N]
  quota-state fix <files or, with --backend URL, stacks…> [--dry-run]
  quota-state evaluate <quota config or instance file> [--config app.ini] [--account NAME] [--subject S] [--forgejo-version X.Y.Z] [--format text|json]
  quota-state state remove|protect|unprotect|taint|untaint|rename|repair|clear-pending|move FILE|STACK … [--backend URL]
  quota-state backend ls [URL] [--counts] [--format text|json]
  quota-state backend prune (--keep N | --older-than DURATION) [--stack STACK] [--dry-run]
  quota-state backend upgrade [--project-for STACK=PROJECT]… [--dry-run]
  quota-state backend ls --deleted
  quota-state backend copy SRC DST [--stack STACK]… [--move] [--overwrite] [--project-for STACK=PROJECT]… [--dry-run]
  quota-state stack rm STACK [--force]
  quota-state stack restore-deleted STACK [--id UNIXNANO]
  quota-state stack rename STACK NEW_NAME
  quota-state history STACK [--backend URL] [--limit N] [--format text|json]
  quota-state graph FILE|STACK [--focus URN] [--depth N] [--format dot|mermaid|json] [--all-edges] …
  quota-state diff A B [--show-same] [--exit-code] [--format text|json|markdown]
  quota-state restore STACK --to VERSION|ID|FILE [--dry-run] [--allow-errors] [--break-lock]
  quota-state secrets get STACK|FILE URN PATH
  quota-state secrets check STACK|FILE [--config-file FILE] [--format text|json]
  quota-state --version

check     prints the language server's diagnostics for each file (state, quota and app.ini files)
fix       applies the safe quick fixes (state files: what \`pulumi state repair\` does)
evaluate  prints the quota engine's verdict for every account
state     the edits of \`pulumi state\`, offline, on a state file (\`quota-state state --help\`)
backend   a Pulumi DIY backend's stacks, their last update, locks and files; prune; upgrade; copy
stack     remove a DIY stack into the deleted area, bring it back, rename it
history   a stack's updates in a DIY backend, newest first
graph     a state file's resource graph: DOT as \`pulumi stack graph\` writes it, Mermaid or JSON
diff      what changed between two states (files, or a stack's versions: STACK@VERSION)
restore   a DIY stack back to an earlier version or a backup, as \`pulumi stack import\` would
secrets   a state's passphrase-encrypted secrets, offline: one value (get); what does not decrypt (check)

A .quota-state.json in a file's folder or above sets severities and file globs for it.
A STACK (organization/PROJECT/STACK, or PROJECT/STACK) names a stack of --backend URL: a file://
folder or an s3:// bucket, as \`pulumi login\` names them. In a bucket, a write holds Pulumi's lock
object, keeps the .bak object and is refused if the object changed since it was read.
Run \`quota-state <command> --help\` for a command's options.
Exit codes: 0 clean, 1 findings, 2 usage error or unreadable input.`;

/** Each command: how it runs and its usage text. */
const COMMANDS: Record<string, { run: (args: string[], io: CliIO) => number | Promise<number>; usage: string }> = {
  check: { run: (args, io) => runOnBackendStacks(args, io, false, check, positionalStacks(CHECK_FLAGS)), usage: CHECK_USAGE },
  fix: { run: (args, io) => runOnBackendStacks(args, io, true, fix, positionalStacks(FIX_FLAGS)), usage: FIX_USAGE },
  evaluate: { run: evaluate, usage: EVALUATE_USAGE },
  state: { run: (args, io) => runOnBackendStacks(args, io, true, runStateCommand, stateStackOperands), usage: STATE_USAGE },
  backend: { run: runBackendCommand, usage: BACKEND_USAGE },
  history: { run: runHistoryCommand, usage: HISTORY_USAGE },
  graph: { run: graph, usage: GRAPH_USAGE },
  diff: { run: diff, usage: DIFF_USAGE },
  restore: { run: restore, usage: RESTORE_USAGE },
  secrets: { run: runSecretsCommand, usage: SECRETS_USAGE },
  stack: { run: runStackCommand, usage: STACK_USAGE },
};

function commandOf(name: string | undefined) {
  return name !== undefined && Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
}

async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === '--version' || command === '-v') {
      io.stdout(PACKAGE_VERSION);
      return 0;
    }
    if (command === undefined) throw new UsageError('no command given');
    if (command === '--help' || command === '-h') {
      io.stdout(USAGE);
      return 0;
    }
    if (command === 'help') {
      io.stdout(commandOf(rest[0])?.usage ?? USAGE);
      return 0;
    }
    const known = commandOf(command);
    if (!known) throw new UsageError(`unknown command "${command}"`);
    return await known.run(rest, io);
  } catch (error) {
    return reportFailure(command, error, io);
  }
}

function reportFailure(command: string | undefined, error: unknown, io: CliIO): number {
  if (error instanceof UsageError) {
    io.stderr(`quota-state: ${error.message}\n\n${error.usage ?? commandOf(command)?.usage ?? USAGE}`);
    return 2;
  }
  // A command's decompression budget spent (shared/text/inflate.ts): the file and the limit, as unreadable input.
  if (error instanceof InputError || error instanceof ProjectConfigError || error instanceof InflateBudgetError) {
    io.stderr(`quota-state: ${error.message}`);
    return 2;
  }
  io.stderr(`quota-state: internal error: ${error instanceof Error ? error.message : String(error)}`);
  return 2;
}

/**
 * `runCli`, with `check` spread over `jobs` threads (`--jobs`, else `defaultJobs`) when there is
 * more than one file and more than one job. Output and exit code are those of the sequential run.
 */
export async function runCliParallel(argv: string[], io: CliIO, checker: ParallelChecker, defaultJobs: number): Promise<number> {
  // A bucket's stack is checked through runOnBackendStacks, sequentially.
  if (argv[0] !== 'check' || argv.some((arg) => arg === '--backend' || arg.startsWith('--backend='))) return runCli(argv, io);
  try {
    return await checkInParallel(argv.slice(1), io, checker, defaultJobs);
  } catch (error) {
    return reportFailure('check', error, io);
  }
}
