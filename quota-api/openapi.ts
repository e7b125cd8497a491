/**
 * The API's own description: the shapes this server answers and accepts, registered as shared
 * Fastify schemas that the routes reference, from which @fastify/swagger generates the swagger
 * 2.0 document served at `/api/swagger` (swagger 2.0 because Forgejo publishes its API in it,
 * so a client generated from either document is the same client).
 *
 * The shapes are Forgejo's (modules/structs): same field names, types and formats. Response
 * schemas only describe; bodies are still written by JSON.stringify, and query values are read
 * as Forgejo reads them (FormInt, first value), so only request bodies are validated.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import { bodySchemas } from './validation';

type Schema = Record<string, unknown>;

const int64 = { type: 'integer', format: 'int64' } as const;
const string = { type: 'string' } as const;
const boolean = { type: 'boolean' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;
const strings = { type: 'array', items: string } as const;
const ref = (id: string): Schema => ({ $ref: `${id}#` });
const listOf = (id: string): Schema => ({ type: 'array', items: ref(id) });

function object(description: string, properties: Record<string, Schema>): Schema {
  return { type: 'object', description, properties };
}

/** Every shape the server answers or accepts, keyed by Forgejo's definition name. */
export const DEFINITIONS: Record<string, Schema> = {
  APIError: object('An error: a message and where the API is described.', { message: string, url: string }),
  APIForbiddenError: object('The caller may not do this.', { message: string, url: string }),
  APIUnauthorizedError: object('No token, or a token that does not exist.', { message: string, url: string }),
  APIValidationError: object('The request is well-formed but its content is refused.', { message: string, url: string }),
  APINotFound: object('The thing named in the path does not exist; `errors` says which.', { errors: strings, message: string, url: string }),
  ServerVersion: object('The server version.', { version: string }),

  User: object('A user (or an organization in member lists), as Forgejo serialises it.', {
    id: int64,
    login: string,
    login_name: string,
    source_id: int64,
    full_name: string,
    email: { type: 'string', format: 'email' },
    avatar_url: string,
    html_url: string,
    language: string,
    is_admin: boolean,
    last_login: dateTime,
    created: dateTime,
    restricted: boolean,
    active: boolean,
    prohibit_login: boolean,
    location: string,
    pronouns: string,
    website: string,
    description: string,
    visibility: string,
    followers_count: int64,
    following_count: int64,
    starred_repos_count: int64,
  }),
  Permission: object("The caller's permissions on a repository.", { admin: boolean, push: boolean, pull: boolean }),
  InternalTracker: object('Settings of the built-in issue tracker.', {
    enable_time_tracker: boolean,
    allow_only_contributors_to_track_time: boolean,
    enable_issue_dependencies: boolean,
  }),
  ExternalTracker: object('An external issue tracker.', {
    external_tracker_url: string,
    external_tracker_format: string,
    external_tracker_style: string,
    external_tracker_regexp_pattern: string,
  }),
  ExternalWiki: object('An external wiki.', { external_wiki_url: string }),
  Organization: object('An organization.', {
    id: int64,
    name: string,
    full_name: string,
    email: string,
    avatar_url: string,
    description: string,
    website: string,
    location: string,
    visibility: string,
    repo_admin_change_team_access: boolean,
    username: string,
  }),
  Team: object('A team of an organization.', {
    id: int64,
    name: string,
    description: string,
    organization: ref('Organization'),
    includes_all_repositories: boolean,
    permission: { type: 'string', enum: ['none', 'read', 'write', 'admin', 'owner'] },
    units: strings,
    units_map: { type: 'object', additionalProperties: string },
    can_create_org_repo: boolean,
  }),
  RepoTransfer: object('A pending transfer of a repository (always null here).', { doer: ref('User'), recipient: ref('User'), teams: listOf('Team') }),
  Repository: object('A repository; `size` is KiB of its git and LFS data.', {
    id: int64,
    owner: ref('User'),
    name: string,
    full_name: string,
    description: string,
    empty: boolean,
    private: boolean,
    fork: boolean,
    template: boolean,
    parent: ref('Repository'),
    mirror: boolean,
    size: int64,
    language: string,
    languages_url: string,
    html_url: string,
    url: string,
    link: string,
    ssh_url: string,
    clone_url: string,
    original_url: string,
    website: string,
    stars_count: int64,
    forks_count: int64,
    watchers_count: int64,
    open_issues_count: int64,
    open_pr_counter: int64,
    release_counter: int64,
    default_branch: string,
    archived: boolean,
    created_at: dateTime,
    updated_at: dateTime,
    archived_at: dateTime,
    permissions: ref('Permission'),
    has_issues: boolean,
    internal_tracker: ref('InternalTracker'),
    external_tracker: ref('ExternalTracker'),
    has_wiki: boolean,
    external_wiki: ref('ExternalWiki'),
    wiki_branch: string,
    globally_editable_wiki: boolean,
    has_pull_requests: boolean,
    has_projects: boolean,
    has_releases: boolean,
    has_packages: boolean,
    has_actions: boolean,
    ignore_whitespace_conflicts: boolean,
    allow_merge_commits: boolean,
    allow_rebase: boolean,
    allow_rebase_explicit: boolean,
    allow_squash_merge: boolean,
    allow_fast_forward_only_merge: boolean,
    allow_rebase_update: boolean,
    default_delete_branch_after_merge: boolean,
    default_merge_style: string,
    default_allow_maintainer_edit: boolean,
    default_update_style: string,
    avatar_url: string,
    internal: boolean,
    mirror_interval: string,
    mirror_updated: dateTime,
    object_format_name: { type: 'string', enum: ['sha1', 'sha256'] },
    repo_transfer: ref('RepoTransfer'),
    topics: strings,
  }),
  SearchResults: object('Repositories found by /repos/search.', { ok: boolean, data: listOf('Repository') }),

  QuotaRuleInfo: object('A quota rule: a limit in bytes over subjects (names hidden on the user and org routes).', {
    name: string,
    limit: int64,
    subjects: strings,
  }),
  QuotaGroup: object('A quota group: the rules it applies.', { name: string, rules: listOf('QuotaRuleInfo') }),
  QuotaGroupList: { type: 'array', description: 'Quota groups.', items: ref('QuotaGroup') },
  QuotaUsedSizeRepos: object('Bytes of public and private repositories.', { public: int64, private: int64 }),
  QuotaUsedSizeGit: object('Bytes of Git LFS objects.', { LFS: int64 }),
  QuotaUsedSizeAssetsAttachments: object('Bytes of issue and release attachments.', { issues: int64, releases: int64 }),
  QuotaUsedSizeAssetsPackages: object('Bytes of packages.', { all: int64 }),
  QuotaUsedSizeAssets: object('Bytes of assets.', {
    attachments: ref('QuotaUsedSizeAssetsAttachments'),
    artifacts: int64,
    packages: ref('QuotaUsedSizeAssetsPackages'),
  }),
  QuotaUsedSize: object('Bytes used, by kind.', { repos: ref('QuotaUsedSizeRepos'), git: ref('QuotaUsedSizeGit'), assets: ref('QuotaUsedSizeAssets') }),
  QuotaUsed: object('What an account uses.', { size: ref('QuotaUsedSize') }),
  QuotaInfo: object("An account's usage and the groups that limit it.", { used: ref('QuotaUsed'), groups: ref('QuotaGroupList') }),
  QuotaUsedAttachment: object('An attachment counted against the quota.', {
    name: string,
    size: int64,
    api_url: string,
    contained_in: object('The release, comment or issue holding the attachment.', { api_url: string, html_url: string }),
  }),
  QuotaUsedAttachmentList: { type: 'array', description: 'Attachments, largest first.', items: ref('QuotaUsedAttachment') },
  QuotaUsedPackage: object('A package version counted against the quota.', { name: string, type: string, version: string, size: int64, html_url: string }),
  QuotaUsedPackageList: { type: 'array', description: 'Package versions, largest first.', items: ref('QuotaUsedPackage') },
  QuotaUsedArtifact: object('An action artifact counted against the quota.', { name: string, size: int64, html_url: string }),
  QuotaUsedArtifactList: { type: 'array', description: 'Artifacts, largest first.', items: ref('QuotaUsedArtifact') },

  // Request bodies: the very schemas the routes validate with (null accepted where Go accepts it).
  CreateQuotaRuleOptions: { ...bodySchemas.createRule, description: 'A new rule: its name, limit in bytes and subjects.' },
  EditQuotaRuleOptions: { ...bodySchemas.editRule, description: 'Changes to a rule; absent or null fields stay.' },
  CreateQuotaGroupOptions: {
    ...bodySchemas.createGroup,
    description: 'A new group, optionally with rules to create and add.',
    properties: { ...bodySchemas.createGroup.properties, rules: { type: ['array', 'null'], items: ref('CreateQuotaRuleOptions') } },
  },
  SetUserQuotaGroupsOptions: { ...bodySchemas.setUserGroups, description: 'The groups a user shall have; absent changes nothing.' },
};

