/** `quota-state evaluate`: the quota engine's verdict for every account of a quota config or instance file. */
import { resolve } from 'node:path';
import { stringifyJsonExact } from '../../shared/api/json';
import {
  DEFAULT_FORGEJO_VERSION,
  describeResolvedProfile,
  parseForgejoVersion,
  resolveForgejoProfile,
  type ResolvedForgejoProfile,
  type FileExplanation,
  formatSize,
  canonicalSubject,
  suggestSubjects,
  createQuotaService,
} from '../../shared/quota';
import { settingsText, withServerConfig } from '../appIniConfig';
import { InputError, UsageError, type ParsedArguments } from '../args';
import { located } from '../formats';
import { commandArguments, displayPath, formatFlag, kindOf, ProjectConfigs, readOrFail, type CliIO } from '../io';

const { analyze: analyzeQuotaConfig, isEvaluable, explainFile, reportOf } = createQuotaService();

export const EVALUATE_USAGE = `Usage: quota-state evaluate <quota config or instance file> [--config app.ini] [--account NAME] [--subject S] [--forgejo-version X.Y.Z] [--format text|json]

Prints the quota engine's verdict for every account (or --account NAME).
  --config   a Forgejo app.ini whose [quota] ENABLED, DEFAULT_GROUPS and [quota.default] TOTAL
             override the file's enabled, defaultGroups and defaultTotal (the output names each source)
  --forgejo-version
             answer as that Forgejo version does (as GET /api/v1/version reports it, e.g. 11.0.3+gitea-1.22.0);
             wins over the file's "forgejoVersion"; without either, ${DEFAULT_FORGEJO_VERSION}

Exit codes: 0 evaluated, 1 --subject is given and an evaluated account is over quota for it,
2 usage error, unreadable input, or a file that is not a valid quota config.`;

export function evaluate(args: string[], io: CliIO): number {
  const parsed = commandArguments(EVALUATE_USAGE, args, { format: 'value', account: 'value', subject: 'value', config: 'value', 'forgejo-version': 'value' }, io);
  if (!parsed) return 0;
  const { flags } = parsed;
  const { format, file, subject } = evaluateOptions(parsed, io);
  const display = displayPath(io.cwd, file);
  const text = readOrFail(file, io, display);
  if (kindOf(file, text, new ProjectConfigs(io).for(file)) === 'state') {
    throw new InputError(`${display} is a resource-state file; evaluate takes a quota config or instance file (check a state file with \`quota-state check ${display}\`)`);
  }
  const fileAnalysis = analyzeQuotaConfig(text);
  const configFile = flags.config === undefined ? undefined : resolve(io.cwd, flags.config);
  const config = configFile === undefined ? undefined : { text: readOrFail(configFile, io, displayPath(io.cwd, configFile)), displayName: displayPath(io.cwd, configFile) };
  const forgejo = resolveForgejoProfile([
    { source: 'option', version: flags['forgejo-version'] },
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

/** The command line's own mistakes, found before any file is read. */
function evaluateOptions({ positional, flags }: ParsedArguments, io: CliIO) {
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
  return { format, file, subject };
}

/**
 * An account's first line. "Within quota" means what Forgejo's checks answer: every subject allowed. A
 * group that stands while some subject is refused (one no rule of it covers, say) is said so, never "within quota".
 */
function accountVerdict(account: FileExplanation['accounts'][number]): string {
  const refused = account.subjects.filter((s) => !s.allowed).length;
  const subjects = account.subjects.length;
  if (refused === 0) return subjects === 1 ? 'within quota for its subject' : `within quota for all ${subjects} subjects`;
  const counted = `${refused} of ${subjects} ${subjects === 1 ? 'subject' : 'subjects'} refused`;
  return account.within ? `its groups stand, but ${counted}` : `OVER QUOTA, ${counted}`;
}

/** The explanations as text: each account's groups and rules, then the subjects it is refused, each with its reason. */
function explainedText(explained: FileExplanation, forgejo: ResolvedForgejoProfile): string {
  const lines: string[] = [describeResolvedProfile(forgejo), ''];
  if (explained.enabled === false) lines.push('Quota is disabled in this file: the verdicts show what the rules would decide once enabled.', '');
  if (explained.accounts.length === 0) lines.push('No accounts: add "accounts", "usage" or "assignments" to the file to evaluate them.');
  for (const account of explained.accounts) {
    lines.push(`${account.account}: ${accountVerdict(account)} (${account.groups.length === 1 ? 'group' : 'groups'} ${account.groups.map((g) => g.name).join(', ')})`);
    for (const group of account.groups) {
      lines.push(`  group ${group.name}: ${group.stands ? 'stands' : 'fails'}`);
      for (const rule of group.rules) {
        lines.push(`    ${rule.stands ? 'ok  ' : 'OVER'} ${rule.name}: ${formatSize(rule.used)} used of ${formatSize(rule.limit)}`);
      }
    }
    const denied = account.subjects.filter((s) => !s.allowed);
    const allowed = account.subjects.filter((s) => s.allowed);
    if (denied.length === 0) lines.push(`  allowed ${allowed.length === 1 ? allowed[0].subject : `all ${allowed.length} subjects`}`);
    else {
      lines.push(`  refused ${denied.map((s) => s.subject).join(', ')}`);
      for (const subject of denied) lines.push(`    ${subject.reason}`);
    }
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}
