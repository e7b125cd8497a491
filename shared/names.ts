/**
 * The one rule for names of quota rules, groups, users and organizations, used by the API
 * server, the quota files and the client prompts alike, so a name accepted in one place is
 * accepted everywhere and two names that look the same are the same name.
 *
 * - The name must be valid Unicode text: a lone UTF-16 surrogate cannot be stored as UTF-8
 *   and could never be addressed again.
 * - Control characters, invisible formatting characters (zero-width spaces and joiners, the
 *   byte-order mark, bidirectional overrides and isolates) and line/paragraph separators are
 *   refused: they make a name look like another one.
 * - Leading or trailing white space is refused rather than trimmed: a name typed in a URL or
 *   a file must address exactly the thing it names, and silently trimming would make
 *   `" ci"` and `"ci"` the same thing in one place and different things in another.
 * - Canonically equivalent spellings (NFC and NFD) are one name: the name is returned in NFC,
 *   and every lookup normalises the same way.
 * - `/` is refused because names are path segments of the API.
 */
import * as l10n from '@vscode/l10n';

export type NameKind = 'rule' | 'group' | 'user' | 'organization';

/** Longest accepted name, in code points. */
const MAX_NAME_LENGTH = 255;

export type NameCheck = { ok: true; name: string } | { ok: false; reason: string };

// Cc: control characters; Cf: format characters (ZWSP/ZWJ/ZWNJ, BOM, LRM/RLM, bidi embeddings,
// overrides and isolates, soft hyphen…); Zl/Zp: line and paragraph separators.
const HIDDEN_OR_CONTROL = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

function describeCodePoint(char: string): string {
  const hex = char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
  const known: Record<string, string> = {
    '200B': 'ZERO WIDTH SPACE',
    '200C': 'ZERO WIDTH NON-JOINER',
    '200D': 'ZERO WIDTH JOINER',
    '200E': 'LEFT-TO-RIGHT MARK',
    '200F': 'RIGHT-TO-LEFT MARK',
    '202A': 'LEFT-TO-RIGHT EMBEDDING',
    '202B': 'RIGHT-TO-LEFT EMBEDDING',
    '202C': 'POP DIRECTIONAL FORMATTING',
    '202D': 'LEFT-TO-RIGHT OVERRIDE',
    '202E': 'RIGHT-TO-LEFT OVERRIDE',
    '2066': 'LEFT-TO-RIGHT ISOLATE',
    '2067': 'RIGHT-TO-LEFT ISOLATE',
    '2068': 'FIRST STRONG ISOLATE',
    '2069': 'POP DIRECTIONAL ISOLATE',
    FEFF: 'BYTE ORDER MARK',
  };
  return known[hex] ? `U+${hex} ${known[hex]}` : `U+${hex}`;
}

/** Where the first lone surrogate sits (UTF-16 index), or -1. */
function loneSurrogateIndex(value: string): number {
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      return i;
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) return i;
  }
  return -1;
}

/**
 * Checks a name and returns it in its canonical (NFC) spelling, or a reason that names the
 * kind of thing, e.g. `a rule name must not contain U+202E RIGHT-TO-LEFT OVERRIDE (at character 3)`.
 */
/** "a rule name": the subject of the reasons. */
function nameOf(kind: NameKind): string {
  switch (kind) {
    case 'rule':
      return l10n.t('a rule name');
    case 'group':
      return l10n.t('a group name');
    case 'user':
      return l10n.t('a user name');
    case 'organization':
      return l10n.t('a organization name');
  }
}

export function validateName(kind: NameKind, value: unknown): NameCheck {
  const what = nameOf(kind);
  if (typeof value !== 'string' || value === '') return { ok: false, reason: l10n.t('{0} is required', what) };
  const surrogate = loneSurrogateIndex(value);
  if (surrogate !== -1) {
    return { ok: false, reason: l10n.t('{0} must be valid Unicode text: it has a lone surrogate (at character {1})', what, surrogate + 1) };
  }
  if (value.trim() === '') return { ok: false, reason: l10n.t('{0} must not be only white space', what) };
  const chars = [...value];
  const hiddenAt = chars.findIndex((char) => HIDDEN_OR_CONTROL.test(char));
  if (hiddenAt !== -1) {
    const reason = /\p{Cc}/u.test(chars[hiddenAt])
      ? l10n.t('{0} must not contain the control character {1} (at character {2})', what, describeCodePoint(chars[hiddenAt]), hiddenAt + 1)
      : l10n.t('{0} must not contain the invisible character {1} (at character {2})', what, describeCodePoint(chars[hiddenAt]), hiddenAt + 1);
    return { ok: false, reason };
  }
  if (/^\s|\s$/u.test(value)) return { ok: false, reason: l10n.t('{0} must not begin or end with white space', what) };
  if (value.includes('/')) return { ok: false, reason: l10n.t('{0} must not contain "/" (names are part of the API\'s URLs)', what) };
  const name = value.normalize('NFC');
  if ([...name].length > MAX_NAME_LENGTH) {
    return { ok: false, reason: l10n.t('{0} must be at most {1} characters long', what, MAX_NAME_LENGTH) };
  }
  return { ok: true, name };
}

/** The spelling under which a name is stored and looked up: NFC, so NFD spellings find the same thing. */
export function canonicalName(value: string): string {
  return loneSurrogateIndex(value) === -1 ? value.normalize('NFC') : value;
}

/** The reason a name is refused, or undefined when it is accepted (for input boxes). */
export function nameProblem(kind: NameKind, value: string): string | undefined {
  const check = validateName(kind, value);
  if (check.ok) return undefined;
  return check.reason.charAt(0).toUpperCase() + check.reason.slice(1) + '.';
}
