/**
 * `quota-state secrets check STACK|FILE`: every secret of the state stored in plaintext, every
 * malformed one, every ciphertext the stack's key does not open (and why, when it can be told), and
 * the same of the stack's config file. A report of places and reasons: no value is ever in it.
 */
import { resolve } from 'node:path';
import {
  checkConfigSecrets,
  checkStateSecrets,
  configSecrets,
  formatPropertyPath,
  type CiphertextProblem,
  type ConfigSecretFinding,
  type OtherSalt,
  type StateSecretFinding,
  type StateSecretsReport,
} from '../../shared/backend';
import { UsageError, type ParsedArguments } from '../args';
import { formatFlag, type CliIO } from '../io';
import { environmentPassphrase, loadSecretsTarget, NEEDS_PASSPHRASE, otherStackSalts, stackOfTarget, type SecretsTarget } from '../secretsAccess';
import { findStackConfig, readStackConfig, siblingSalts, type StackConfigFile } from '../stackConfig';

/** What a ciphertext problem says, never naming a value. */
function problemText(problem: CiphertextProblem | ConfigSecretFinding['problem'], saltsDiffer: string | undefined): string {
  switch (problem.kind) {
    case 'damaged':
      return `a damaged ciphertext (${problem.message}): truncated or edited, it decrypts with no key`;
    case 'other-key':
      return `does not decrypt with this stack's key: ${problem.opensWith} opens it (copied from another stack?)`;
    case 'no-key':
      return `does not decrypt with this stack's key, nor with any other at hand: encrypted under another stack's salt, or before the passphrase changed${saltsDiffer ? `; ${saltsDiffer}` : ''}`;
    case 'not-json':
      return 'decrypts, but to no JSON value: Pulumi cannot read it';
    case 'no-salt':
      return 'a secure value, but the file has no encryptionsalt: Pulumi cannot decrypt it';
    case 'wrong-passphrase':
      return "the passphrase does not open the file's encryptionsalt";
  }
}

function findingText(finding: StateSecretFinding, saltsDiffer: string | undefined): string {
  switch (finding.kind) {
    case 'plaintext':
      return 'a secret stored in plaintext: anyone who reads the state reads it (Pulumi writes secrets encrypted)';
    case 'malformed':
      return 'a malformed secret: Pulumi needs exactly one of ciphertext or plaintext, not empty, and refuses the state';
    case 'no-provider':
      return 'an encrypted secret, but the state names no secrets provider: Pulumi cannot decrypt it';
    case 'ciphertext':
      return problemText(finding.problem, saltsDiffer);
  }
}

const placeOf = (finding: StateSecretFinding) =>
  `${finding.site.urn ?? `resources[${finding.site.index}]`}${finding.site.pending ? ' (a pending operation)' : ''} ${formatPropertyPath(finding.site.path)}`;
const configPlace = (finding: ConfigSecretFinding) => `config ${finding.key}${finding.path.length ? ` ${formatPropertyPath(finding.path)}` : ''}`;

/** The stack's config file: --config-file, else Pulumi.<stack>.yaml of the stack's project when at hand. */
function configOf(parsed: ParsedArguments, target: SecretsTarget, io: CliIO): StackConfigFile | undefined {
  const explicit = parsed.flags['config-file'];
  if (explicit !== undefined) return readStackConfig(resolve(io.cwd, explicit), io.cwd);
  const stack = stackOfTarget(target);
  return stack ? findStackConfig(io.cwd, stack.project, stack.name) : undefined;
}

interface CheckOutcome {
  report: StateSecretsReport;
  config?: StackConfigFile;
  configFindings: ConfigSecretFinding[];
  /** The config has secure values and no passphrase was given. */
  configNeedsPassphrase: boolean;
  saltsDiffer?: string;
}

