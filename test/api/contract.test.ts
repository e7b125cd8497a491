/**
 * Contract: every operation of the reference server, driven over real HTTP, answers bodies that
 * Forgejo's swagger (test/fixtures/forgejo) accepts, and that carry every field Forgejo's Go
 * structs always serialise (the swagger marks none required, so the required lists below are
 * derived from the structs: each field without `omitempty`).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { client, DEMO_TOKENS, errorMessage, request, ROOT, startServer, type RunningServer } from './helpers';

const swagger = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/forgejo/forgejo-quota-swagger.json'), 'utf8').replace(/"#\/definitions\//g, '"forgejo#/definitions/')) as {
  paths: Record<string, Record<string, { responses: Record<string, { $ref?: string; schema?: unknown }> }>>;
  responses: Record<string, { schema?: unknown }>;
  definitions: Record<string, { required?: string[] }>;
};

/** Fields without `omitempty` in forgejo modules/structs (user.go, repo.go, quota.go, api.go). */
const STRUCT_REQUIRED: Record<string, string[]> = {
  User: [
    'id',
    'login',
    'login_name',
    'source_id',
    'full_name',
    'email',
    'avatar_url',
    'html_url',
    'language',
    'is_admin',
    'last_login',
    'created',
    'restricted',
    'active',
    'prohibit_login',
    'location',
    'pronouns',
    'website',
    'description',
    'visibility',
    'followers_count',
    'following_count',
    'starred_repos_count',
  ],
  Repository: [
    'id',
    'owner',
    'name',
    'full_name',
    'description',
    'empty',
    'private',
    'fork',
    'template',
    'parent',
    'mirror',
    'size',
    'language',
    'languages_url',
    'html_url',
    'url',
    'link',
    'ssh_url',
    'clone_url',
    'original_url',
    'website',
    'stars_count',
    'forks_count',
    'watchers_count',
    'open_issues_count',
    'open_pr_counter',
    'release_counter',
    'default_branch',
    'archived',
    'created_at',
    'updated_at',
    'archived_at',
    'has_issues',
    'has_wiki',
    'globally_editable_wiki',
    'has_pull_requests',
    'has_projects',
    'has_releases',
    'has_packages',
    'has_actions',
    'ignore_whitespace_conflicts',
    'allow_merge_commits',
    'allow_rebase',
    'allow_rebase_explicit',
    'allow_squash_merge',
    'allow_fast_forward_only_merge',
    'allow_rebase_update',
    'default_delete_branch_after_merge',
    'default_merge_style',
    'default_allow_maintainer_edit',
    'default_update_style',
    'avatar_url',
    'internal',
    'mirror_interval',
    'object_format_name',
    'repo_transfer',
    'topics',
  ],
  QuotaInfo: ['used', 'groups'],
  QuotaUsedAttachment: ['name', 'size', 'api_url', 'contained_in'],
  QuotaUsedPackage: ['name', 'type', 'version', 'size', 'html_url'],
  QuotaUsedArtifact: ['name', 'size', 'html_url'],
  QuotaRuleInfo: ['limit'],
  QuotaGroup: ['rules'],
};
for (const [name, required] of Object.entries(STRUCT_REQUIRED)) swagger.definitions[name].required = required;
// Go sends a nil pointer that is not omitempty as null; swagger 2.0 cannot say so.
const repositoryProperties = (swagger.definitions.Repository as { properties: Record<string, object> }).properties;
for (const pointer of ['parent', 'repo_transfer']) repositoryProperties[pointer] = { anyOf: [repositoryProperties[pointer], { type: 'null' }] };

/**
 * Where the swagger and Forgejo's handlers disagree, the handler decides: removing a rule from
 * a group answers 204 (ctx.Status(http.StatusNoContent)) though the swagger lists 201, and
 * every route answers 401 with an APIError without a token though few list it.
 */
const HANDLER_STATUS: Record<string, string> = { 'DELETE /admin/quota/groups/{quotagroup}/rules/{quotarule} 204': '201' };

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ definitions: swagger.definitions }, 'forgejo');

function validatorFor(method: string, template: string, status: number): ValidateFunction | 'no-body' {
  const operation = swagger.paths[template]?.[method.toLowerCase()];
  assert.ok(operation, `the reference swagger has no ${method} ${template}`);
  const listed = HANDLER_STATUS[`${method} ${template} ${status}`] ?? String(status);
  const response = operation.responses[listed] ?? (status === 401 ? { $ref: '#/responses/unauthorized' } : operation.responses.default);
  assert.ok(response, `the reference swagger has no ${status} answer for ${method} ${template}`);
  const resolved = response.$ref ? swagger.responses[response.$ref.replace('#/responses/', '')] : response;
  if (!resolved?.schema || status === 204) return 'no-body';
  return ajv.compile(resolved.schema as object);
}

