/**
 * What every operation returns: the edits, the new text, and a structured report. `finish` renders
 * the plan and runs the project's own checker on the result: an operation never leaves an error
 * the input did not have (it is refused instead), and it says which errors remain.
 */
import * as l10n from '@vscode/l10n';
import type { Diagnostic } from '../../diagnostics';
import type { TextEdit } from '../../edits';
import { inEnglish, l10nBundle } from '../../l10n';
import { analyzeSnapshot, analyzeState, type StateAnalysis } from '../analyze';
import { DEFAULT_STATE_SCHEMA_MODE } from '../codes';
import type { StateSnapshot } from '../model/snapshot';
import { isObject } from '../model/structure';
import { openState, SurgeryError, type EditableState, type SurgeryInput } from './document';
import { renderPlan, type Plan, type VersionInfo } from './render';

type SurgeryStatus = 'applied' | 'unchanged' | 'refused';

export interface SurgeryChange {
  /** The record's urn before the operation. */
  urn: string;
  /** Its index before the operation (0-based). */
  index: number;
  action: 'removed' | 'protected' | 'unprotected' | 'tainted' | 'untainted' | 'renamed' | 'moved' | 'added' | 'reordered' | 'pruned' | 'parent-cleared';
  /** The new urn, for a rename or a rewritten urn. */
  newUrn?: string;
  detail?: string;
}

export interface CutReference {
  /** The record holding the reference (its urn after the operation). */
  from: string;
  kind: string;
  target: string;
  key?: string;
}

export interface SurgeryOutcome {
  operation: string;
  status: SurgeryStatus;
  /** Pulumi's summary line ("Resource deleted", "2 resources protected", …), or why it was refused. */
  message: string;
  edits: TextEdit[];
  /** The text after the edits (the input's text when unchanged or refused). */
  text: string;
  changes: SurgeryChange[];
  /** Records removed because they depend on a target (remove --target-dependents). */
  dependentsRemoved: string[];
  /** References dropped (repair's pruning, a move's cross-file dependencies). */
  referencesCut: CutReference[];
  /** Pending operations cleared: their type and urn. */
  pendingCleared: Array<{ type: string; urn: string }>;
  /** What the operation deliberately left alone, and how it differs from Pulumi. */
  notes: string[];
  /** Why the operation was refused (Pulumi's wording where it is clear). */
  errors: string[];
  /** Checker errors the result still has (all of them were in the input). */
  remainingErrors: string[];
  version: VersionInfo;
}

export function refused(doc: EditableState | undefined, operation: string, errors: string[], notes: string[] = []): SurgeryOutcome {
  return {
    operation,
    status: 'refused',
    message: errors[0]?.split('\n')[0] ?? l10n.t('refused'),
    edits: [],
    text: doc?.text ?? '',
    changes: [],
    dependentsRemoved: [],
    referencesCut: [],
    pendingCleared: [],
    notes,
    errors,
    remainingErrors: [],
    version: {},
  };
}

export interface FinishOptions {
  /** Run the checker before and after (default true). */
  verify?: boolean;
  /** Urns the operation rewrote (old → new), so that an error that only moved with its record is not new. */
  renamed?: Map<string, string>;
  /** Errors Pulumi would leave: reported as remaining even when new (repair's dangling provider references). */
}

export type PartialOutcome = Pick<SurgeryOutcome, 'message'> & Partial<Pick<SurgeryOutcome, 'changes' | 'dependentsRemoved' | 'referencesCut' | 'pendingCleared' | 'notes'>>;

const checkpointConfigNote = (doc: EditableState): string[] => {
  const root = doc.snapshot.structure.root;
  if (doc.snapshot.structure.shape === 'checkpoint' && isObject(root) && isObject(root.checkpoint) && root.checkpoint.config !== undefined) {
    return [l10n.t('The checkpoint\'s "config" is kept (Pulumi drops it when it rewrites a stack).')];
  }
  return [];
};

/** What an error is, whatever index it moved to: its English words (the signatures of a translation could not be read). */
function errorSignature(d: Diagnostic, renamed: Map<string, string> | undefined): string {
  let message = d.message.replace(/\bindex \d+/g, 'index #');
  if (renamed) for (const [from, to] of renamed) if (message.includes(from)) message = message.split(from).join(to);
  return `${d.code}: ${message}`;
}

