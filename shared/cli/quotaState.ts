/**
 * `quota-state check|evaluate` (product.md §8): a thin entry over shared/, for CI.
 * Exit codes: check 0 (no Error) / 1 (some Error); evaluate 0 / 1 (over quota for --subject) /
 * 2 (not a valid quota config); every command 2 on usage errors. Never prints a stack trace.
 */
import { isAbsolute, relative } from 'node:path';
import { analyzeFile } from '../analyze';
import type { Diagnostic } from '../diagnostics';
import { analyzeQuotaConfig, isEvaluable, type QuotaAnalysis } from '../quota/config';
import { buildEvaluationReport, explainAccount, type EvaluationReport } from '../quota/report';
import { formatSize } from '../quota/sizes';
import { canonicalSubject, suggestSubjects } from '../quota/subjects';
import { expandFileArguments } from './files';
import { parseArguments, UsageError } from './args';

const USAGE = `Usage:
  quota-state check <files or globs…> [--format text|json]
  quota-state evaluate <quota config or instance file> [--account NAME] [--subject S] [--format text|json]

check     prints the language server's diagnostics for each file; exit 1 when any is an error
evaluate  prints the quota engine's verdict for every account; exit 1 when --subject is given
          and an evaluated account is over quota for it, 2 when the file is not a valid quota config`;

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readFile: (path: string) => string;
  cwd: string;
}

export function runCli(argv: string[], io: CliIO): number {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      (command === undefined ? io.stderr : io.stdout)(USAGE);
      return command === undefined ? 2 : 0;
    }
    if (command === 'check') return check(rest, io);
    if (command === 'evaluate') return evaluate(rest, io);
    throw new UsageError(`unknown command "${command}"`);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`quota-state: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.stderr(`quota-state: internal error: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
}

function readOrFail(path: string, io: CliIO): string {
  try {
    return io.readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `no such file: ${path}` : code === 'EISDIR' ? `${path} is a folder, not a file` : `cannot read ${path}: ${code ?? String(error)}`);
  }
}

/** Paths under the working folder print relative (as compilers do); others print as given. */
function displayPath(cwd: string, file: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

function formatFlag(value: string | undefined): 'text' | 'json' {
  if (value === undefined || value === 'text' || value === 'json') return value ?? 'text';
  throw new UsageError(`--format must be text or json, not "${value}"`);
}

/** `file:line:col: severity code: message` with 1-based line and column, as compilers print. */
function located(file: string, d: Diagnostic): string {
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message}`;
}

function check(args: string[], io: CliIO): number {
  const { positional, flags } = parseArguments(args, { format: 'value' });
  const format = formatFlag(flags.format);
  if (positional.length === 0) throw new UsageError('check needs at least one file or glob');
  const files = expandFileArguments(positional, io.cwd);
  const results = files.map((file) => {
    const text = readOrFail(file, io);
    const display = displayPath(io.cwd, file);
    const { kind, diagnostics } = analyzeFile(file, text);
    return { file: display, kind, diagnostics };
  });
  const hasError = results.some((r) => r.diagnostics.some((d) => d.severity === 'error'));
  if (format === 'json') {
    io.stdout(
      JSON.stringify(
        results.map((r) => ({
          file: r.file,
          diagnostics: r.diagnostics.map(({ code, severity, message, range }) => ({ code, severity, message, range })),
        })),
        null,
        2,
      ),
    );
  } else {
    const lines: string[] = [];
    let count = 0;
    for (const r of results) {
      if (!r.kind) lines.push(`${r.file}: not recognised as a resource-state or quota file (skipped)`);
      for (const d of r.diagnostics) lines.push(located(r.file, d));
      count += r.diagnostics.length;
    }
    lines.push(`${results.length} file${results.length === 1 ? '' : 's'} checked, ${count} problem${count === 1 ? '' : 's'}`);
    io.stdout(lines.join('\n'));
  }
  return hasError ? 1 : 0;
}

function evaluate(args: string[], io: CliIO): number {
  const { positional, flags } = parseArguments(args, { format: 'value', account: 'value', subject: 'value' });
  const format = formatFlag(flags.format);
  if (positional.length !== 1) throw new UsageError('evaluate needs exactly one quota config or instance file');
  const [file] = positional;
  const subject = flags.subject?.trim();
  if (subject !== undefined && !canonicalSubject(subject)) {
    const suggestions = suggestSubjects(subject);
    throw new UsageError(`"${subject}" is not a quota subject${suggestions.length ? `; did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?` : ''}`);
  }
  const text = readOrFail(file, io);
  const display = displayPath(io.cwd, file);
  const analysis = analyzeQuotaConfig(text);
  if (!isEvaluable(analysis)) {
    const errors = analysis.diagnostics.filter((d) => d.severity === 'error');
    io.stderr([...errors.map((d) => located(display, d)), `${display} is not a valid quota config (${errors.length} error${errors.length === 1 ? '' : 's'})`].join('\n'));
    return 2;
  }
  if (flags.account !== undefined && !analysis.accountNames.includes(flags.account)) {
    throw new UsageError(`${display} names no account "${flags.account}"; accounts: ${analysis.accountNames.join(', ') || '(none)'}`);
  }
  const report = buildEvaluationReport(analysis, { account: flags.account, subject });
  io.stdout(format === 'json' ? JSON.stringify(report, null, 2) : reportText(report, analysis));
  if (subject !== undefined && report.accounts.some((a) => a.checks[subject] === false)) return 1;
  return 0;
}

function reportText(report: EvaluationReport, analysis: QuotaAnalysis): string {
  const lines: string[] = [];
  if (report.enabled === false) lines.push('Quota is disabled in this file: the verdicts show what the rules would decide once enabled.', '');
  if (report.accounts.length === 0) lines.push('No accounts: add "accounts", "usage" or "assignments" to the file to evaluate them.');
  for (const account of report.accounts) {
    lines.push(`${account.name}: ${account.stands ? 'within quota' : 'OVER QUOTA'} (${account.groups.length === 1 ? 'group' : 'groups'} ${account.groups.map((g) => g.name).join(', ')})`);
    for (const group of account.groups) {
      lines.push(`  group ${group.name}: ${group.stands ? 'stands' : 'fails'}`);
      for (const rule of group.rules) {
        lines.push(`    ${rule.stands ? 'ok  ' : 'OVER'} ${rule.name}: ${formatSize(rule.used)} used of ${formatSize(rule.limit)}`);
      }
    }
    const denied = Object.entries(account.checks).filter(([, allowed]) => !allowed).map(([s]) => s);
    const allowed = Object.entries(account.checks).filter(([, ok]) => ok).map(([s]) => s);
    if (denied.length === 0) lines.push(`  within quota for ${allowed.length === 1 ? allowed[0] : `all ${allowed.length} subjects`}`);
    else {
      lines.push(`  over quota for ${denied.join(', ')}`);
      for (const explanation of explainAccount(analysis, account)) if (!explanation.allowed) lines.push(`    ${explanation.sentence}`);
    }
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}
