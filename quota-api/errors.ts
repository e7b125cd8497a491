/**
 * Errors the API answers with, and Forgejo's exact messages for them.
 * Handlers and the store throw `HttpError`; the app's error handler turns it into
 * `{"message", "url"}` (plus `errors` on 404, as Forgejo's ctx.NotFound does).
 */

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Only for 404: the domain error Forgejo lists under `errors`. */
    readonly details?: string[],
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** Forgejo's generic 404 message (`ctx.NotFound()`, locale key error.not_found). */
export const NOT_FOUND_MESSAGE = "The target couldn't be found.";

/**
 * Each 404 as the Forgejo handler that answers it writes it (services/context/api.go):
 * - `ctx.NotFound()` — an unknown quota group or rule (QuotaGroupAssignmentAPI,
 *   QuotaRuleAssignmentAPI), a rule or user that is not in the group: the generic message, `errors: []`;
 * - `ctx.Error(404, "GetUserByName", err)` — an unknown user (UserAssignmentAPI): the error's text
 *   as the message, no `errors`;
 * - `ctx.NotFound("GetOrgByName", err)` — an unknown organization (orgAssignment): a string
 *   argument replaces the message, so it is "GetOrgByName", with the error under `errors`.
 */
export function notFound(): HttpError {
  return new HttpError(404, NOT_FOUND_MESSAGE, []);
}

export function userNotFound(name: string): HttpError {
  return new HttpError(404, messages.userNotFound(name));
}

export function orgNotFound(name: string): HttpError {
  return new HttpError(404, 'GetOrgByName', [messages.orgNotFound(name)]);
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

export function unprocessable(message: string): HttpError {
  return new HttpError(422, message);
}

export function conflict(message: string): HttpError {
  return new HttpError(409, message);
}

export const messages = {
  tokenRequired: 'token is required',
  /** Forgejo's token auth fails with an empty ErrUserNotExist, whose text this is. */
  unknownToken: 'user does not exist [uid: 0, name: ]',
  siteAdminRequired: 'user should be the site admin',
  orgOwnerRequired: 'Must be an organization owner',
  ruleExists: (name: string) => `rule already exists: [name: ${name}]`,
  ruleNotFound: (name: string) => `rule not found: [name: ${name}]`,
  groupExists: (name: string) => `group already exists: [name: ${name}]`,
  groupNotFound: (name: string) => `group not found: [group: ${name}]`,
  userNotFound: (name: string) => `user does not exist [uid: 0, name: ${name}]`,
  orgNotFound: (name: string) => `org does not exist [id: 0, name: ${name}]`,
  userInGroup: (group: string, userId: number) => `user already in group: [group: ${group}, userID: ${userId}]`,
  userNotInGroup: (group: string, userId: number) => `user not in group: [group: ${group}, userID: ${userId}]`,
  ruleInGroup: (group: string, rule: string) => `rule already in group: [group: ${group}, rule: ${rule}]`,
  ruleNotInGroup: (group: string, rule: string) => `rule not in group: [group: ${group}, rule: ${rule}]`,
  unknownSubject: (subject: string) => `unrecognized quota limit subject: [subject: ${subject}]`,
  required: (field: string) => `[${field}]: Required`,
} as const;
