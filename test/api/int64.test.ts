/**
 * Limits are Forgejo's int64, exactly: 2^60 and 9,223,372,036,854,775,807 round-trip through real
 * HTTP as unquoted JSON numbers, through SQLite, the engine and the client; beyond int64 the
 * server answers what Forgejo's binding answers.
 */
import { strict as assert } from 'node:assert';
import { QuotaApiClient } from '../../shared/api/client';
import { DEMO_TOKENS, request, startServer, type RunningServer } from './helpers';

const TWO_TO_60 = '1152921504606846976';
const INT64_MAX = '9223372036854775807';

describe('quota API: 64-bit limits', () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  const raw = (method: string, path: string, body?: string) => request(server.baseUrl, method, path, { token: DEMO_TOKENS.root, ...(body === undefined ? {} : { raw: body }) });

  for (const [name, limit] of [
    ['two-to-60', TWO_TO_60],
    ['int64-max', INT64_MAX],
  ] as const) {
    it(`${name}: 201, and every answer carries ${limit} as an unquoted number`, async () => {
      const created = await raw('POST', '/admin/quota/rules', `{"name": "${name}", "limit": ${limit}, "subjects": ["size:all"]}`);
      assert.equal(created.status, 201, created.text);
      assert.equal(created.text, `{"name":"${name}","limit":${limit},"subjects":["size:all"]}`);
      assert.ok((await raw('GET', `/admin/quota/rules/${name}`)).text.includes(`"limit":${limit}`));
      assert.ok((await raw('GET', '/admin/quota/rules')).text.includes(`"name":"${name}","limit":${limit}`));
      assert.equal((await raw('PATCH', `/admin/quota/rules/${name}`, `{"limit": ${limit}}`)).status, 200);
      assert.ok((await raw('GET', `/admin/quota/rules/${name}`)).text.includes(`"limit":${limit}`));
    });
  }

  it('the client reads and writes them exactly (bigint beyond 2^53)', async () => {
    const root = new QuotaApiClient({ baseUrl: server.baseUrl, token: DEMO_TOKENS.root });
    const created = await root.createRule({ name: 'client-int64', limit: BigInt(INT64_MAX) - 1n, subjects: ['size:git:lfs'] });
    assert.equal(created.limit, BigInt(INT64_MAX) - 1n);
    const read = await root.getRule('client-int64');
    assert.equal(read.limit, 9223372036854775806n);
    assert.equal((await root.getRule('two-to-60')).limit, 2n ** 60n);
  });

  it('a group with a 2^60 rule lets the member through, and its quota shows the exact limit', async () => {
    assert.equal((await raw('POST', '/admin/quota/groups', `{"name": "huge", "rules": [{"name": "huge-all", "limit": ${TWO_TO_60}, "subjects": ["size:all"]}]}`)).status, 201);
    assert.equal((await raw('POST', '/admin/users/bob/quota/groups', '{"groups": ["huge"]}')).status, 204);
    const bob = await request(server.baseUrl, 'GET', '/user/quota', { token: DEMO_TOKENS.bob });
    assert.ok(bob.text.includes(`"limit":${TWO_TO_60}`), bob.text);
    assert.equal((await request(server.baseUrl, 'GET', '/user/quota/check?subject=size:repos:all', { token: DEMO_TOKENS.bob })).text, 'true');
  });

  it("beyond int64: 422 with Forgejo's binding message, nothing stored", async () => {
    const over = await raw('POST', '/admin/quota/rules', '{"name": "over", "limit": 9223372036854775808, "subjects": []}');
    assert.equal(over.status, 422);
    assert.equal((over.body as { message: string }).message, '[]: json: cannot unmarshal number 9223372036854775808 into Go struct field CreateQuotaRuleOptions.limit of type int64');
    assert.equal((await raw('GET', '/admin/quota/rules/over')).status, 404);
    const under = await raw('PATCH', '/admin/quota/rules/two-to-60', '{"limit": -9223372036854775809}');
    assert.equal(under.status, 422);
    assert.equal((under.body as { message: string }).message, '[]: json: cannot unmarshal number -9223372036854775809 into Go struct field EditQuotaRuleOptions.limit of type int64');
    const inline = await raw('POST', '/admin/quota/groups', '{"name": "over-group", "rules": [{"name": "x", "limit": 18446744073709551616}]}');
    assert.equal(inline.status, 422);
    assert.equal((inline.body as { message: string }).message, '[]: json: cannot unmarshal number 18446744073709551616 into Go struct field CreateQuotaRuleOptions.rules.limit of type int64');
    // The lowest int64 is a limit like any other negative one.
    assert.equal((await raw('POST', '/admin/quota/rules', '{"name": "int64-min", "limit": -9223372036854775808}')).status, 201);
  });

  it('a string limit is still a 400, as before', async () => {
    assert.equal((await raw('POST', '/admin/quota/rules', `{"name": "s", "limit": "${INT64_MAX}"}`)).status, 400);
  });
});