describe("quota API: contract with Forgejo's swagger and structs", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  const operations: Array<{ method: string; template: string; url: string; token?: string; status: number; json?: unknown }> = [
    { method: 'GET', template: '/user', url: '/user', token: DEMO_TOKENS.alice, status: 200 },
    { method: 'GET', template: '/user/repos', url: '/user/repos?order_by=reversesize', token: DEMO_TOKENS.bob, status: 200 },
    { method: 'GET', template: '/repos/search', url: '/repos/search?sort=size&order=desc', token: DEMO_TOKENS.bob, status: 200 },
    { method: 'GET', template: '/user/quota', url: '/user/quota', token: DEMO_TOKENS.alice, status: 200 },
    { method: 'GET', template: '/user/quota/check', url: '/user/quota/check?subject=size:all', token: DEMO_TOKENS.alice, status: 200 },
    { method: 'GET', template: '/user/quota/attachments', url: '/user/quota/attachments', token: DEMO_TOKENS.alice, status: 200 },
    { method: 'GET', template: '/user/quota/packages', url: '/user/quota/packages', token: DEMO_TOKENS.alice, status: 200 },
    { method: 'GET', template: '/user/quota/artifacts', url: '/user/quota/artifacts', token: DEMO_TOKENS.alice, status: 200 },
    { method: 'GET', template: '/orgs/{org}/quota', url: '/orgs/ACME/quota', token: DEMO_TOKENS.alice, status: 200 },
    { method: 'GET', template: '/orgs/{org}/quota/check', url: '/orgs/acme/quota/check?subject=size:all', token: DEMO_TOKENS.alice, status: 200 },
    { method: 'GET', template: '/orgs/{org}/quota/attachments', url: '/orgs/acme/quota/attachments', token: DEMO_TOKENS.alice, status: 200 },
    { method: 'GET', template: '/orgs/{org}/quota/packages', url: '/orgs/acme/quota/packages', token: DEMO_TOKENS.alice, status: 200 },
    { method: 'GET', template: '/orgs/{org}/quota/artifacts', url: '/orgs/acme/quota/artifacts', token: DEMO_TOKENS.alice, status: 200 },
    { method: 'GET', template: '/orgs/{org}/quota', url: '/orgs/nobody/quota', status: 404 },
    { method: 'GET', template: '/admin/quota/rules', url: '/admin/quota/rules', token: DEMO_TOKENS.root, status: 200 },
    { method: 'POST', template: '/admin/quota/rules', url: '/admin/quota/rules', token: DEMO_TOKENS.root, status: 201, json: { name: 'contract', limit: 5, subjects: ['size:all'] } },
    { method: 'GET', template: '/admin/quota/rules/{quotarule}', url: '/admin/quota/rules/contract', token: DEMO_TOKENS.root, status: 200 },
    { method: 'PATCH', template: '/admin/quota/rules/{quotarule}', url: '/admin/quota/rules/contract', token: DEMO_TOKENS.root, status: 200, json: { limit: 6 } },
    { method: 'GET', template: '/admin/quota/rules/{quotarule}', url: '/admin/quota/rules/none', token: DEMO_TOKENS.root, status: 404 },
    { method: 'POST', template: '/admin/quota/rules', url: '/admin/quota/rules', token: DEMO_TOKENS.root, status: 422, json: { name: 'x' } },
    { method: 'GET', template: '/admin/quota/rules', url: '/admin/quota/rules', token: DEMO_TOKENS.alice, status: 403 },
    { method: 'GET', template: '/admin/quota/rules', url: '/admin/quota/rules', status: 401 },
    { method: 'GET', template: '/admin/quota/groups', url: '/admin/quota/groups', token: DEMO_TOKENS.root, status: 200 },
    { method: 'POST', template: '/admin/quota/groups', url: '/admin/quota/groups', token: DEMO_TOKENS.root, status: 201, json: { name: 'contract-group', rules: [{ name: 'contract' }] } },
    { method: 'GET', template: '/admin/quota/groups/{quotagroup}', url: '/admin/quota/groups/contract-group', token: DEMO_TOKENS.root, status: 200 },
    { method: 'PUT', template: '/admin/quota/groups/{quotagroup}/users/{username}', url: '/admin/quota/groups/contract-group/users/ALICE', token: DEMO_TOKENS.root, status: 204 },
    { method: 'GET', template: '/admin/quota/groups/{quotagroup}/users', url: '/admin/quota/groups/contract-group/users', token: DEMO_TOKENS.root, status: 200 },
    { method: 'DELETE', template: '/admin/quota/groups/{quotagroup}/users/{username}', url: '/admin/quota/groups/contract-group/users/alice', token: DEMO_TOKENS.root, status: 204 },
    { method: 'DELETE', template: '/admin/quota/groups/{quotagroup}/rules/{quotarule}', url: '/admin/quota/groups/contract-group/rules/contract', token: DEMO_TOKENS.root, status: 204 },
    { method: 'PUT', template: '/admin/quota/groups/{quotagroup}/rules/{quotarule}', url: '/admin/quota/groups/contract-group/rules/contract', token: DEMO_TOKENS.root, status: 204 },
    { method: 'GET', template: '/admin/users/{username}/quota', url: '/admin/users/Carol/quota', token: DEMO_TOKENS.root, status: 200 },
    { method: 'GET', template: '/admin/users/{username}/quota', url: '/admin/users/nobody/quota', token: DEMO_TOKENS.root, status: 404 },
    { method: 'POST', template: '/admin/users/{username}/quota/groups', url: '/admin/users/bob/quota/groups', token: DEMO_TOKENS.root, status: 204, json: { groups: ['free'] } },
    { method: 'DELETE', template: '/admin/quota/groups/{quotagroup}', url: '/admin/quota/groups/contract-group', token: DEMO_TOKENS.root, status: 204 },
    { method: 'DELETE', template: '/admin/quota/rules/{quotarule}', url: '/admin/quota/rules/contract', token: DEMO_TOKENS.root, status: 204 },
  ];

  for (const operation of operations) {
    it(`${operation.method} ${operation.url} → ${operation.status}, body valid against Forgejo's definition`, async () => {
      const call = client(server.baseUrl, operation.token);
      const response =
        operation.method === 'GET'
          ? await call.get(operation.url)
          : operation.method === 'POST'
            ? await call.post(operation.url, operation.json)
            : operation.method === 'PATCH'
              ? await call.patch(operation.url, operation.json)
              : operation.method === 'PUT'
                ? await call.put(operation.url)
                : await call.delete(operation.url);
      assert.equal(response.status, operation.status, response.text);
      const validate = validatorFor(operation.method, operation.template, operation.status);
      if (validate === 'no-body') {
        assert.equal(response.text, '', 'no body');
        return;
      }
      assert.ok(validate(response.body), `${JSON.stringify(validate.errors)}\n${response.text.slice(0, 500)}`);
    });
  }

  it("an unknown token is a 401 with Forgejo's message on every route, public ones and unknown orgs included", async () => {
    const validate = validatorFor('GET', '/user', 401);
    assert.notEqual(validate, 'no-body');
    for (const url of ['/user', '/user/quota', '/admin/quota/rules', '/orgs/nobody/quota', '/orgs/acme/quota', '/version']) {
      for (const header of ['token not-a-real-token', 'Bearer not-a-real-token']) {
        const response = await request(server.baseUrl, 'GET', url, { headers: { authorization: header } });
        assert.equal(response.status, 401, `${url} ${header}`);
        assert.equal(errorMessage(response), 'user does not exist [uid: 0, name: ]');
        assert.ok((validate as ValidateFunction)(response.body), JSON.stringify((validate as ValidateFunction).errors));
      }
    }
    // No token at all: public routes answer, the others ask for one.
    assert.equal((await request(server.baseUrl, 'GET', '/version')).status, 200);
    assert.equal(errorMessage(await request(server.baseUrl, 'GET', '/user')), 'token is required');
  });

  it("user/org look-ups ignore case; an unknown org is a 404 before any token check, with Forgejo's messages", async () => {
    const anonymous = client(server.baseUrl);
    // routers/api/v1/api.go orgAssignment: ctx.NotFound("GetOrgByName", err) — the string becomes the message.
    const org = await anonymous.get<{ message: string; errors: string[] }>('/orgs/nobody/quota');
    assert.equal(org.status, 404);
    assert.deepEqual(org.body, { message: 'GetOrgByName', url: `${server.baseUrl.replace(/api\/v1$/, '')}api/swagger`, errors: ['org does not exist [id: 0, name: nobody]'] });
    // services/context/user.go userAssignment: ctx.Error(404, "GetUserByName", err) — the error is the message.
    const root = client(server.baseUrl, DEMO_TOKENS.root);
    for (const [method, path] of [
      ['GET', '/admin/users/nobody/quota'],
      ['POST', '/admin/users/nobody/quota/groups'],
      ['PUT', '/admin/quota/groups/free/users/nobody'],
      ['DELETE', '/admin/quota/groups/free/users/nobody'],
    ] as const) {
      const user = await request(server.baseUrl, method, path, { token: DEMO_TOKENS.root, ...(method === 'POST' ? { json: { groups: [] } } : {}) });
      assert.equal(user.status, 404, `${method} ${path}`);
      assert.deepEqual(user.body, { message: 'user does not exist [uid: 0, name: nobody]', url: `${server.baseUrl.replace(/api\/v1$/, '')}api/swagger` }, `${method} ${path}`);
    }
    // services/context/quota.go Quota{Group,Rule}AssignmentAPI: ctx.NotFound() — the generic message, no reason.
    for (const path of ['/admin/quota/groups/ghost', '/admin/quota/rules/ghost', '/admin/quota/groups/ghost/users']) {
      const missing = await root.get(path);
      assert.deepEqual(missing.body, { message: "The target couldn't be found.", url: `${server.baseUrl.replace(/api\/v1$/, '')}api/swagger`, errors: [] }, path);
    }
  });
});
