/** `quota-state check`: the language server's diagnostics for each file, in one of four formats, on one thread or several. */
import { analyzeFile } from '../../shared/analyze';
import { applySeverityOverrides, type Severity, type SeverityOverrides } from '../../shared/diagnostics';
import { emptyFileDiagnostics } from '../../shared/emptyFile';
import { closestCode, knownCodes, mergeSeverity, ProjectConfigError, resolveStateSchema } from '../../shared/projectConfig';
import { isStateSchemaMode, STATE_SCHEMA_MODES, type StateSchemaMode } from '../../shared/state';
import { version as PACKAGE_VERSION } from '../../package.json';
import { appIniGroupSources } from '../appIniConfig';
import { InputError, UsageError } from '../args';
import { CheckKeys } from '../checkSecrets';
import { FORMATS, githubReport, isSkipped, jsonReport, sarifReport, textReport, type FileReport, type OutputFormat } from '../formats';
import { commandArguments, displayPath, expandOrFail, formatFlag, kindOfDocument, ProjectConfigs, readDocumentOrFail, type CliIO } from '../io';
import { environmentPassphrase } from '../secretsAccess';
import type { NamedStacks } from '../stackTargets';

export const CHECK_USAGE = `Usage: quota-state check <files or globs…> [--format text|json|github|sarif] [--severity CODE=LEVEL]… [--schema pulumi|seed-v3] [--jobs N] [--fail-on-skipped]

Prints the language server's diagnostics for each resource-state, quota or app.ini file. Files that are
none of these are reported as skipped; an empty or whitespace-only file that no name pattern claims
gets empty-file (an Error). Compressed DIY stack files (.json.gz, .json.zst, known by their magic
bytes) are checked like plain ones. Globs ("infra/**/*.state.json") are expanded by quota-state
itself, so quote them.

  --format text     file:line:col: severity code: message (default; the $quota-state problem matcher)
  --format json     [{file, diagnostics: [{code, severity, message, range}]}], 0-based like LSP
  --format github   GitHub Actions workflow commands (annotations on the pull request)
  --format sarif    SARIF 2.1.0, one run, for code-scanning upload
  --severity C=L    override the severity of code C: error, warning, information, hint or off
                    (repeatable; wins over .quota-state.json, which wins over the defaults)
  --schema MODE     read state files as Pulumi's loader does (pulumi, the default) or by the
                    seed's version-3 record schema, exactly (seed-v3); wins over .quota-state.json
  --jobs N          analyse files on N threads (default: the available cores); the output and
                    exit code are the same for every N
  --fail-on-skipped  exit 1 when some file is skipped (not recognised), as for an Error

Secrets: with PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE, its content trimmed) set,
a state file whose passphrase salt (secrets_providers) it opens has every ciphertext tried, as the
editor does once it has the passphrase: secret-undecryptable (a Warning) for each that does not
decrypt. Without a passphrase nothing is decrypted. A passphrase that does not open a file's salt is
said on stderr for that file, which is then checked as without one; that alone fails nothing.

Exit codes: 0 no Error diagnostic, 1 some Error diagnostic (or, with --fail-on-skipped, a skipped
file), 2 usage error or unreadable input.`;

const LEVELS = ['error', 'warning', 'information', 'hint', 'off'];

/** What `check` needs to analyse one file, the same in this thread and in a worker. */
export interface CheckOptions {
  cliSeverity: SeverityOverrides;
  cliSchema: StateSchemaMode | undefined;
  /** The environment's passphrase (PULUMI_CONFIG_PASSPHRASE or _FILE), read once; state files' secrets are checked with it. */
  passphrase?: string;
}

/** A file's report and what stderr says of it (a passphrase that does not open its salt), or why it could not be read; printed in file order. */
export type CheckOutcome = { report: FileReport; note?: string } | { inputError: string };

/** A parsed `check` command line: the files in order and how to report them. */
export interface CheckPlan {
  files: string[];
  format: OutputFormat;
  options: CheckOptions;
  /** `--jobs`: how many threads analyse files; undefined when not given. */
  jobs: number | undefined;
  /** `--fail-on-skipped`: a file no kind claims fails the run (exit 1) instead of passing it. */
  failOnSkipped: boolean;
}

/** Analyses a check's files on several threads; outcomes in the order of `plan.files`. */
export type ParallelChecker = (plan: CheckPlan, jobs: number) => Promise<CheckOutcome[]>;

function severityFlags(values: string[] = []): SeverityOverrides {
  const overrides: SeverityOverrides = {};
  const codes = knownCodes();
  for (const value of values.flatMap((v) => v.split(','))) {
    const match = /^\s*([a-z-]+)\s*=\s*([a-z]+)\s*$/.exec(value);
    if (!match) throw new UsageError(`--severity takes CODE=LEVEL, e.g. unused-rule=off, not "${value}"`);
    const [, code, level] = match;
    if (!codes.includes(code)) {
      const near = closestCode(code, codes);
      throw new UsageError(`--severity: unknown diagnostic code "${code}"${near ? `; did you mean "${near}"?` : ''}`);
    }
    if (!LEVELS.includes(level)) throw new UsageError(`--severity: the level of "${code}" must be one of ${LEVELS.join(', ')}`);
    overrides[code] = level as Severity | 'off';
  }
  return overrides;
}

/** `--schema`: how state files are read; the command line wins over `.quota-state.json`. */
function schemaFlag(value: string | undefined): StateSchemaMode | undefined {
  if (value === undefined) return undefined;
  if (!isStateSchemaMode(value)) throw new UsageError(`--schema must be ${STATE_SCHEMA_MODES.join(' or ')}, not "${value}"`);
  return value;
}

function jobsFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,3}$/.test(value)) throw new UsageError(`--jobs takes a whole number from 1, not "${value}"`);
  return Number(value);
}

export const CHECK_FLAGS = { format: 'value', severity: 'values', schema: 'value', jobs: 'value', 'fail-on-skipped': 'boolean' } as const;

/** `stacks`: the operands that name a stack of `--backend` (a bucket's object, by its URL), taken as named, never as globs. */
function planCheck(args: string[], io: CliIO, stacks: NamedStacks = new Map()): CheckPlan | undefined {
  const parsed = commandArguments(CHECK_USAGE, args, CHECK_FLAGS, io);
  if (!parsed) return undefined;
  const format = formatFlag(parsed.flags.format, FORMATS);
  const cliSeverity = severityFlags(parsed.lists.severity);
  const cliSchema = schemaFlag(parsed.flags.schema);
  const jobs = jobsFlag(parsed.flags.jobs);
  if (parsed.positional.length === 0) throw new UsageError('check needs at least one file or glob');
  const files = [...new Set(parsed.positional.flatMap((operand) => (stacks.has(operand) ? [operand] : expandOrFail([operand], io.cwd))))];
  const passphrase = environmentPassphrase(io)?.value;
  return { files, format, options: { cliSeverity, cliSchema, ...(passphrase !== undefined ? { passphrase } : {}) }, jobs, failOnSkipped: parsed.booleans.has('fail-on-skipped') };
}

/** The keys of a thread's run, when the environment gave a passphrase. */
export const checkKeysOf = (options: CheckOptions): CheckKeys | undefined => (options.passphrase !== undefined ? new CheckKeys(options.passphrase) : undefined);

/**
 * Checks one file; `configs` caches the project configuration per folder for the thread that runs it,
 * `keys` the passphrase's key per salt (a state file's secrets are then checked with it).
 */
export async function checkOne(file: string, options: CheckOptions, io: CliIO, configs: ProjectConfigs, keys?: CheckKeys): Promise<CheckOutcome> {
  const display = displayPath(io.cwd, file);
  try {
    // A compressed DIY stack is decompressed (within the limit) and checked as the state it holds.
    const document = readDocumentOrFail(file, io, display);
    const text = document.text;
    const config = configs.for(file);
    const kind = kindOfDocument(file, document, config);
    const severity = mergeSeverity(config?.severity, options.cliSeverity);
    const stateSchema = resolveStateSchema({ commandLine: options.cliSchema, projectConfig: config });
    if (kind === 'state' && keys) {
      const { diagnostics, note } = await keys.diagnose(text, stateSchema, display);
      return { report: { file: display, path: file, kind, diagnostics: applySeverityOverrides(diagnostics, severity) }, ...(note !== undefined ? { note } : {}) };
    }
    const diagnostics = kind
      ? analyzeFile(file, text, { kind, severity, stateSchema, groups: appIniGroupSources(file, io) }).diagnostics
      : applySeverityOverrides(emptyFileDiagnostics(text), severity);
    return { report: { file: display, path: file, kind, diagnostics } };
  } catch (error) {
    if (!(error instanceof InputError || error instanceof ProjectConfigError)) throw error;
    return { inputError: error.message };
  }
}

/** Prints the outcomes in file order and returns the exit code: identical whichever threads made them. */
function finishCheck(plan: CheckPlan, outcomes: CheckOutcome[], io: CliIO): number {
  const reports: FileReport[] = [];
  let failed = false;
  for (const outcome of outcomes) {
    if ('report' in outcome) {
      reports.push(outcome.report);
      if (outcome.note !== undefined) io.stderr(`quota-state: ${outcome.note}`);
    } else {
      io.stderr(`quota-state: ${outcome.inputError}`);
      failed = true;
    }
  }
  const format = plan.format;
  const output =
    format === 'json' ? jsonReport(reports) : format === 'github' ? githubReport(reports) : format === 'sarif' ? sarifReport(reports, { cwd: io.cwd, version: PACKAGE_VERSION }) : textReport(reports);
  io.stdout(output);
  if (failed) return 2;
  if (plan.failOnSkipped && reports.some(isSkipped)) return 1;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

async function checkInThisThread(plan: CheckPlan, io: CliIO): Promise<number> {
  const configs = new ProjectConfigs(io);
  const keys = checkKeysOf(plan.options);
  const outcomes: CheckOutcome[] = [];
  for (const file of plan.files) outcomes.push(await checkOne(file, plan.options, io, configs, keys));
  return finishCheck(plan, outcomes, io);
}

/** `quota-state check` on this thread. */
export async function check(args: string[], io: CliIO, stacks?: NamedStacks): Promise<number> {
  const plan = planCheck(args, io, stacks);
  return plan ? await checkInThisThread(plan, io) : 0;
}

/**
 * `check` spread over `jobs` threads (`--jobs`, else `defaultJobs`) when there is more than one
 * file and more than one job. Output and exit code are those of the sequential run.
 */
export async function checkInParallel(args: string[], io: CliIO, checker: ParallelChecker, defaultJobs: number): Promise<number> {
  const plan = planCheck(args, io);
  if (!plan) return 0;
  const jobs = Math.min(plan.jobs ?? defaultJobs, plan.files.length);
  if (jobs <= 1) return await checkInThisThread(plan, io);
  return finishCheck(plan, await checker(plan, jobs), io);
}
