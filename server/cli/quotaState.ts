/**
 * `quota-state check|fix|evaluate`: a thin entry over shared/ beside the language server, for CI.
 * Exit codes: 0 clean, 1 findings (an Error diagnostic, a file `fix` cannot make valid, an account
 * over quota for `--subject`), 2 a usage error or input it cannot read. Never prints a stack trace.
 */
import { createTwoFilesPatch } from 'diff';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { analyzeFile } from '../../shared/analyze';
import type { Diagnostic, Severity, SeverityOverrides } from '../../shared/diagnostics';
import { DEFAULT_FILE_PATTERNS, kindFromContent, type DocumentKind } from '../../shared/documentKind';
import { fixAll } from '../../shared/fixAll';
import {
  findProjectConfig,
  kindFromConfiguredName,
  closestCode,
  knownCodes,
  mergeSeverity,
  ProjectConfigError,
  resolveStateSchema,
  type ProjectConfig,
  type ReadIfExists,
} from '../../shared/projectConfig';
import { analyzeQuotaConfig, isEvaluable } from '../../shared/quota/config';
import { explainFile, reportOf, type FileExplanation } from '../../shared/quota/report';
import { DEFAULT_FORGEJO_VERSION, describeResolvedProfile, parseForgejoVersion, resolveForgejoProfile, type ResolvedForgejoProfile } from '../../shared/quota/forgejoVersion';
import { formatSize } from '../../shared/quota/sizes';
import { stringifyJsonExact } from '../../shared/api/json';
import { canonicalSubject, suggestSubjects } from '../../shared/quota/subjects';
import { isStateSchemaMode, STATE_SCHEMA_MODES, type StateSchemaMode } from '../../shared/state/codes';
import { version as PACKAGE_VERSION } from '../../package.json';
import { InputError, parseArguments, UsageError } from './args';
import { appIniGroupSources, settingsText, withServerConfig } from './appIniConfig';
import { expandFileArguments, FileRefusedError } from './files';
import { runStateCommand, STATE_USAGE } from './stateCommands';
import { FORMATS, githubReport, jsonReport, located, sarifReport, textReport, type FileReport, type OutputFormat } from './formats';

const EXIT_CODES = `Exit codes: 0 clean, 1 findings, 2 usage error or unreadable input.`;

const CHECK_USAGE = `Usage: quota-state check <files or globs…> [--format text|json|github|sarif] [--severity CODE=LEVEL]… [--schema pulumi|seed-v3] [--jobs N]

Prints the language server's diagnostics for each resource-state, quota or app.ini file. Files that are
none of these are reported as skipped. Globs ("infra/**/*.state.json") are expanded by quota-state
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

Exit codes: 0 no Error diagnostic, 1 some Error diagnostic, 2 usage error or unreadable input.`;

const FIX_USAGE = `Usage: quota-state fix <files or globs…> [--dry-run]

Applies the safe quick fixes, one by one as in the editor. Resource-state files get what
\`pulumi state repair\` does (resources sorted into dependency order, references to resources that
are not in the file removed), plus the recomputed manifest magic, provider references pointed at
the provider's id, and duplicates marked "delete": true. Quota files get canonical subject
spellings. A file is written (atomically) only when the result has no Error diagnostic; otherwise
nothing is written and what remains is listed.

  --dry-run   print the changes as a unified diff instead of writing them

Exit codes: 0 every file is valid (fixed or already), 1 some file stays invalid (not written),
2 usage error or unreadable input.`;

const EVALUATE_USAGE = `Usage: quota-state evaluate <quota config or instance file> [--config app.ini] [--account NAME] [--subject S] [--forgejo-version X.Y.Z] [--format text|json]

Prints the quota engine's verdict for every account (or --account NAME).
  --config   a Forgejo app.ini whose [quota] ENABLED, DEFAULT_GROUPS and [quota.default] TOTAL
             override the file's enabled, defaultGroups and defaultTotal (the output names each source)
  --forgejo-version
             answer as that Forgejo version does (as GET /api/v1/version reports it, e.g. 11.0.3+gitea-1.22.0);
             wins over the file's "forgejoVersion"; without either, ${DEFAULT_FORGEJO_VERSION}

Exit codes: 0 evaluated, 1 --subject is given and an evaluated account is over quota for it,
2 usage error, unreadable input, or a file that is not a valid quota config.`;

