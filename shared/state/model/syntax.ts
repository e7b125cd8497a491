/**
 * Tolerant parsing for text `JSON.parse` refused: jsonc-parser's tree, its errors as located
 * messages, and whatever value could be recovered. Used for a whole document, or for one
 * resource record whose edit broke the syntax while the rest of the document stayed valid.
 */
import * as l10n from '@vscode/l10n';
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Span } from '../../diagnostics';
import { parseErrorWords } from '../../json/words';

export interface SyntaxError {
  span: Span;
  message: string;
}

export interface TolerantParse {
  tree: Node | undefined;
  /** The recovered value; undefined when nothing parsed (or it nests too deeply to build). */
  value: unknown;
  errors: SyntaxError[];
}

const emptyStateMessage = () =>
  l10n.t('The file is empty: a state file is a JSON object such as the output of `pulumi stack export`: {0}', '{ "version": 3, "deployment": { "manifest": { … }, "resources": [] } }');

const OPTIONS = { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false };

/** The tolerant parse of a whole document; `reason` is JSON.parse's error, for text only it refuses. */
export function parseTolerant(text: string, reason: string): TolerantParse {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, OPTIONS);
  // An empty file is a file not yet written, not a broken one: say what belongs in it.
  if (text.trim() === '') return { tree, value: undefined, errors: [{ span: { offset: 0, length: 0 }, message: emptyStateMessage() }] };
  const syntax = oneErrorPerMistake(errors, text.length).map(toSyntaxError);
  // jsonc-parser accepted what JSON.parse refused (e.g. a byte-order mark): report JSON.parse's reason.
  if (!syntax.length) syntax.push({ span: { offset: 0, length: 1 }, message: l10n.t('JSON syntax error: {0}', reason) });
  return { tree, value: tree ? safeNodeValue(tree) : undefined, errors: syntax };
}

/**
 * The tolerant parse of one array element's text, when it is self-contained: its value ends
 * exactly at the text's last character and every error lies before that. The parser decides
 * from the tokens it has read, and the tokens of the element are the same alone as in the
 * whole document, so the whole document's tolerant parse would read this element the same way
 * and then carry on exactly as before. Undefined when that cannot be guaranteed.
 */
export function parseTolerantElement(text: string): TolerantParse | undefined {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, OPTIONS);
  if (!tree || tree.offset !== 0 || tree.length !== text.length || !errors.length) return undefined;
  if (errors.some((error) => error.offset >= text.length)) return undefined;
  const value = safeNodeValue(tree);
  if (value === undefined) return undefined;
  return { tree, value, errors: oneErrorPerMistake(errors, text.length).map(toSyntaxError) };
}

/**
 * One mistake, one diagnostic. jsonc-parser reports a cut file's mistake, then every closer it misses
 * at the end of the text (three "closing brace expected" for three open objects), and sometimes two
 * errors at one offset: those are consequences, and repeating them buries the cause.
 */
function oneErrorPerMistake(errors: ParseError[], textLength: number): ParseError[] {
  const offsets = new Set<number>();
  return errors.filter((error, index) => {
    if (offsets.has(error.offset)) return false;
    offsets.add(error.offset);
    return index === 0 || error.offset < textLength;
  });
}

function toSyntaxError(error: ParseError): SyntaxError {
  return { span: { offset: error.offset, length: Math.max(error.length, 1) }, message: l10n.t('JSON syntax error: {0}', parseErrorWords(printParseErrorCode(error.error), 'json')) };
}

function safeNodeValue(tree: Node): unknown {
  try {
    return getNodeValue(tree);
  } catch {
    return undefined; // pathologically deep input: report syntax only
  }
}
