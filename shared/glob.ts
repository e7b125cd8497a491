/**
 * Glob matching for the file patterns users write in settings and on the command line, in VS
 * Code's syntax: `*`, `?`, `**`, `{a,b}` (nested too) and `[...]`/`[!...]` classes. Patterns come
 * from workspace settings a cloned repository may set, so matching must never backtrack:
 * glob → RegExp compilers (picomatch, minimatch) turn `*a*a*a…b` into a regular expression that
 * takes exponential time. Braces are expanded by brace-expansion (with its bounds); each
 * alternative is then matched segment by segment with the greedy wildcard algorithm, which is
 * O(pattern × text) for any input.
 */
import { expand } from 'brace-expansion';

/** More alternatives than any file pattern needs; a pattern expanding further matches nothing. */
const MAX_GLOB_ALTERNATIVES = 256;
/** Longer patterns match nothing (they would only cost time). */
const MAX_GLOB_LENGTH = 2048;

const GLOBSTAR = Symbol('**');

/** One character of a segment: a literal, `?`, or a class; `*` is any run within the segment. */
type CharTest = string | ((char: string) => boolean);
type SegmentToken = CharTest | '*';
type Segment = SegmentToken[] | typeof GLOBSTAR;

export interface GlobMatcher {
  /** Whether the whole `/`-separated path matches. */
  test(path: string): boolean;
}

const NOTHING: GlobMatcher = { test: () => false };

export function compileGlob(glob: string): GlobMatcher {
  if (glob.length > MAX_GLOB_LENGTH) return NOTHING;
  let alternatives: string[];
  try {
    alternatives = expand(glob, { max: MAX_GLOB_ALTERNATIVES + 1 });
  } catch {
    return NOTHING;
  }
  if (alternatives.length > MAX_GLOB_ALTERNATIVES) return NOTHING;
  const compiled = [...new Set(alternatives)].map(parsePattern);
  return { test: (path) => compiled.some((segments) => matchPath(segments, path.split('/'))) };
}

function parsePattern(pattern: string): Segment[] {
  const segments: Segment[] = [];
  for (const part of pattern.split('/')) {
    // `**` alone is any number of whole segments; repeated ones add nothing.
    if (part === '**') {
      if (segments[segments.length - 1] !== GLOBSTAR) segments.push(GLOBSTAR);
    } else segments.push(parseSegment(part));
  }
  return segments;
}

function parseSegment(part: string): SegmentToken[] {
  const tokens: SegmentToken[] = [];
  const chars = Array.from(part);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c === '*') {
      if (tokens[tokens.length - 1] !== '*') tokens.push('*');
    } else if (c === '?') tokens.push(() => true);
    else if (c === '[') {
      const parsed = parseClass(chars, i);
      if (parsed) {
        tokens.push(parsed.test);
        i = parsed.end;
      } else tokens.push(c);
    } else tokens.push(c);
  }
  return tokens;
}

/** A `[...]` class starting at `start`; undefined when it is not closed (then `[` is literal). */
function parseClass(chars: string[], start: number): { test: (char: string) => boolean; end: number } | undefined {
  let i = start + 1;
  const negated = chars[i] === '!' || chars[i] === '^';
  if (negated) i++;
  const ranges: Array<[string, string]> = [];
  // A `]` right after the opening (or the negation) is a member, as in shells.
  for (let first = true; i < chars.length && (first || chars[i] !== ']'); i++, first = false) {
    if (chars[i + 1] === '-' && chars[i + 2] !== undefined && chars[i + 2] !== ']') {
      ranges.push([chars[i], chars[i + 2]]);
      i += 2;
    } else ranges.push([chars[i], chars[i]]);
  }
  if (i >= chars.length) return undefined;
  const test = (char: string) => ranges.some(([low, high]) => char >= low && char <= high) !== negated;
  return { test, end: i };
}

/**
 * The greedy wildcard match: on a mismatch, only the most recent star takes one more unit. Any
 * other token matches exactly one unit, so that single backtrack point is enough, and the cost is
 * at most units × tokens. Used twice: characters within a segment, segments within a path.
 */
function greedyMatch<T, U>(tokens: readonly T[], units: readonly U[], isStar: (token: T) => boolean, matchesOne: (token: T, unit: U) => boolean): boolean {
  let t = 0;
  let u = 0;
  let starToken = -1;
  let starUnit = 0;
  while (u < units.length) {
    if (t < tokens.length && isStar(tokens[t])) {
      starToken = t++;
      starUnit = u;
    } else if (t < tokens.length && matchesOne(tokens[t], units[u])) {
      t++;
      u++;
    } else if (starToken >= 0) {
      t = starToken + 1;
      u = ++starUnit;
    } else return false;
  }
  while (t < tokens.length && isStar(tokens[t])) t++;
  return t === tokens.length;
}

const isStarToken = (token: SegmentToken) => token === '*';
const matchesChar = (token: SegmentToken, char: string) => (typeof token === 'function' ? token(char) : token === char);

function matchSegment(tokens: SegmentToken[], name: string): boolean {
  return greedyMatch(tokens, Array.from(name), isStarToken, matchesChar);
}

const isGlobstar = (segment: Segment) => segment === GLOBSTAR;

function matchPath(segments: Segment[], names: string[]): boolean {
  return greedyMatch(segments, names, isGlobstar, (segment, name) => segment !== GLOBSTAR && matchSegment(segment, name));
}