export function registerDefinitions(app: FastifyInstance): void {
  for (const [id, schema] of Object.entries(DEFINITIONS)) app.addSchema({ $id: id, ...schema });
}

// ---------------------------------------------------------------------------------------------
// Route schemas

/** The error body each status answers with. */
const ERROR_DEFINITION: Record<number, string> = {
  400: 'APIError',
  401: 'APIUnauthorizedError',
  403: 'APIForbiddenError',
  404: 'APINotFound',
  409: 'APIError',
  422: 'APIValidationError',
};

type Responses = Record<number, Schema | null>;

function responses(success: Responses, errorStatuses: number[]): Record<string, Schema> {
  const result: Record<string, Schema> = {};
  for (const [status, schema] of Object.entries(success)) {
    // A null schema: an empty answer (204), which swagger 2.0 says with a response without schema.
    result[status] = schema === null ? { type: 'null', description: 'No content' } : schema;
  }
  for (const status of errorStatuses) result[status] = { ...ref(ERROR_DEFINITION[status]), description: ERROR_DEFINITION[status] };
  return result;
}

interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  params?: string[];
  query?: Record<string, Schema & { required?: boolean }>;
  body?: { name: string; definition: string; description: string };
  success: Responses;
  errors: number[];
}

/** A route's schema for Fastify and @fastify/swagger. */
export function operation(op: Operation): FastifySchema {
  const schema: Record<string, unknown> = {
    operationId: op.operationId,
    summary: op.summary,
    tags: op.tags,
    produces: ['application/json'],
    response: responses(op.success, op.errors),
  };
  if (op.params) {
    schema.params = {
      type: 'object',
      required: op.params,
      properties: Object.fromEntries(op.params.map((name) => [name, { type: 'string', description: PARAM_DESCRIPTIONS[name] ?? name }])),
    };
  }
  if (op.query) {
    const required = Object.entries(op.query)
      .filter(([, value]) => value.required)
      .map(([key]) => key);
    schema.querystring = {
      type: 'object',
      ...(required.length > 0 ? { required } : {}),
      properties: Object.fromEntries(Object.entries(op.query).map(([key, { required: _required, ...value }]) => [key, value])),
    };
  }
  if (op.body) {
    schema.consumes = ['application/json'];
    schema.body = { ...ref(op.body.definition), description: op.body.description };
    schema['x-body-name'] = op.body.name;
  }
  return schema as FastifySchema;
}

