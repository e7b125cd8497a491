/**
 * How Forgejo turns the quota settings' strings into values, restated from the Go code it runs:
 * go-ini's boolean and comma-list readers, Go's `strconv.ParseInt(s, 0, 64)` (how older servers
 * read `[quota.default] TOTAL`) and go-humanize's `ParseBytes` (how newer servers read it).
 */
import * as l10n from '@vscode/l10n';

/** go-ini's `parseBool`: the exact spellings it accepts; anything else is not a boolean. */
const TRUE_WORDS = ['1', 't', 'T', 'true', 'TRUE', 'True', 'YES', 'yes', 'Yes', 'y', 'ON', 'on', 'On'];
const FALSE_WORDS = ['0', 'f', 'F', 'false', 'FALSE', 'False', 'NO', 'no', 'No', 'n', 'OFF', 'off', 'Off'];

export function parseGoIniBool(value: string): boolean | undefined {
  if (TRUE_WORDS.includes(value)) return true;
  if (FALSE_WORDS.includes(value)) return false;
  return undefined;
}

export interface ListItem {
  value: string;
  /** Offset of the item's first character inside the list string (after trimming). */
  offset: number;
}

/**
 * go-ini's `Key.Strings(",")`: split at commas (a backslash escapes a comma), trim each item;
 * an empty string gives no items, and a trailing comma adds none.
 */
export function splitGoIniList(value: string, delimiter = ','): ListItem[] {
  const items: ListItem[] = [];
  if (value.length === 0) return items;
  let buffer = '';
  let bufferStart = 0;
  // Offsets of buffer characters in `value`, so trimmed items keep their position.
  let positions: number[] = [];
  let escape = false;
  const flush = () => {
    let from = 0;
    let to = buffer.length;
    while (from < to && /\s/.test(buffer[from])) from++;
    while (to > from && /\s/.test(buffer[to - 1])) to--;
    items.push({ value: buffer.slice(from, to), offset: from < positions.length ? positions[from] : bufferStart });
  };
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (escape) {
      escape = false;
      if (c !== '\\' && !value.startsWith(delimiter, i)) {
        buffer += '\\';
        positions.push(i - 1);
      }
      buffer += c;
      positions.push(i);
    } else if (c === '\\') {
      escape = true;
    } else if (value.startsWith(delimiter, i)) {
      i += delimiter.length - 1;
      flush();
      buffer = '';
      positions = [];
      bufferStart = i + 1;
    } else {
      buffer += c;
      positions.push(i);
    }
  }
  if (buffer.length > 0) flush();
  return items;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Go's `strconv.ParseInt(s, 0, 64)`: optional sign, then `0x`/`0o`/`0b` prefixes, a leading `0`
 * for octal, `_` between digits. Undefined when Go would return an error (syntax or range).
 */
function parseGoInt64(value: string): bigint | undefined {
  let s = value;
  let negative = false;
  if (s[0] === '+' || s[0] === '-') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  let base = 10;
  let digits = s;
  let prefixed = false;
  if (s.length >= 2 && s[0] === '0' && /[xXoObB]/.test(s[1])) {
    base = { x: 16, o: 8, b: 2 }[s[1].toLowerCase() as 'x' | 'o' | 'b'];
    digits = s.slice(2);
    prefixed = true;
  } else if (s.length >= 2 && s[0] === '0') {
    base = 8;
    digits = s.slice(1);
    prefixed = true;
  }
  // Underscores only between digits, or between a base prefix and a digit.
  if (digits.length === 0 || digits.endsWith('_') || digits.includes('__') || (!prefixed && digits.startsWith('_'))) return undefined;
  const plain = digits.replace(/_/g, '');
  if (plain.length === 0) return undefined;
  const alphabet = '0123456789abcdef'.slice(0, base);
  let result = 0n;
  for (const c of plain.toLowerCase()) {
    const digit = alphabet.indexOf(c);
    if (digit === -1) return undefined;
    result = result * BigInt(base) + BigInt(digit);
  }
  if (negative) result = -result;
  return result < INT64_MIN || result > INT64_MAX ? undefined : result;
}

/** go-humanize's unit table: IEC units are powers of 1024, SI units powers of 1000, case-insensitive. */
const UNIT_FACTORS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1e3,
  kb: 1e3,
  ki: 2 ** 10,
  kib: 2 ** 10,
  m: 1e6,
  mb: 1e6,
  mi: 2 ** 20,
  mib: 2 ** 20,
  g: 1e9,
  gb: 1e9,
  gi: 2 ** 30,
  gib: 2 ** 30,
  t: 1e12,
  tb: 1e12,
  ti: 2 ** 40,
  tib: 2 ** 40,
  p: 1e15,
  pb: 1e15,
  pi: 2 ** 50,
  pib: 2 ** 50,
  e: 1e18,
  eb: 1e18,
  ei: 2 ** 60,
  eib: 2 ** 60,
};

type BytesResult = { ok: true; bytes: bigint } | { ok: false; reason: string };

/**
 * go-humanize `ParseBytes`: leading digits, dots and commas (commas dropped) as a float, then an
 * optional unit after optional spaces. Float arithmetic as in Go, so results match bit for bit.
 */
function parseGoHumanBytes(value: string): BytesResult {
  let end = 0;
  while (end < value.length && /[0-9.,]/.test(value[end])) end++;
  const number = value.slice(0, end).replace(/,/g, '');
  if (!/^(?:[0-9]+\.?[0-9]*|\.[0-9]+)$/.test(number)) return { ok: false, reason: l10n.t('it does not start with a number') };
  const unit = value.slice(end).trim().toLowerCase();
  const factor = UNIT_FACTORS[unit];
  if (factor === undefined) return { ok: false, reason: l10n.t('"{0}" is not a size unit', value.slice(end).trim()) };
  const bytes = Number.parseFloat(number) * factor;
  if (bytes >= 2 ** 64) return { ok: false, reason: l10n.t('it is too large') };
  return { ok: true, bytes: BigInt(Math.trunc(bytes)) };
}

/** How a `[quota.default] TOTAL` string comes out on a newer Forgejo (`mustBytes`): −1 for anything it cannot use. */
export function newerServerTotal(value: string): { bytes: bigint; reason?: string } {
  if (value === '' || value === '-1') return { bytes: -1n };
  if (value.startsWith('-')) return { bytes: -1n, reason: l10n.t('it is negative') };
  const parsed = parseGoHumanBytes(value);
  if (!parsed.ok) return { bytes: -1n, reason: parsed.reason };
  if (parsed.bytes > INT64_MAX) return { bytes: -1n, reason: l10n.t('it is larger than the largest 64-bit limit') };
  return { bytes: parsed.bytes };
}

/** How a `[quota.default] TOTAL` string comes out on an older Forgejo: an int64, or ignored (the default −1 stays). */
export function olderServerTotal(value: string): bigint | undefined {
  return parseGoInt64(value);
}
