/**
 * What the editor features of shared/ return: plain data in the shapes LSP uses (positions and ranges
 * are shared/diagnostics.ts's), with kinds as words. LSP's own types and numeric kinds live only in
 * server/ (server/convert.ts), so the core serves the CLI and tests as well as the language server.
 */
import type { Position, Range } from './diagnostics';

export interface Markdown {
  kind: 'markdown';
  value: string;
}

export const markdown = (value: string): Markdown => ({ kind: 'markdown', value });

/** Markdown of several lines (hovers are built line by line). */
export const markdownLines = (lines: readonly string[]): Markdown => markdown(lines.join('\n'));

export interface HoverResult {
  contents: Markdown;
  range?: Range;
}

export interface Location {
  uri: string;
  range: Range;
}

export type CompletionKind = 'property' | 'value' | 'reference' | 'module' | 'constant' | 'enum-member';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail?: string;
  documentation?: Markdown;
  sortText?: string;
  filterText?: string;
  /** Replaces `range` with `newText`; absent when `insertText` goes in at the cursor. */
  textEdit?: { range: Range; newText: string };
  insertText?: string;
}

export type SymbolKindName = 'namespace' | 'class' | 'constant' | 'object' | 'interface' | 'module';

export interface OutlineSymbol {
  name: string;
  detail?: string;
  kind: SymbolKindName;
  range: Range;
  selectionRange: Range;
  children?: OutlineSymbol[];
}

export interface WorkspaceSymbolEntry {
  name: string;
  kind: SymbolKindName;
  location: Location;
  containerName?: string;
}

export interface Lens {
  range: Range;
  command?: { title: string; command: string; arguments?: unknown[] };
}

export interface InlayHintEntry {
  position: Position;
  label: string;
  kind?: 'parameter' | 'type';
  paddingLeft?: boolean;
  paddingRight?: boolean;
  tooltip?: Markdown | string;
}
