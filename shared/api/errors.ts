/**
 * Failures of the quota API turned into sentences a person understands. The message names what
 * was being done, the server, and what the server said; it never contains the token (the client
 * sends it only in a header, and nothing here reads headers).
 */
import * as l10n from '@vscode/l10n';
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
  return l10n.t('Could not {0}: {1}', failure.action, reason(failure));
}

function reason(failure: QuotaApiFailure): string {
  const { server, url, serverMessage: said, cause } = failure;
  switch (failure.kind) {
    case 'unauthorized':
      return said
        ? l10n.t('you are not signed in to {0}, or your token is no longer valid (the server said: {1}). Run "{2}" with a token for that server.', server, said, 'Quota: Sign In')
        : l10n.t('you are not signed in to {0}, or your token is no longer valid. Run "{1}" with a token for that server.', server, 'Quota: Sign In');
    case 'forbidden':
      if (isAdminPath(url, server)) {
        return said ? l10n.t('your account is not a site administrator on {0} (the server said: {1}).', server, said) : l10n.t('your account is not a site administrator on {0}.', server);
      }
      return said ? l10n.t('{0} does not allow your account to do this (the server said: {1}).', server, said) : l10n.t('{0} does not allow your account to do this.', server);
    case 'not-found':
      return said ? l10n.t('{0} has no such item (the server said: {1}).', server, said) : l10n.t('{0} has no such item.', server);
    case 'conflict':
      return said ? l10n.t('it conflicts with what already exists on {0} (the server said: {1}).', server, said) : l10n.t('it conflicts with what already exists on {0}.', server);
    case 'validation':
      return l10n.t('{0} rejected the request as invalid: {1}.', server, said ?? l10n.t('no reason given'));
    case 'bad-request':
      return said ? l10n.t('{0} could not read the request (HTTP 400) (the server said: {1}).', server, said) : l10n.t('{0} could not read the request (HTTP 400).', server);
    case 'server':
      return said ? l10n.t('{0} failed with HTTP {1} (the server said: {2}).', server, failure.status ?? '?', said) : l10n.t('{0} failed with HTTP {1}.', server, failure.status ?? '?');
    case 'network':
      return cause
        ? l10n.t('{0} could not be reached ({1}). Check {2} and your connection.', url, cause, 'quotaState.api.baseUrl')
        : l10n.t('{0} could not be reached. Check {1} and your connection.', url, 'quotaState.api.baseUrl');
    case 'timeout':
      return l10n.t('{0} did not answer within {1}. The timeout is the setting {2}.', url, formatSeconds(failure.timeoutMs), 'quotaState.api.timeout');
    case 'cancelled':
      return l10n.t('the request to {0} was cancelled.', url);
    case 'invalid-response':
      return cause
        ? l10n.t("{0} answered with something that is not the quota API's JSON ({1}). Is {2} the API's base URL (ending in {3})?", url, cause, 'quotaState.api.baseUrl', '/api/v1')
        : l10n.t("{0} answered with something that is not the quota API's JSON. Is {1} the API's base URL (ending in {2})?", url, 'quotaState.api.baseUrl', '/api/v1');
  }
}

function isAdminPath(url: string, server: string): boolean {
  const rest = url.startsWith(server) ? url.slice(server.length) : url;
  return /(^|\/)admin\//.test(rest);
}

function formatSeconds(ms: number | undefined): string {
  if (ms === undefined) return l10n.t('the time allowed');
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
