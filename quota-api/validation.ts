/**
 * Request validation, in two layers because Forgejo answers a wrong shape and a wrong meaning differently:
 * - JSON shape (ajv schemas run by Fastify): a body that is not an object, or a field of the
 *   wrong JSON type → 400.
 * - Meaning (functions below, run by handlers): missing limit, unknown subject, empty name,
 *   a name with `/` → 422 with Forgejo's messages.
 */
import type { ErrorObject, KeywordDefinition } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify/types/schema';
import { canonicalSubject } from '../shared/quota';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../shared/api/types';
import { messages, unprocessable } from './errors';
import { validateName as checkName, type NameKind } from '../shared/names';

/**
 * Limits are int64 in Forgejo, up to 9,223,372,036,854,775,807. Bodies are parsed losslessly
 * (integers beyond 2^53 arrive as bigints), and int64 fields are validated by the `int64` keyword
 * instead of `type`, which ajv applies to numbers only; the documents keep `integer`/`int64`.
 */
const LIMIT_SCHEMA = {
  type: ['integer', 'null'],
  format: 'int64',
} as const;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A schema with every `{type: integer…, format: int64}` replaced by `{int64: true}` (ajv checks types of numbers only). */
export function withInt64Keyword<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withInt64Keyword) as T;
  if (typeof schema !== 'object' || schema === null) return schema;
  const record = schema as Record<string, unknown>;
  if (record.format === 'int64') {
    const { type: _type, format: _format, ...rest } = record;
    return { ...rest, int64: true } as T;
  }
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, withInt64Keyword(value)])) as T;
}

type Int64Check = ((schema: unknown, data: unknown) => boolean) & { errors?: Array<Partial<ErrorObject>> };

/** null, a safe integer, or a bigint within int64. Beyond int64 the error says `range` (Forgejo: 422). */
const validateInt64: Int64Check = (_schema, data) => {
  if (data === null || (typeof data === 'number' && Number.isSafeInteger(data))) return true;
  if (typeof data === 'bigint' && data >= INT64_MIN && data <= INT64_MAX) return true;
  const range = typeof data === 'bigint';
  validateInt64.errors = [{ keyword: 'int64', params: { range }, message: range ? 'is beyond int64' : 'must be integer or null' }];
  return false;
};

export const INT64_KEYWORD: KeywordDefinition = { keyword: 'int64', schemaType: 'boolean', errors: true, validate: validateInt64 as never };

/** The Go struct a route's body is bound to (`modules/structs/quota.go`), for encoding/json's messages. */
const BODY_STRUCTS: Record<string, string> = {
  'POST /api/v1/admin/quota/rules': 'CreateQuotaRuleOptions',
  'PATCH /api/v1/admin/quota/rules/:quotarule': 'EditQuotaRuleOptions',
  'POST /api/v1/admin/quota/groups': 'CreateQuotaGroupOptions',
};

/**
 * A limit beyond int64 is what Forgejo's `bind` answers 422 for: go-chi/binding reports
 * encoding/json's UnmarshalTypeError with no field names, e.g.
 * `[]: json: cannot unmarshal number 9223372036854775808 into Go struct field CreateQuotaRuleOptions.limit of type int64`.
 * (In a group's inline rules the innermost struct is named and the field path joins the JSON
 * names: `CreateQuotaRuleOptions.rules.limit`.) Undefined for any other schema error.
 */
export function int64OverflowMessage(errors: FastifySchemaValidationError[], method: string, route: string | undefined): string | undefined {
  const error = errors[0];
  if (error?.keyword !== 'int64' || !(error.params as { range?: boolean }).range) return undefined;
  const path = error.instancePath.split('/').filter((segment) => segment !== '' && !/^\d+$/.test(segment));
  const nested = path.length > 1;
  const struct = nested ? 'CreateQuotaRuleOptions' : (BODY_STRUCTS[`${method} ${route}`] ?? 'CreateQuotaRuleOptions');
  return `[]: json: cannot unmarshal number ${String((error as { data?: unknown }).data)} into Go struct field ${struct}.${path.join('.')} of type int64`;
}

const SUBJECTS_SCHEMA = { type: ['array', 'null'], items: { type: 'string' } } as const;

