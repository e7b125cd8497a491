/**
 * A bound on how deeply a JSON(C) document may nest before the analyses read it. Parsers,
 * schema validators and the editor features walk trees recursively; rather than trusting every
 * one of them with any depth, each container opened past the bound is blanked out (its content
 * becomes spaces, line breaks kept) so offsets and lines stay true and the rest of the document
 * is analysed as usual, with one located diagnostic per refused container.
 */
import * as l10n from '@vscode/l10n';
import type { Span } from '../diagnostics';

/** Deeper than any hand-written or generated config or state in practice, far below any stack limit. */
export const MAX_NESTING_DEPTH = 256;

export interface NestingLimit {
  /** The text to parse: the original when within the bound, otherwise the same length with deep content blanked. */
  text: string;
  /** The opening bracket of each container refused for being nested too deeply. */
  tooDeep: Span[];
}

export function nestingMessage(max = MAX_NESTING_DEPTH): string {
  return l10n.t('The document is nested deeper than {0} levels; what lies deeper is not analysed', max);
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const STAR = 0x2a;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** The next character that can change the depth or start a string or comment. */
const STRUCTURAL = /["{}[\]/]/g;
/** What ends a string (a line break ends it too, as jsonc-parser reads broken text), or escapes. */
const STRING_STOP = /["\\\r\n]/g;

/** One linear pass that skips strings and comments, as jsonc-parser's scanner reads them. */
export function limitNesting(text: string, max = MAX_NESTING_DEPTH): NestingLimit {
  const tooDeep: Span[] = [];
  const pieces: string[] = [];
  let copiedUpTo = 0;
  let depth = 0;
  let blankingFrom = -1;
  let blankDepth = 0;
  const length = text.length;
  // Native regular-expression searches jump over string contents and plain values: most of a large file.
  STRUCTURAL.lastIndex = 0;
  for (let found = STRUCTURAL.exec(text); found !== null; found = STRUCTURAL.exec(text)) {
    let i = found.index;
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      STRING_STOP.lastIndex = i + 1;
      for (;;) {
        const stop = STRING_STOP.exec(text);
        if (stop === null) {
          i = length;
          break;
        }
        const s = text.charCodeAt(stop.index);
        if (s === BACKSLASH) STRING_STOP.lastIndex = stop.index + 2;
        else {
          i = s === QUOTE ? stop.index : stop.index - 1;
          break;
        }
      }
    } else if (c === SLASH && text.charCodeAt(i + 1) === SLASH) {
      while (i + 1 < length && text.charCodeAt(i + 1) !== NEWLINE && text.charCodeAt(i + 1) !== RETURN) i++;
    } else if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? length : end + 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
      if (depth > max && blankingFrom === -1) {
        tooDeep.push({ offset: i, length: 1 });
        blankingFrom = i + 1;
        blankDepth = depth;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (blankingFrom !== -1 && depth === blankDepth) {
        pieces.push(text.slice(copiedUpTo, blankingFrom), blank(text.slice(blankingFrom, i)));
        copiedUpTo = i;
        blankingFrom = -1;
      }
      if (depth > 0) depth--;
    }
    STRUCTURAL.lastIndex = i + 1;
  }
  if (tooDeep.length === 0) return { text, tooDeep };
  if (blankingFrom !== -1) {
    pieces.push(text.slice(copiedUpTo, blankingFrom), blank(text.slice(blankingFrom)));
    copiedUpTo = length;
  }
  pieces.push(text.slice(copiedUpTo));
  return { text: pieces.join(''), tooDeep };
}

/** Spaces for every character but line breaks, so lines and offsets are unchanged. */
function blank(content: string): string {
  return content.replace(/[^\r\n]/g, ' ');
}

/**
 * Whether a parsed value nests deeper than `max` (an iterative walk): `JSON.parse` reads any
 * depth, so text it accepted needs the blanking pass only when this is true.
 */
export function valueDeeperThan(value: unknown, max = MAX_NESTING_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const containers: object[] = [value];
  const depths: number[] = [1];
  while (containers.length > 0) {
    const container = containers.pop()!;
    const depth = depths.pop()!;
    if (depth > max) return true;
    if (Array.isArray(container)) {
      for (let i = 0; i < container.length; i++) {
        const child: unknown = container[i];
        if (typeof child === 'object' && child !== null) {
          containers.push(child);
          depths.push(depth + 1);
        }
      }
    } else {
      for (const key in container) {
        const child: unknown = (container as Record<string, unknown>)[key];
        if (typeof child === 'object' && child !== null) {
          containers.push(child);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}