const USAGE = `Usage:
  quota-state check <files or globs…> [--format text|json|github|sarif] [--severity CODE=LEVEL]… [--schema pulumi|seed-v3] [--jobs N]
  quota-state fix <files or globs…> [--dry-run]
  quota-state evaluate <quota config or instance file> [--config app.ini] [--account NAME] [--subject S] [--forgejo-version X.Y.Z] [--format text|json]
  quota-state state remove|protect|unprotect|taint|untaint|rename|repair|clear-pending|move FILE …
  quota-state --version

check     prints the language server's diagnostics for each file (state, quota and app.ini files)
fix       applies the safe quick fixes (state files: what \`pulumi state repair\` does)
evaluate  prints the quota engine's verdict for every account
state     the edits of \`pulumi state\`, offline, on a state file (\`quota-state state --help\`)

A .quota-state.json in a file's folder or above sets severities and file globs for it.
Run \`quota-state <command> --help\` for a command's options.
${EXIT_CODES}`;

const COMMAND_USAGE: Record<string, string> = { check: CHECK_USAGE, fix: FIX_USAGE, evaluate: EVALUATE_USAGE, state: STATE_USAGE };

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readFile: (path: string) => string;
  /** The text of a file, or undefined when it does not exist (the project configuration lookup). */
  readIfExists: ReadIfExists;
  /** Replaces a file's content so that a reader sees either the old or the new content. */
  writeFileAtomic: (path: string, text: string) => void;
  cwd: string;
}

function runCli(argv: string[], io: CliIO): number {
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
      io.stdout(COMMAND_USAGE[rest[0]] ?? USAGE);
      return 0;
    }
    if (command === 'check') return check(rest, io);
    if (command === 'fix') return fix(rest, io);
    if (command === 'evaluate') return evaluate(rest, io);
    if (command === 'state') return runStateCommand(rest, io);
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    return reportFailure(command, error, io);
  }
}

function reportFailure(command: string | undefined, error: unknown, io: CliIO): number {
  if (error instanceof UsageError) {
    io.stderr(`quota-state: ${error.message}\n\n${(command && COMMAND_USAGE[command]) || USAGE}`);
    return 2;
  }
  if (error instanceof InputError || error instanceof ProjectConfigError) {
    io.stderr(`quota-state: ${error.message}`);
    return 2;
  }
  io.stderr(`quota-state: internal error: ${error instanceof Error ? error.message : String(error)}`);
  return 2;
}

/** Parses a command's arguments; `--help` prints its usage and ends the command with 0. */
function commandArguments(command: string, args: string[], spec: Parameters<typeof parseArguments>[1], io: CliIO) {
  const parsed = parseArguments(args, spec);
  if (parsed.booleans.has('help')) {
    io.stdout(COMMAND_USAGE[command]);
    return undefined;
  }
  return parsed;
}

function readOrFail(path: string, io: CliIO, display: string): string {
  try {
    return io.readFile(path);
  } catch (error) {
    if (error instanceof FileRefusedError) throw new InputError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(code === 'ENOENT' ? `no such file: ${display}` : code === 'EISDIR' ? `${display} is a folder, not a file` : `cannot read ${display}: ${code ?? String(error)}`);
  }
}

