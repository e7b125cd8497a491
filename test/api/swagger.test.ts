/**
 * `/api/swagger`: the server's own swagger document, generated from its route schemas, agrees
 * with Forgejo's (test/fixtures/forgejo) on every operation they share: path, method,
 * operation id, parameters, response codes and the shape of every body, followed through
 * every `$ref`. Descriptions, `required` lists and `x-` keys are wording, not shape.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { client, DEMO_TOKENS, errorMessage, request, ROOT, startServer, type RunningServer } from './helpers';

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  type?: string;
  format?: string;
  enum?: string[];
  required?: boolean;
  schema?: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  responses: Record<string, { $ref?: string; schema?: Schema }>;
}
interface SwaggerDocument {
  swagger: string;
  basePath: string;
  paths: Record<string, Record<string, Operation>>;
  responses?: Record<string, { schema?: Schema }>;
  definitions: Record<string, Schema>;
}

const reference = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/forgejo/forgejo-quota-swagger.json'), 'utf8')) as SwaggerDocument;

/**
 * Where this server's document says what its handlers do and Forgejo's document does not:
 * Forgejo's handler answers 204 when a rule leaves a group (its document says 201), and every
 * operation that needs a token answers 401 without one (Forgejo's document lists it on few).
 */
const STATUS_IN_PLACE_OF: Record<string, Record<string, string>> = {
  'delete /admin/quota/groups/{quotagroup}/rules/{quotarule}': { '201': '204' },
};

/** A schema reduced to its shape, references followed (a cycle ends in its definition's name). */
function shape(document: SwaggerDocument, schema: Schema | undefined, seen: string[] = []): unknown {
  if (!schema) return undefined;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/definitions/', '');
    const target = document.definitions[name];
    assert.ok(target, `unresolved $ref ${schema.$ref}`);
    if (seen.includes(name)) return { cycle: name };
    return shape(document, target, [...seen, name]);
  }
  const result: Record<string, unknown> = {};
  const types = ([] as unknown[]).concat(schema.type ?? []).filter((type) => type !== 'null');
  if (types.length > 0) result.type = types.length === 1 ? types[0] : types;
  if (schema.format !== undefined) result.format = schema.format;
  if (Array.isArray(schema.enum)) result.enum = [...schema.enum].sort();
  if (schema.items) result.items = shape(document, schema.items as Schema, seen);
  if (schema.properties) {
    const properties = schema.properties as Record<string, Schema>;
    result.properties = Object.fromEntries(
      Object.keys(properties)
        .sort()
        .map((key) => [key, shape(document, properties[key], seen)]),
    );
  }
  return result;
}

function responseSchema(document: SwaggerDocument, response: { $ref?: string; schema?: Schema }): Schema | undefined {
  if (response.$ref) return document.responses?.[response.$ref.replace('#/responses/', '')]?.schema;
  return response.schema;
}

function parameterShape(document: SwaggerDocument, parameter: Parameter): unknown {
  if (parameter.in === 'body') return { name: parameter.name, in: 'body', schema: shape(document, parameter.schema) };
  return {
    name: parameter.name,
    in: parameter.in,
    type: parameter.type,
    format: parameter.format,
    enum: parameter.enum ? [...parameter.enum].sort() : undefined,
    required: parameter.required === true,
  };
}

describe("quota API: /api/swagger agrees with Forgejo's swagger", () => {
  let server: RunningServer;
  let ours: SwaggerDocument;
  before(async () => {
    server = await startServer();
    const response = await request<SwaggerDocument>(server.baseUrl.replace(/\/api\/v1$/, ''), 'GET', '/api/swagger');
    assert.equal(response.status, 200, response.text);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    ours = response.body;
  });
  after(async () => {
    await server?.stop();
  });

  it('is a swagger 2.0 document for /api/v1 whose every $ref resolves, and error bodies link to it', async () => {
    assert.equal(ours.swagger, '2.0');
    assert.equal(ours.basePath, '/api/v1');
    const refs = JSON.stringify(ours).match(/"\$ref":"[^"]*"/g) ?? [];
    assert.ok(refs.length > 50);
    for (const ref of new Set(refs)) {
      const name = ref.slice('"$ref":"#/definitions/'.length, -1);
      assert.ok(ref.startsWith('"$ref":"#/definitions/') && ours.definitions[name], `dangling ${ref}`);
    }
    const notFound = await client(server.baseUrl, DEMO_TOKENS.root).get<{ url: string }>('/admin/quota/rules/nothing-here');
    errorMessage(notFound);
    const linked = await fetch(notFound.body.url);
    assert.equal(linked.status, 200);
    assert.deepEqual(await linked.json(), ours);
  });

  const operations = Object.entries(reference.paths).flatMap(([template, methods]) => Object.keys(methods).map((method) => ({ template, method })));
  assert.ok(operations.length >= 29);

  for (const { template, method } of operations) {
    it(`${method.toUpperCase()} ${template}: same operation id, parameters, response codes and body shapes`, () => {
      const theirs = reference.paths[template][method];
      const mine = ours.paths[template]?.[method];
      assert.ok(mine, `the server's document has no ${method.toUpperCase()} ${template}`);
      assert.equal(mine.operationId, theirs.operationId);

      const byName = (list: Parameter[] | undefined, document: SwaggerDocument) =>
        Object.fromEntries((list ?? []).map((parameter) => [`${parameter.in}:${parameter.name}`, parameterShape(document, parameter)]));
      assert.deepEqual(byName(mine.parameters, ours), byName(theirs.parameters, reference));

      const replaced = STATUS_IN_PLACE_OF[`${method} ${template}`] ?? {};
      const expectedStatuses = new Set(Object.keys(theirs.responses).map((status) => replaced[status] ?? status));
      // Every operation of this server but /version needs a token, so each one documents the 401.
      expectedStatuses.add('401');
      assert.deepEqual(Object.keys(mine.responses).sort(), [...expectedStatuses].sort());

      for (const [status, response] of Object.entries(theirs.responses)) {
        const myStatus = replaced[status] ?? status;
        assert.deepEqual(shape(ours, responseSchema(ours, mine.responses[myStatus])), shape(reference, responseSchema(reference, response)), `${status} body of ${method.toUpperCase()} ${template}`);
      }
    });
  }

  it("describes this server's own extra routes too, and is served at Forgejo's /swagger.v1.json", async () => {
    assert.ok(ours.paths['/version']?.get, '/version');
    const forgejoPath = await request(server.baseUrl.replace(/\/api\/v1$/, ''), 'GET', '/swagger.v1.json');
    assert.deepEqual(forgejoPath.body, ours);
  });
});
