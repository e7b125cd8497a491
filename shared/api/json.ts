/**
 * JSON as Forgejo writes it, read and written without losing an int64: a limit of
 * 9,223,372,036,854,775,807 is a JSON number, which `JSON.parse` would round. Integers a number
 * holds exactly stay numbers; larger ones become bigints (and are written back as plain digits).
 */
import { isInteger, parse, stringify } from 'lossless-json';

/** lossless-json's number hook: a number while exact, a bigint for a larger integer, a number for the rest. */
function parseExactNumber(text: string): number | bigint {
  if (isInteger(text)) {
    const value = Number(text);
    return Number.isSafeInteger(value) ? value : BigInt(text);
  }
  return Number(text);
}

/** Parses like Go's encoding/json, but keeps every integer exact. Throws SyntaxError on invalid JSON. */
export function parseJsonExact(text: string): unknown {
  try {
    return parse(text, null, parseExactNumber);
  } catch (error) {
    // lossless-json refuses a key given twice with different values; Go (and JSON.parse) keep the
    // last one. Such a body is read as Go reads it, then only its integers beyond 2^53 are inexact.
    if (error instanceof Error && /^Duplicate key/.test(error.message)) return JSON.parse(text);
    throw error instanceof SyntaxError ? error : new SyntaxError(error instanceof Error ? error.message : String(error));
  }
}

/** `JSON.stringify` that writes bigints as unquoted digits. */
export function stringifyJsonExact(value: unknown, indentation?: number): string {
  return stringify(value, undefined, indentation) ?? 'null';
}

/** How a bigint crosses a plain-JSON channel (the language server protocol): its digits, tagged. */
interface WireInt64 {
  $int64: string;
}

const isWireInt64 = (value: object): value is WireInt64 => {
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === '$int64' && typeof (value as WireInt64).$int64 === 'string' && /^-?[0-9]+$/.test((value as WireInt64).$int64);
};

/**
 * The value as the language server protocol carries it, exactly: every bigint (a limit or a usage
 * beyond 2^53) as `{"$int64": "<digits>"}`; `fromWire` on the other side gives the bigint back.
 * Both ends keep one type: only the wire sees the tagged form.
 */
export function toWire<T>(value: T): T {
  if (typeof value === 'bigint') return { $int64: value.toString() } satisfies WireInt64 as T;
  if (Array.isArray(value)) return value.map(toWire) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toWire(item)])) as T;
}

/** The value `toWire` sent, its bigints exact again. */
export function fromWire<T>(value: T): T {
  if (Array.isArray(value)) return value.map(fromWire) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (isWireInt64(value)) return BigInt(value.$int64) as T;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fromWire(item)])) as T;
}