const PARAM_DESCRIPTIONS: Record<string, string> = {
  quotarule: 'quota rule to query',
  quotagroup: 'quota group',
  username: 'username of the user',
  org: 'name of the organization',
};

export const PAGING_QUERY = {
  page: { type: 'integer', description: 'page number of results to return (1-based)' },
  limit: { type: 'integer', description: 'page size of results' },
} as const;

export const SUBJECT_QUERY = { subject: { type: 'string', description: 'subject of the quota', required: true } } as const;

/** Ready-made success answers. */
export const answers = {
  ok: (id: string): Responses => ({ 200: ref(id) }),
  list: (id: string): Responses => ({ 200: listOf(id) }),
  created: (id: string): Responses => ({ 201: ref(id) }),
  noContent: { 204: null } as Responses,
  boolean: { 200: { type: 'boolean', description: 'true when the account is within its quota for the subject' } } as Responses,
};

// ---------------------------------------------------------------------------------------------
// The document

/**
 * Swagger 2.0 has no `type: [T, "null"]`: a nullable field becomes its type with
 * `x-nullable`, as go-swagger clients read it; the route schema's `x-body-name` names the body
 * parameter as Forgejo's swagger does.
 */
export function finishDocument(document: Schema): Schema {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    // A reference stands alone in swagger 2.0: siblings of `$ref` are ignored, so none are sent.
    if (typeof record.$ref === 'string') {
      for (const key of Object.keys(record)) if (key !== '$ref') delete record[key];
      return;
    }
    if (Array.isArray(record.type)) {
      const types = (record.type as string[]).filter((type) => type !== 'null');
      if (types.length < record.type.length) record['x-nullable'] = true;
      record.type = types.length === 1 ? types[0] : types;
    }
    Object.values(record).forEach(visit);
  };
  const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
  for (const methods of Object.values(paths)) {
    for (const op of Object.values(methods)) {
      const bodyName = op['x-body-name'];
      delete op['x-body-name'];
      const parameters = (op.parameters ?? []) as Array<Record<string, unknown>>;
      for (const parameter of parameters) {
        if (parameter.in === 'body' && typeof bodyName === 'string') {
          parameter.name = bodyName;
          parameter.required = true;
          parameter.description = (parameter.schema as Schema | undefined)?.description ?? parameter.description;
        }
      }
    }
  }
  visit(document);
  return document;
}