/** Paths under the working folder print relative (as compilers do); others print as given. */
function displayPath(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

function formatFlag(value: string | undefined, allowed: readonly OutputFormat[]): OutputFormat {
  if (value === undefined) return 'text';
  if ((allowed as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`--format must be ${allowed.join(', ').replace(/, ([^,]*)$/, ' or $1')}, not "${value}"`);
}

const LEVELS = ['error', 'warning', 'information', 'hint', 'off'];

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

/** The project configuration of each folder, read once per run. */
export class ProjectConfigs {
  private readonly byFolder = new Map<string, ProjectConfig | undefined>();
  constructor(private readonly io: CliIO) {}
  for(file: string): ProjectConfig | undefined {
    const folder = dirname(file);
    if (!this.byFolder.has(folder)) this.byFolder.set(folder, findProjectConfig(folder, this.io.readIfExists));
    return this.byFolder.get(folder);
  }
}

function kindOf(file: string, text: string, config: ProjectConfig | undefined): DocumentKind | undefined {
  return kindFromConfiguredName(file, config, DEFAULT_FILE_PATTERNS) ?? kindFromContent(text);
}

/** `--schema`: how state files are read; the command line wins over `.quota-state.json`. */
function schemaFlag(value: string | undefined): StateSchemaMode | undefined {
  if (value === undefined) return undefined;
  if (!isStateSchemaMode(value)) throw new UsageError(`--schema must be ${STATE_SCHEMA_MODES.join(' or ')}, not "${value}"`);
  return value;
}

function expandOrFail(patterns: string[], cwd: string): string[] {
  try {
    return expandFileArguments(patterns, cwd);
  } catch (error) {
    // A glob that matches nothing is a fact about the input, not a mistake in the command line.
    if (error instanceof UsageError) throw new InputError(error.message);
    throw error;
  }
}

/** Runs `each` on every file; a file that cannot be read is reported and the others still run. */
function forEachFile<T>(files: string[], io: CliIO, each: (file: string, display: string) => T): { results: T[]; failed: boolean } {
  const results: T[] = [];
  let failed = false;
  for (const file of files) {
    try {
      results.push(each(file, displayPath(io.cwd, file)));
    } catch (error) {
      if (!(error instanceof InputError || error instanceof ProjectConfigError)) throw error;
      io.stderr(`quota-state: ${error.message}`);
      failed = true;
    }
  }
  return { results, failed };
}

/** What `check` needs to analyse one file, the same in this thread and in a worker. */
export interface CheckOptions {
  cliSeverity: SeverityOverrides;
  cliSchema: StateSchemaMode | undefined;
}

/** A file's report, or why it could not be read (printed in file order, as the sequential run does). */
export type CheckOutcome = { report: FileReport } | { inputError: string };

/** A parsed `check` command line: the files in order and how to report them. */
export interface CheckPlan {
  files: string[];
  format: OutputFormat;
  options: CheckOptions;
  /** `--jobs`: how many threads analyse files; undefined when not given. */
  jobs: number | undefined;
}

function planCheck(args: string[], io: CliIO): CheckPlan | undefined {
  const parsed = commandArguments('check', args, { format: 'value', severity: 'values', schema: 'value', jobs: 'value' }, io);
  if (!parsed) return undefined;
  const format = formatFlag(parsed.flags.format, FORMATS);
  const cliSeverity = severityFlags(parsed.lists.severity);
  const cliSchema = schemaFlag(parsed.flags.schema);
  const jobs = jobsFlag(parsed.flags.jobs);
  if (parsed.positional.length === 0) throw new UsageError('check needs at least one file or glob');
  const files = expandOrFail(parsed.positional, io.cwd);
  return { files, format, options: { cliSeverity, cliSchema }, jobs };
}

function jobsFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9][0-9]{0,3}$/.test(value)) throw new UsageError(`--jobs takes a whole number from 1, not "${value}"`);
  return Number(value);
}

/** Checks one file; `configs` caches the project configuration per folder for the thread that runs it. */
export function checkOne(file: string, options: CheckOptions, io: CliIO, configs: ProjectConfigs): CheckOutcome {
  const display = displayPath(io.cwd, file);
  try {
    const text = readOrFail(file, io, display);
    const config = configs.for(file);
    const kind = kindOf(file, text, config);
    const severity = mergeSeverity(config?.severity, options.cliSeverity);
    const stateSchema = resolveStateSchema({ commandLine: options.cliSchema, projectConfig: config });
    const { diagnostics } = kind ? analyzeFile(file, text, { kind, severity, stateSchema, groups: appIniGroupSources(file, io) }) : { diagnostics: [] };
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
    if ('report' in outcome) reports.push(outcome.report);
    else {
      io.stderr(`quota-state: ${outcome.inputError}`);
      failed = true;
    }
  }
  const format = plan.format;
  const output =
    format === 'json' ? jsonReport(reports) : format === 'github' ? githubReport(reports) : format === 'sarif' ? sarifReport(reports, { cwd: io.cwd, version: PACKAGE_VERSION }) : textReport(reports);
  io.stdout(output);
  if (failed) return 2;
  return reports.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
}

function check(args: string[], io: CliIO): number {
  const plan = planCheck(args, io);
  if (!plan) return 0;
  const configs = new ProjectConfigs(io);
  return finishCheck(
    plan,
    plan.files.map((file) => checkOne(file, plan.options, io, configs)),
    io,
  );
}

