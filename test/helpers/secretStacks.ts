/**
 * DIY stacks whose secrets real Pulumi encrypted: a deployment with plaintext secrets (strings,
 * numbers, an object, secrets inside an array and under a key with a dot) imported with
 * `pulumi stack import` into a stack made by `pulumi stack init`, which encrypts each with the stack's
 * passphrase salt; and `pulumi config set --secret` values in its Pulumi.<stack>.yaml.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { qualifiedStack, type DiyBackend } from './realPulumi';

export const SIGNATURE_KEY = '4dabf18193072939515e22adb298388d';
export const SECRET_SIGNATURE = '1b47061264138c4ac30d75fd1eb44270';

/** A secret in plaintext, as `pulumi stack export --show-secrets` writes one. */
export const plaintextSecret = (value: unknown) => ({ [SIGNATURE_KEY]: SECRET_SIGNATURE, plaintext: JSON.stringify(value) });

/** The secret values of the stacks `importSecrets` makes, by the property path `secrets get` takes. */
export const SECRET_VALUES: ReadonlyArray<{ urn: (stack: string, project: string) => string; path: string; value: unknown }> = [
  { urn: stackUrn, path: 'outputs.dbPassword', value: 'hunter2' },
  { urn: stackUrn, path: 'outputs.port', value: 5432 },
  { urn: stackUrn, path: 'outputs.ratio', value: 0.25 },
  { urn: stackUrn, path: 'outputs.credentials', value: { user: 'admin', password: 's3cret-obj', tags: ['x', 'y'] } },
  { urn: stackUrn, path: 'outputs.flag', value: true },
  { urn: stackUrn, path: 'outputs.unicode', value: 'päss wörd ✓ 🔑' },
  { urn: stackUrn, path: 'outputs.multiline', value: 'line one\nline two' },
  { urn: stackUrn, path: 'outputs.list[0]', value: 'first-of-list' },
  { urn: componentUrn, path: 'inputs.tags["a.b"]', value: 'dotted-key-secret' },
  { urn: componentUrn, path: 'outputs.connection', value: 'postgres://admin:pw-in-url@db:5432/app' },
];

function stackUrn(stack: string, project: string): string {
  return `urn:pulumi:${stack}::${project}::pulumi:pulumi:Stack::${project}-${stack}`;
}

function componentUrn(stack: string, project: string): string {
  return `urn:pulumi:${stack}::${project}::my:index:Database::db`;
}

/** The deployment `importSecrets` imports: a stack resource and a component, their secrets in plaintext. */
export function plaintextDeployment(project: string, stack: string, secretsProviders: unknown): Record<string, unknown> {
  const value = (path: string) => SECRET_VALUES.find((entry) => entry.path === path)!.value;
  const outputs: Record<string, unknown> = {};
  for (const key of ['dbPassword', 'port', 'ratio', 'credentials', 'flag', 'unicode', 'multiline']) outputs[key] = plaintextSecret(value(`outputs.${key}`));
  outputs.list = [plaintextSecret(value('outputs.list[0]')), 'not-a-secret'];
  outputs.visible = 'plain output';
  return {
    version: 3,
    deployment: {
      manifest: { time: '2026-01-01T00:00:00Z', magic: '', version: '' },
      secrets_providers: secretsProviders,
      resources: [
        { urn: stackUrn(stack, project), custom: false, type: 'pulumi:pulumi:Stack', outputs },
        {
          urn: componentUrn(stack, project),
          custom: false,
          type: 'my:index:Database',
          parent: stackUrn(stack, project),
          inputs: { tags: { 'a.b': plaintextSecret(value('inputs.tags["a.b"]')), plain: 'yes' } },
          outputs: { connection: plaintextSecret(value('outputs.connection')) },
        },
      ],
    },
  };
}

/** `pulumi stack init` of project/stack, its plaintext secrets imported (and so encrypted by Pulumi); answers the stack file's path. */
export function importSecrets(backend: DiyBackend, project: string, stack: string): string {
  backend.initStack(project, stack, ['--secrets-provider', 'passphrase']);
  const input = join(backend.root, `${project}-${stack}-input.json`);
  writeFileSync(input, JSON.stringify(plaintextDeployment(project, stack, backend.secretsProviders(stack))));
  backend.ok(['stack', 'import', '--stack', qualifiedStack(project, stack), '--file', input]);
  return backend.stackFile(project, stack);
}

/** The config values `setSecretConfig` sets with `pulumi config set --secret`, by key (`--path` for the dotted one). */
export const SECRET_CONFIG: ReadonlyArray<{ key: string; value: string; path?: boolean }> = [
  { key: 'token', value: 's3cr3t-config' },
  { key: 'empty', value: '' },
  { key: 'spaced', value: '  spaces around  ' },
  { key: 'db.password', value: 'nested-config-secret', path: true },
];

/** Sets SECRET_CONFIG on the stack (from the backend's work folder, where its Pulumi.yaml is); answers Pulumi.<stack>.yaml parsed. */
export function setSecretConfig(backend: DiyBackend, project: string, stack: string): Record<string, unknown> {
  for (const { key, value, path } of SECRET_CONFIG) {
    backend.ok(['config', 'set', '--secret', ...(path ? ['--path'] : []), '--stack', qualifiedStack(project, stack), `${project}:${key}`, value]);
  }
  return parseYaml(readFileSync(join(backend.workdir, `Pulumi.${stack}.yaml`), 'utf8')) as Record<string, unknown>;
}