function checkerErrors(text: string): Diagnostic[] {
  return analyzeState(text).diagnostics.filter((d) => d.severity === 'error');
}

const isEditable = (input: SurgeryInput): input is EditableState => typeof input !== 'string' && 'snapshot' in input && 'style' in input;

/** The input's errors in English, analysed once per snapshot: the guard and repair read them, an editor's snapshot is analysed already. */
const inputErrorCache = new WeakMap<StateSnapshot, Diagnostic[]>();

export function inputErrors(doc: EditableState): Diagnostic[] {
  const { snapshot } = doc;
  let errors = inputErrorCache.get(snapshot);
  if (!errors) {
    // A snapshot the server analysed in the default schema mode carries its diagnostics (in English without a bundle).
    const analysed = snapshot as Partial<StateAnalysis>;
    const reusable = analysed.diagnostics && analysed.stateSchema === DEFAULT_STATE_SCHEMA_MODE && !l10nBundle();
    errors = (reusable ? analysed.diagnostics! : inEnglish(() => analyzeSnapshot(snapshot).diagnostics)).filter((d) => d.severity === 'error');
    inputErrorCache.set(snapshot, errors);
  }
  return errors;
}

/** How a remaining or new error is listed. */
function errorLine(d: Diagnostic): string {
  return l10n.t('line {0}: {1}: {2}', d.range.start.line + 1, d.code, d.message);
}

export function finish(doc: EditableState, operation: string, plan: Plan, partial: PartialOutcome, options: FinishOptions = {}): SurgeryOutcome {
  const rendered = renderPlan(doc, plan);
  const outcome: SurgeryOutcome = {
    operation,
    status: rendered.text === doc.text ? 'unchanged' : 'applied',
    message: partial.message,
    edits: rendered.edits,
    text: rendered.text,
    changes: partial.changes ?? [],
    dependentsRemoved: partial.dependentsRemoved ?? [],
    referencesCut: partial.referencesCut ?? [],
    pendingCleared: partial.pendingCleared ?? [],
    notes: [...(partial.notes ?? []), ...(rendered.text === doc.text ? [] : checkpointConfigNote(doc))],
    errors: [],
    remainingErrors: [],
    version: rendered.version,
  };
  if (options.verify === false) return outcome;
  // Compared in English; listed in the language of the messages (the same analysis, so the same order).
  const before = inputErrors(doc);
  const after = rendered.text === doc.text ? before : inEnglish(() => checkerErrors(rendered.text));
  const shown = after.length && l10nBundle() ? checkerErrors(rendered.text) : after;
  const budget = new Map<string, number>();
  for (const d of before) {
    const key = errorSignature(d, options.renamed);
    budget.set(key, (budget.get(key) ?? 0) + 1);
  }
  const fresh: string[] = [];
  after.forEach((d, i) => {
    const key = errorSignature(d, undefined);
    const left = budget.get(key) ?? 0;
    if (left > 0) budget.set(key, left - 1);
    else fresh.push(errorLine(shown[i]));
  });
  outcome.remainingErrors = shown.map(errorLine);
  if (fresh.length) {
    return {
      ...outcome,
      status: 'refused',
      message: fresh.length === 1 ? l10n.t('{0} would leave 1 new error; nothing written', operation) : l10n.t('{0} would leave {1} new errors; nothing written', operation, fresh.length),
      errors: [fresh.length === 1 ? l10n.t('The result would have an error the input does not have:') : l10n.t('The result would have errors the input does not have:'), ...fresh.map((f) => `  ${f}`)],
      edits: [],
      text: doc.text,
    };
  }
  return outcome;
}

/**
 * The document an operation works on: parsed from text, opened from the caller's snapshot, or the one
 * the caller already holds. A text
 * that is no state document is a refusal of `operation` (with the reason), not an exception.
 */
export function openForOperation(input: SurgeryInput, operation: string): { doc: EditableState } | { refusal: SurgeryOutcome } {
  try {
    return { doc: isEditable(input) ? input : openState(input) };
  } catch (error) {
    if (error instanceof SurgeryError) return { refusal: refused(undefined, operation, [error.message]) };
    throw error;
  }
}