/** Analyses a check's files on several threads; outcomes in the order of `plan.files`. */
export type ParallelChecker = (plan: CheckPlan, jobs: number) => Promise<CheckOutcome[]>;

/**
 * `runCli`, with `check` spread over `jobs` threads (`--jobs`, else `defaultJobs`) when there is
 * more than one file and more than one job. Output and exit code are those of the sequential run.
 */
export async function runCliParallel(argv: string[], io: CliIO, checkInParallel: ParallelChecker, defaultJobs: number): Promise<number> {
  if (argv[0] !== 'check') return runCli(argv, io);
  try {
    const plan = planCheck(argv.slice(1), io);
    if (!plan) return 0;
    const jobs = Math.min(plan.jobs ?? defaultJobs, plan.files.length);
    if (jobs <= 1) {
      const configs = new ProjectConfigs(io);
      return finishCheck(
        plan,
        plan.files.map((file) => checkOne(file, plan.options, io, configs)),
        io,
      );
    }
    return finishCheck(plan, await checkInParallel(plan, jobs), io);
  } catch (error) {
    return reportFailure('check', error, io);
  }
}

function fix(args: string[], io: CliIO): number {
  const parsed = commandArguments('fix', args, { 'dry-run': 'boolean' }, io);
  if (!parsed) return 0;
  const dryRun = parsed.booleans.has('dry-run');
  if (parsed.positional.length === 0) throw new UsageError('fix needs at least one file or glob');
  const files = expandOrFail(parsed.positional, io.cwd);
  const configs = new ProjectConfigs(io);
  const { results, failed } = forEachFile(files, io, (file, display) => {
    const text = readOrFail(file, io, display);
    const kind = kindOf(file, text, configs.for(file));
    if (!kind) {
      io.stdout(`${display}: skipped: not recognised as a resource-state, quota or app.ini file`);
      return 'skipped' as const;
    }
    const result = fixAll(kind, text);
    // Valid means what Pulumi or Forgejo would load, so the registries' own severities decide.
    const remaining = result.diagnostics.filter((d) => d.severity === 'error');
    const changed = result.text !== text;
    if (dryRun && changed) io.stdout(createTwoFilesPatch(`a/${display}`, `b/${display}`, text, result.text, '', '', { context: 3 }).replace(/^=+\n/, ''));
    if (remaining.length > 0) {
      const applied = result.applied.length ? ` after ${result.applied.length} fix${result.applied.length === 1 ? '' : 'es'}` : '';
      io.stdout(
        [
          `${display}: ${remaining.length} error${remaining.length === 1 ? '' : 's'} remain${remaining.length === 1 ? 's' : ''}${applied}; nothing written`,
          ...remaining.map((d: Diagnostic) => `  ${located(display, d)}`),
        ].join('\n'),
      );
      return 'invalid' as const;
    }
    if (!changed) {
      io.stdout(`${display}: nothing to fix`);
      return 'clean' as const;
    }
    if (!dryRun) {
      try {
        io.writeFileAtomic(file, result.text);
      } catch (error) {
        throw new InputError(`cannot write ${display}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; the file is unchanged`);
      }
    }
    const titles = result.applied.map((a) => `  ${a.title}`);
    io.stdout([`${display}: ${dryRun ? 'would apply' : 'applied'} ${result.applied.length} fix${result.applied.length === 1 ? '' : 'es'}`, ...titles].join('\n'));
    return 'fixed' as const;
  });
  if (failed) return 2;
  return results.includes('invalid') ? 1 : 0;
}

