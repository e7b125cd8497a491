/**
 * Failures of the quota API turned into sentences a person understands. The message names what
 * was being done, the server, and what the server said; it never contains the token (the client
 * sends it only in a header, and nothing here reads headers).
 */
import { isAPIError } from './types';

export type QuotaApiFailureKind =
  | 'unauthorized' // 401: no or bad credentials → offer Sign In
  | 'forbidden' // 403: signed in, but not allowed (not a site administrator on admin routes)
  | 'not-found' // 404
  | 'conflict' // 409: already exists / already a member
  | 'validation' // 422: the server's message says what was wrong
  | 'bad-request' // 400
  | 'server' // 5xx and other unexpected statuses
  | 'network' // could not connect
  | 'timeout'
  | 'cancelled'
  | 'invalid-response'; // 2xx but not the JSON the endpoint promises

export interface QuotaApiFailure {
  kind: QuotaApiFailureKind;
  /** What was being attempted, as a phrase: `create the rule "repos-1g"`. */
  action: string;
  /** The request URL (never carries credentials). */
  url: string;
  /** The API base URL, used to name the server. */
  server: string;
  status?: number;
  /** The `message` of a Forgejo error body, when there was one. */
  serverMessage?: string;
  /** Low-level cause of a network failure. */
  cause?: string;
  timeoutMs?: number;
}

export class QuotaApiError extends Error {
  readonly kind: QuotaApiFailureKind;
  readonly status: number | undefined;
  readonly serverMessage: string | undefined;
  readonly url: string;
  readonly server: string;

  constructor(failure: QuotaApiFailure) {
    super(describeFailure(failure));
    this.name = 'QuotaApiError';
    this.kind = failure.kind;
    this.status = failure.status;
    this.serverMessage = failure.serverMessage;
    this.url = failure.url;
    this.server = failure.server;
  }

  /** True when signing in (again) is the way out. */
  get needsSignIn(): boolean {
    return this.kind === 'unauthorized';
  }
}

/** One sentence: "Could not <action>: <why>." */
function describeFailure(failure: QuotaApiFailure): string {
  return `Could not ${failure.action}: ${reason(failure)}`;
}

function reason(failure: QuotaApiFailure): string {
  const said = failure.serverMessage ? ` (the server said: ${failure.serverMessage})` : '';
  switch (failure.kind) {
    case 'unauthorized':
      return `you are not signed in to ${failure.server}, or your token is no longer valid${said}. Run "Quota: Sign In" with a token for that server.`;
    case 'forbidden':
      return isAdminPath(failure.url, failure.server) ? `your account is not a site administrator on ${failure.server}${said}.` : `${failure.server} does not allow your account to do this${said}.`;
    case 'not-found':
      return `${failure.server} has no such item${said}.`;
    case 'conflict':
      return `it conflicts with what already exists on ${failure.server}${said}.`;
    case 'validation':
      return `${failure.server} rejected the request as invalid: ${failure.serverMessage ?? 'no reason given'}.`;
    case 'bad-request':
      return `${failure.server} could not read the request (HTTP 400)${said}.`;
    case 'server':
      return `${failure.server} failed with HTTP ${failure.status ?? '?'}${said}.`;
    case 'network':
      return `${failure.url} could not be reached${failure.cause ? ` (${failure.cause})` : ''}. Check quotaState.api.baseUrl and your connection.`;
    case 'timeout':
      return `${failure.url} did not answer within ${formatSeconds(failure.timeoutMs)}. The timeout is the setting quotaState.api.timeout.`;
    case 'cancelled':
      return `the request to ${failure.url} was cancelled.`;
    case 'invalid-response':
      return `${failure.url} answered with something that is not the quota API's JSON${failure.cause ? ` (${failure.cause})` : ''}. Is quotaState.api.baseUrl the API's base URL (ending in /api/v1)?`;
  }
}

function isAdminPath(url: string, server: string): boolean {
  const rest = url.startsWith(server) ? url.slice(server.length) : url;
  return /(^|\/)admin\//.test(rest);
}

function formatSeconds(ms: number | undefined): string {
  if (ms === undefined) return 'the time allowed';
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** Maps an HTTP status to the failure kind. */
export function kindOfStatus(status: number): QuotaApiFailureKind {
  switch (status) {
    case 400:
      return 'bad-request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not-found';
    case 409:
      return 'conflict';
    case 422:
      return 'validation';
    default:
      return 'server';
  }
}

/**
 * The `message` of a Forgejo error body, or a short excerpt of a non-JSON body. A 404's `errors`
 * win over its message: Forgejo's message there can be a handler's name (an unknown organization
 * answers "GetOrgByName", with "org does not exist [id: 0, name: …]" under `errors`).
 */
export function serverMessageOf(bodyText: string): string | undefined {
  const trimmed = bodyText.trim();
  if (trimmed === '') return undefined;
  try {
    const body: unknown = JSON.parse(trimmed);
    const errors = (body as { errors?: unknown } | null)?.errors;
    if (Array.isArray(errors) && errors.length > 0 && errors.every((e) => typeof e === 'string')) return errors.join('; ');
    if (isAPIError(body)) return body.message || undefined;
    if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string') {
      return (body as { message: string }).message || undefined;
    }
  } catch {
    // Not JSON: fall through to an excerpt.
  }
  return trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed;
}