async function judge(parsed: ParsedArguments, target: SecretsTarget, io: CliIO): Promise<CheckOutcome> {
  const passphrase = environmentPassphrase(io)?.value;
  const config = configOf(parsed, target, io);
  const project = stackOfTarget(target)?.project;
  // Keys to explain a ciphertext the stack's key does not open: the config's salt, its neighbours', other stacks'.
  const others = async (): Promise<OtherSalt[]> => [
    ...(config?.encryptionSalt ? [{ label: `${config.display}'s encryptionsalt`, saltState: config.encryptionSalt }] : []),
    ...siblingSalts(config, io.cwd, project),
    ...(await otherStackSalts(target)),
  ];
  const report = await checkStateSecrets(target.structure, passphrase, others);
  const saltsDiffer =
    config?.encryptionSalt && report.saltState !== undefined && report.saltState !== config.encryptionSalt ? `the state's salt differs from ${config.display}'s encryptionsalt` : undefined;
  const hasSecure = config !== undefined && configSecrets(config.config).length > 0;
  const configFindings = config && passphrase !== undefined ? await checkConfigSecrets(config.config, config.encryptionSalt, passphrase, others) : [];
  return { report, ...(config ? { config } : {}), configFindings, configNeedsPassphrase: hasSecure && passphrase === undefined, ...(saltsDiffer ? { saltsDiffer } : {}) };
}

function summary(display: string, { counts, findings, needsPassphrase }: StateSecretsReport, configFindings: number): string {
  const total = counts.ciphertext + counts.plaintext + counts.malformed;
  const forms = [`${counts.ciphertext} encrypted`, ...(counts.plaintext ? [`${counts.plaintext} in plaintext`] : []), ...(counts.malformed ? [`${counts.malformed} malformed`] : [])].join(', ');
  const problems = findings.length + configFindings;
  const held = total === 0 ? 'no secrets' : `${total} ${total === 1 ? 'secret' : 'secrets'} (${forms})`;
  const found = problems === 0 ? 'no problems' : `${problems} ${problems === 1 ? 'problem' : 'problems'}`;
  return `${display}: ${held}; ${needsPassphrase ? `${found} in plaintext, the encrypted ones not checked (no passphrase)` : found}`;
}

export async function runSecretsCheck(parsed: ParsedArguments, io: CliIO): Promise<number> {
  if (parsed.positional.length !== 1) throw new UsageError('secrets check takes one STACK or FILE');
  const format = formatFlag(parsed.flags.format, ['text', 'json']);
  const target = await loadSecretsTarget(parsed.positional[0], parsed.flags.backend, io);
  if (typeof target === 'number') return target;
  const outcome = await judge(parsed, target, io);
  const { report, config, configFindings, saltsDiffer } = outcome;
  const lines = report.findings.map((finding) => ({ file: target.display, place: placeOf(finding), finding, message: findingText(finding, saltsDiffer) }));
  const configLines = configFindings.map((finding) => ({ file: config!.display, place: configPlace(finding), finding, message: problemText(finding.problem, undefined) }));
  if (format === 'json') {
    const json = {
      file: target.display,
      secrets: report.counts,
      findings: lines.map(({ finding, message }) => ({ ...findingJson(finding), message })),
      config: config
        ? { file: config.display, findings: configLines.map(({ finding, message }) => ({ key: finding.key, path: formatPropertyPath(finding.path), problem: finding.problem, message })) }
        : null,
      notes: saltsDiffer ? [saltsDiffer] : [],
      checked: !(report.needsPassphrase || outcome.configNeedsPassphrase),
    };
    io.stdout(JSON.stringify(json, null, 2));
  } else {
    for (const line of [...lines, ...configLines]) io.stdout(`${line.file}: ${line.place}: ${line.message}`);
    if (saltsDiffer) io.stdout(`note: ${saltsDiffer}: Pulumi decrypts the state with its own salt and the config with the file's`);
    io.stdout(summary(target.display, report, configFindings.length));
  }
  if (report.needsPassphrase || outcome.configNeedsPassphrase) {
    io.stderr(`quota-state: ${NEEDS_PASSPHRASE}; ${report.needsPassphrase ? `${report.counts.ciphertext} encrypted secrets were` : `the secure values of ${config!.display} were`} not checked`);
    return 2;
  }
  return lines.length + configLines.length > 0 ? 1 : 0;
}

function findingJson(finding: StateSecretFinding) {
  const { site } = finding;
  return {
    urn: site.urn ?? null,
    index: site.index,
    pending: site.pending,
    path: formatPropertyPath(site.path),
    kind: finding.kind,
    ...(finding.kind === 'ciphertext' ? { problem: finding.problem } : {}),
  };
}