function evaluate(args: string[], io: CliIO): number {
  const parsed = commandArguments('evaluate', args, { format: 'value', account: 'value', subject: 'value', config: 'value', 'forgejo-version': 'value' }, io);
  if (!parsed) return 0;
  const { positional, flags } = parsed;
  const format = formatFlag(flags.format, ['text', 'json']);
  if (positional.length !== 1) throw new UsageError('evaluate needs exactly one quota config or instance file');
  const file = resolve(io.cwd, positional[0]);
  const subject = flags.subject?.trim();
  if (subject !== undefined && !canonicalSubject(subject)) {
    const suggestions = suggestSubjects(subject);
    throw new UsageError(`"${subject}" is not a quota subject${suggestions.length ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?` : ''}`);
  }
  const optionVersion = flags['forgejo-version'];
  if (optionVersion !== undefined) {
    const parsedVersion = parseForgejoVersion(optionVersion);
    if (!parsedVersion.ok) throw new UsageError(`--forgejo-version: ${parsedVersion.message}`);
  }
  const display = displayPath(io.cwd, file);
  const text = readOrFail(file, io, display);
  if (kindOf(file, text, new ProjectConfigs(io).for(file)) === 'state') {
    throw new InputError(`${display} is a resource-state file; evaluate takes a quota config or instance file (check a state file with \`quota-state check ${display}\`)`);
  }
  const fileAnalysis = analyzeQuotaConfig(text);
  const configFile = flags.config === undefined ? undefined : resolve(io.cwd, flags.config);
  const config = configFile === undefined ? undefined : { text: readOrFail(configFile, io, displayPath(io.cwd, configFile)), displayName: displayPath(io.cwd, configFile) };
  const forgejo = resolveForgejoProfile([
    { source: 'option', version: optionVersion },
    { source: 'file', version: fileAnalysis.forgejoVersion?.text },
  ]);
  const { analysis, settings, errors: configErrors } = withServerConfig(fileAnalysis, display, config, forgejo.profile);
  if (config && configErrors.length) {
    io.stderr([...configErrors, `${config.displayName} cannot be loaded by Forgejo (${configErrors.length} error${configErrors.length === 1 ? '' : 's'})`].join('\n'));
    return 2;
  }
  if (!isEvaluable(analysis)) {
    const errors = analysis.diagnostics.filter((d) => d.severity === 'error');
    io.stderr([...errors.map((d) => located(display, d)), `${display} is not a valid quota config (${errors.length} error${errors.length === 1 ? '' : 's'})`].join('\n'));
    return 2;
  }
  if (flags.account !== undefined && !analysis.accountNames.includes(flags.account)) {
    throw new InputError(`${display} names no account "${flags.account}"; accounts: ${analysis.accountNames.join(', ') || '(none)'}`);
  }
  const explained = explainFile(analysis, { account: flags.account, subject, forgejo });
  const report = reportOf(explained);
  // A limit beyond 2^53 (a bigint) is written with all its digits, as Forgejo writes an int64.
  if (format === 'json') io.stdout(stringifyJsonExact(config ? { ...report, settings } : report, 2));
  else io.stdout(config ? [...settingsText(settings), '', explainedText(explained, forgejo)].join('\n') : explainedText(explained, forgejo));
  if (subject !== undefined && explained.accounts.some((a) => !a.subjects[0].allowed)) return 1;
  return 0;
}

/** The explanations as text: each account's groups and rules, then the subjects it is refused, each with its reason. */
function explainedText(explained: FileExplanation, forgejo: ResolvedForgejoProfile): string {
  const lines: string[] = [describeResolvedProfile(forgejo), ''];
  if (explained.enabled === false) lines.push('Quota is disabled in this file: the verdicts show what the rules would decide once enabled.', '');
  if (explained.accounts.length === 0) lines.push('No accounts: add "accounts", "usage" or "assignments" to the file to evaluate them.');
  for (const account of explained.accounts) {
    lines.push(`${account.account}: ${account.within ? 'within quota' : 'OVER QUOTA'} (${account.groups.length === 1 ? 'group' : 'groups'} ${account.groups.map((g) => g.name).join(', ')})`);
    for (const group of account.groups) {
      lines.push(`  group ${group.name}: ${group.stands ? 'stands' : 'fails'}`);
      for (const rule of group.rules) {
        lines.push(`    ${rule.stands ? 'ok  ' : 'OVER'} ${rule.name}: ${formatSize(rule.used)} used of ${formatSize(rule.limit)}`);
      }
    }
    const denied = account.subjects.filter((s) => !s.allowed);
    const allowed = account.subjects.filter((s) => s.allowed);
    if (denied.length === 0) lines.push(`  within quota for ${allowed.length === 1 ? allowed[0].subject : `all ${allowed.length} subjects`}`);
    else {
      lines.push(`  over quota for ${denied.map((s) => s.subject).join(', ')}`);
      for (const subject of denied) lines.push(`    ${subject.reason}`);
    }
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}
