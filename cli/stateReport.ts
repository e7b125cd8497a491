/** The report of `quota-state state …`: what each file's operation did, as text or JSON. */
import type { SurgeryOutcome } from '../shared/state';

export interface FileResult {
  file: string;
  outcome: SurgeryOutcome;
  written: boolean;
  backup?: string;
  diff?: string;
}

export function report(results: FileResult[], format: string, warnings: string[], stdout: (text: string) => void): void {
  stdout(format === 'json' ? jsonReport(results, warnings) : [...warnings, ...results.flatMap(textLines)].join('\n'));
}

function jsonReport(results: FileResult[], warnings: string[]): string {
  const files = results.map(({ file, outcome, written, backup }) => {
    const { text, edits, ...rest } = outcome;
    void text;
    return { file, ...rest, edits: edits.length, written, ...(backup ? { backup } : {}) };
  });
  return JSON.stringify(files.length === 1 ? { ...files[0], warnings } : { files, warnings }, null, 2);
}

function textLines({ file, outcome, written, backup, diff }: FileResult): string[] {
  const lines: string[] = [];
  if (diff) lines.push(diff.trimEnd());
  const verb = outcome.status === 'refused' ? 'refused' : outcome.status === 'unchanged' ? 'nothing to do' : written ? 'written' : 'not written (--dry-run)';
  lines.push(`${file}: ${outcome.message} (${verb})`);
  if (outcome.status === 'refused') for (const error of outcome.errors) lines.push(indent(error));
  for (const change of outcome.changes) {
    lines.push(`  ${change.action} ${change.urn}${change.newUrn && change.newUrn !== change.urn ? ` → ${change.newUrn}` : ''}${change.detail ? ` (${change.detail})` : ''}`);
  }
  if (outcome.dependentsRemoved.length) lines.push(`  ${outcome.dependentsRemoved.length} dependent ${outcome.dependentsRemoved.length === 1 ? 'resource' : 'resources'} removed with the targets`);
  for (const cut of outcome.referencesCut) lines.push(`  cut ${cut.kind}${cut.key ? ` (${cut.key})` : ''} of ${cut.from} → ${cut.target}`);
  for (const pending of outcome.pendingCleared) lines.push(`  cleared pending operation '${pending.type}' on '${pending.urn}'`);
  if (outcome.version.before !== outcome.version.after && outcome.version.after !== undefined && outcome.status !== 'refused') {
    lines.push(`  version ${String(outcome.version.before)} → ${outcome.version.after}${outcome.version.featuresAfter ? ` (features: ${outcome.version.featuresAfter.join(', ')})` : ''}`);
  }
  for (const note of outcome.notes) lines.push(`  note: ${note}`);
  if (outcome.remainingErrors.length && outcome.status !== 'refused') {
    lines.push(`  ${outcome.remainingErrors.length} ${outcome.remainingErrors.length === 1 ? 'error remains' : 'errors remain'} (all already in the input):`);
    for (const error of outcome.remainingErrors.slice(0, 20)) lines.push(`    ${error}`);
    if (outcome.remainingErrors.length > 20) lines.push(`    … and ${outcome.remainingErrors.length - 20} more (quota-state check lists them all)`);
  }
  if (backup) lines.push(`  the old content is kept in ${backup}`);
  return lines;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line ? `  ${line}` : line))
    .join('\n');
}

/** The outcome of an operation refused before it ran (a lock, a read-only file, a file it cannot open). */
export function refusedOutcome(operation: string, text: string, message: string): SurgeryOutcome {
  return {
    operation,
    status: 'refused',
    message: message.split('\n')[0],
    edits: [],
    text,
    changes: [],
    dependentsRemoved: [],
    referencesCut: [],
    pendingCleared: [],
    notes: [],
    errors: [message],
    remainingErrors: [],
    version: {},
  };
}
