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

/**
 * The value with every bigint as the nearest number, for channels that only speak plain JSON
 * (the language server protocol): there a limit beyond 2^53 is only shown or compared, never
 * written back.
 */
export function withPlainNumbers<T>(value: T): T {
  if (typeof value === 'bigint') return Number(value) as T;
  if (Array.isArray(value)) return value.map(withPlainNumbers) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withPlainNumbers(item)])) as T;
}
