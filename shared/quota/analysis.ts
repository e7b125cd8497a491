/**
 * What the analysis of a quota config file holds: its own module, so the rules, fixes and services
 * that read it need not import the analyser (config.ts), which imports them.
 */
import type { Node } from 'jsonc-parser';
import type { Diagnostic } from '../diagnostics';
import type { LineIndex } from '../text/lineIndex';
import type { SemanticResult } from './reader';

export interface QuotaAnalysis extends SemanticResult {
  text: string;
  lines: LineIndex;
  /** Undefined when the text holds no JSON value at all. */
  root: Node | undefined;
  /** The text the tree was parsed from: `text`, with containers nested past the bound blanked (same offsets). */
  parsedText: string;
  /** Some containers nested past the bound were parsed as empty: edits that reformat the text are unsafe. */
  nestingLimited: boolean;
  diagnostics: Diagnostic[];
}