const RULE_OPTIONS_SCHEMA = {
  type: 'object',
  properties: { name: { type: ['string', 'null'] }, limit: LIMIT_SCHEMA, subjects: SUBJECTS_SCHEMA },
} as const;

export const bodySchemas = {
  createRule: RULE_OPTIONS_SCHEMA,
  editRule: {
    type: 'object',
    properties: { limit: LIMIT_SCHEMA, subjects: SUBJECTS_SCHEMA },
  },
  createGroup: {
    type: 'object',
    properties: {
      name: { type: ['string', 'null'] },
      rules: { type: ['array', 'null'], items: RULE_OPTIONS_SCHEMA },
    },
  },
  setUserGroups: {
    type: 'object',
    properties: { groups: { type: ['array', 'null'], items: { type: 'string' } } },
  },
} as const;

/**
 * Names of rules and groups: Forgejo only requires non-empty; we apply the project's one name
 * rule (shared/names.ts) and return the name in its canonical (NFC) spelling.
 * `field` is the Go field name Forgejo's binding messages use (`Name`, `Rules[0].Name`).
 */
export function validateName(kind: NameKind, value: string | null | undefined, field = 'Name'): string {
  if (value === undefined || value === null || value.trim() === '') throw unprocessable(messages.required(field));
  const check = checkName(kind, value);
  if (!check.ok) throw unprocessable(`[${field}]: ${check.reason}`);
  return check.name;
}

/** Every subject must be an accepted spelling; they are stored exactly as given. */
export function validateSubjects(subjects: readonly string[] | null | undefined): string[] {
  const list = subjects ?? [];
  for (const subject of list) {
    if (canonicalSubject(subject) === undefined) throw unprocessable(messages.unknownSubject(subject));
  }
  return [...list];
}

/** The `subject` query of `/check`: trimmed, then an accepted spelling; missing → 422 too. */
export function validateCheckSubject(raw: unknown): string {
  const subject = (firstValue(raw) ?? '').trim();
  if (canonicalSubject(subject) === undefined) throw unprocessable(messages.unknownSubject(subject));
  return subject;
}

/** A repeated query parameter counts by its first value, as Go's `FormValue` does. */
export function firstValue(raw: unknown): string | undefined {
  if (Array.isArray(raw)) return raw.length > 0 ? String(raw[0]) : undefined;
  return typeof raw === 'string' ? raw : undefined;
}

export interface Paging {
  page: number;
  limit: number;
}

/** Go's `ctx.FormInt`: an integer in decimal, anything else (absent, empty, words, overflow) is 0. */
function formInt(raw: unknown): number {
  const value = firstValue(raw);
  if (value === undefined || !/^[+-]?\d+$/.test(value)) return 0;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : 0;
}

/** As Forgejo's GetListOptions: `page` ≤0 → 1; `limit` ≤0 → 30, above 50 → 50. Never an error. */
export function parsePaging(query: Record<string, unknown>): Paging {
  const page = formInt(query.page);
  const limit = formInt(query.limit);
  return {
    page: page <= 0 ? 1 : page,
    limit: limit <= 0 ? DEFAULT_PAGE_LIMIT : Math.min(limit, MAX_PAGE_LIMIT),
  };
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `a string`;
  if (typeof value === 'number') return Number.isInteger(value) ? `the number ${value}` : `the non-integer ${value}`;
  return `a ${typeof value}`;
}

/** One readable message for the first schema error, e.g. `[limit]: must be integer or null, not a string`. */
export function formatSchemaErrors(errors: FastifySchemaValidationError[]): string {
  const error = errors[0];
  if (!error) return 'invalid request body';
  const field = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : 'body';
  const data = (error as { data?: unknown }).data;
  if (error.keyword === 'type') {
    const expected = ([] as string[]).concat((error.params as { type: string | string[] }).type).join(' or ');
    const wanted = field === 'body' ? 'a JSON object' : expected.replace('object', 'a JSON object');
    return `[${field}]: must be ${wanted}, not ${describeValue(data)}`;
  }
  if (error.keyword === 'int64') return `[${field}]: must be integer or null, not ${describeValue(data)}`;
  return `[${field}]: ${error.message ?? 'is invalid'}`;
}
