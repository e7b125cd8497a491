/** Small input helpers shared by the commands: sizes with units, subjects with descriptions, names. */
import * as vscode from 'vscode';
import { describeSize, formatSizeExact, parseSize, ACCEPTED_SUBJECTS, CANONICAL_SUBJECTS, SUBJECT_DESCRIPTIONS, canonicalSubject } from '../shared/quota/vocabulary';
import { nameProblem as sharedNameProblem, canonicalName } from '../shared/names';

/** The project's one name rule (shared/names.ts), phrased for an input box. */
export function nameProblem(value: string, what: string): string | undefined {
  if (value.trim() === '') return what === 'group' ? vscode.l10n.t('A group name cannot be empty.') : vscode.l10n.t('A rule name cannot be empty.');
  return sharedNameProblem(what === 'group' ? 'group' : 'rule', value);
}

/** `taken` may answer later (a list request); the input box shows its verdict as soon as it is known. */
export async function askName(what: string, value?: string, taken?: (value: string) => Promise<string | undefined>): Promise<string | undefined> {
  const name = await vscode.window.showInputBox({
    title: vscode.l10n.t('Quota: {0} name', what),
    prompt: vscode.l10n.t('Name of the {0}', what),
    value,
    ignoreFocusOut: true,
    validateInput: (input) => nameProblem(input, what) ?? taken?.(input),
  });
  return name === undefined ? undefined : canonicalName(name);
}

/** Accepts `1 GiB`, `500M`, `2k`, `1073741824`, `-1` (unlimited); shows the byte count while typing. */
export async function askLimit(title: string, value?: number | bigint): Promise<number | undefined> {
  const input = await vscode.window.showInputBox({
    title,
    prompt: vscode.l10n.t('Limit in bytes or with a unit: 500M, 1 GiB, 2k … (-1 = unlimited)'),
    value: value === undefined ? undefined : String(formatSizeExact(value)),
    ignoreFocusOut: true,
    validateInput: (text) => {
      const parsed = parseSize(text);
      if (!parsed.ok) return parsed.error;
      return { message: describeSize(parsed.bytes), severity: vscode.InputBoxValidationSeverity.Info };
    },
  });
  if (input === undefined) return undefined;
  const parsed = parseSize(input);
  return parsed.ok ? parsed.bytes : undefined;
}

/** Multi-select of the canonical subjects, each with its description; `picked` are preselected. */
export async function askSubjects(title: string, picked: readonly string[] = []): Promise<string[] | undefined> {
  const items = CANONICAL_SUBJECTS.map((subject) => ({
    label: subject,
    detail: SUBJECT_DESCRIPTIONS[subject],
    picked: picked.includes(subject) || picked.some((p) => canonicalSubject(p) === subject),
  }));
  const chosen = await vscode.window.showQuickPick(items, { title, canPickMany: true, ignoreFocusOut: true, matchOnDetail: true });
  return chosen?.map((item) => item.label);
}

export async function askSubject(title: string): Promise<string | undefined> {
  const items = CANONICAL_SUBJECTS.map((subject) => ({ label: subject, detail: SUBJECT_DESCRIPTIONS[subject] }));
  return (await vscode.window.showQuickPick(items, { title, ignoreFocusOut: true, matchOnDetail: true }))?.label;
}

/** A limit from a command argument: a byte count or a size string. Throws a readable error. */
export function limitFromArgument(value: unknown): number {
  const parsed = parseSize(value);
  if (!parsed.ok) throw new Error(vscode.l10n.t('The limit {0} is not a size: {1}', JSON.stringify(value), parsed.error));
  return parsed.bytes;
}

/** Subjects from a command argument: must be accepted spellings (the server rejects others with 422 anyway). */
export function subjectsFromArgument(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) {
    throw new Error(vscode.l10n.t('Subjects must be a list of strings such as {0}.', JSON.stringify(ACCEPTED_SUBJECTS.slice(1, 3))));
  }
  return value;
}
