/**
 * Byte sizes as written in quota files: a whole number of bytes, or a size
 * string such as `2k` (2000), `3G` (3·10⁹), `3GiB` (3·2³⁰), `"1 GiB"`; `-1` means unlimited.
 * Decimal units are powers of 1000 and binary units (`Ki`, `KiB`, …) powers of 1024, as
 * Forgejo's humanized sizes; unit letters are case-insensitive.
 */
import * as l10n from '@vscode/l10n';
import { typeName } from '../json/words';

export const UNLIMITED = -1;

const DECIMAL: Record<string, number> = { k: 1e3, m: 1e6, g: 1e9, t: 1e12, p: 1e15, e: 1e18 };
const BINARY_EXPONENT: Record<string, number> = { k: 10, m: 20, g: 30, t: 40, p: 50, e: 60 };

/** The shape of a size string; the JSON Schema uses the same pattern (tested to agree). */
export const SIZE_STRING_PATTERN = '^\\s*-?[0-9]+(\\.[0-9]+)?\\s*([kKmMgGtTpPeE]([iI])?[bB]?|[bB])?\\s*$';
const SIZE_RE = /^\s*(-?)([0-9]+(?:\.[0-9]+)?)\s*(?:([kKmMgGtTpPeE])([iI])?[bB]?|[bB])?\s*$/;

export type SizeResult = { ok: true; bytes: number } | { ok: false; error: string };

/** Parses a size value from a file or a prompt. Never throws. */
export function parseSize(value: unknown): SizeResult {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || !Number.isInteger(value)) {
      return { ok: false, error: l10n.t('{0} is not a whole number of bytes', String(value)) };
    }
    if (!Number.isSafeInteger(value)) return { ok: false, error: tooLarge(String(value)) };
    return { ok: true, bytes: value };
  }
  if (typeof value !== 'string') {
    return { ok: false, error: l10n.t('a size must be a number of bytes or a string such as "1 GiB", not {0}', describe(value)) };
  }
  const match = SIZE_RE.exec(value);
  if (!match) {
    return {
      ok: false,
      error: l10n.t('"{0}" is not a size: write bytes (500), a decimal unit (2k, 3G, 10 MB) or a binary unit (3GiB, "1 GiB"); -1 means unlimited', value),
    };
  }
  const [, sign, digits, unit, binary] = match;
  const multiplier = unit ? (binary ? 2 ** BINARY_EXPONENT[unit.toLowerCase()] : DECIMAL[unit.toLowerCase()]) : 1;
  const magnitude = Number(digits) * multiplier;
  if (!Number.isInteger(magnitude) && !unit) {
    return { ok: false, error: l10n.t('{0} is not a whole number of bytes', `"${value}"`) };
  }
  const bytes = Math.floor(magnitude) * (sign ? -1 : 1);
  if (!Number.isSafeInteger(bytes)) return { ok: false, error: tooLarge(`"${value}"`) };
  return { ok: true, bytes: bytes === 0 ? 0 : bytes };
}

/** What a value that is not a size is: "null", "an array", "a boolean" (and "a object", as it has always said). */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return typeName('array');
  return l10n.t('a {0}', typeof value);
}

function tooLarge(what: string): string {
  return l10n.t('{0} is too large: sizes up to {1} bytes (8 PiB) are supported', what, String(Number.MAX_SAFE_INTEGER));
}

const BINARY_UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/**
 * Human form for display: `unlimited`, `512 B`, `300 MiB`, `1.5 GiB` (at most two decimals).
 * A bigint (a limit beyond 2^53) is rounded only in the unit's two decimals.
 */
export function formatSize(exact: number | bigint): string {
  if (exact === UNLIMITED || exact === -1n) return l10n.t('unlimited');
  const bytes = Number(exact);
  const negative = bytes < 0;
  let magnitude = Math.abs(bytes);
  if (magnitude < 1024) return `${bytes} B`;
  let unit = -1;
  while (magnitude >= 1024 && unit < BINARY_UNITS.length - 1) {
    magnitude /= 1024;
    unit++;
  }
  const rounded = Math.round(magnitude * 100) / 100;
  return `${negative ? '-' : ''}${rounded} ${BINARY_UNITS[unit]}`;
}

/**
 * Exact form for writing back into files: the largest binary unit that divides the value
 * (`3 GiB`), else the plain byte count. `parseSize(formatSizeExact(n)) === n` for every safe integer.
 */
export function formatSizeExact(exact: number | bigint): string | number {
  if (typeof exact === 'bigint') {
    // Beyond 2^53: the largest binary unit that divides it, else the digits as a string (JSON cannot hold the number exactly).
    for (let unit = BINARY_UNITS.length - 1; unit >= 0; unit--) {
      const factor = 1n << BigInt(10 * (unit + 1));
      if (exact > 0n && exact % factor === 0n) return `${exact / factor} ${BINARY_UNITS[unit]}`;
    }
    return exact.toString();
  }
  const bytes = exact;
  if (bytes <= 0 || !Number.isSafeInteger(bytes)) return bytes;
  for (let unit = BINARY_UNITS.length - 1; unit >= 0; unit--) {
    const factor = 2 ** (10 * (unit + 1));
    if (bytes % factor === 0) return `${bytes / factor} ${BINARY_UNITS[unit]}`;
  }
  return bytes;
}

/** `1073741824 bytes (1 GiB)` — used by hovers and messages; the byte count is exact, also beyond 2^53. */
export function describeSize(bytes: number | bigint): string {
  if (bytes === UNLIMITED || bytes === -1n) return l10n.t('unlimited (-1)');
  const human = formatSize(bytes);
  return Math.abs(Number(bytes)) < 1024 ? l10n.t('{0} bytes', String(bytes)) : l10n.t('{0} bytes ({1})', String(bytes), human);
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const EXACT_DECIMAL: Record<string, bigint> = { k: 10n ** 3n, m: 10n ** 6n, g: 10n ** 9n, t: 10n ** 12n, p: 10n ** 15n, e: 10n ** 18n };

export type ExactSizeResult = { ok: true; bytes: number | bigint } | { ok: false; error: string };

/**
 * A limit as Forgejo stores it, an int64: like `parseSize`, but beyond 2^53 the bytes are an exact
 * bigint (up to 9,223,372,036,854,775,807) instead of an error. `rawNumber` is the number token as
 * written in the file, since the parsed JSON number has already lost the digits past 2^53.
 */
export function parseSizeExact(value: unknown, rawNumber?: string): ExactSizeResult {
  // Within 2^53 the answer is parseSize's, so hovers and limits agree to the byte.
  const simple = parseSize(value);
  if (simple.ok) return simple;
  const exact = exactInteger(value, rawNumber);
  if (exact === undefined) return simple;
  if (exact < INT64_MIN || exact > INT64_MAX) {
    return {
      ok: false,
      error: l10n.t('{0} is beyond int64: Forgejo stores a limit as a 64-bit integer, at most 9223372036854775807 bytes', typeof value === 'string' ? `"${value}"` : (rawNumber ?? String(value))),
    };
  }
  const asNumber = Number(exact);
  return { ok: true, bytes: Number.isSafeInteger(asNumber) ? asNumber : exact };
}

/** The exact integer a number token or a size string stands for; undefined when it is not one. */
function exactInteger(value: unknown, rawNumber?: string): bigint | undefined {
  if (typeof value === 'number') {
    const raw = rawNumber?.trim();
    return raw !== undefined && /^-?[0-9]+$/.test(raw) ? BigInt(raw) : undefined;
  }
  if (typeof value !== 'string') return undefined;
  const match = SIZE_RE.exec(value);
  if (!match) return undefined;
  const [, sign, digits, unit, binary] = match;
  const [whole, fraction = ''] = digits.split('.');
  if (fraction && !unit) return undefined; // "1.5" bytes is not whole: parseSize says so
  const multiplier = unit ? (binary ? 1n << BigInt(BINARY_EXPONENT[unit.toLowerCase()]) : EXACT_DECIMAL[unit.toLowerCase()]) : 1n;
  // Sizes round down to whole bytes, as parseSize does.
  const magnitude = (BigInt(whole + fraction) * multiplier) / 10n ** BigInt(fraction.length);
  return sign ? -magnitude : magnitude;
}
