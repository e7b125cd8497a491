/**
 * Real state files written by Pulumi (test/fixtures/state/real, see its README for provenance),
 * judged against Pulumi's own loader as the oracle:
 *
 * - a file Pulumi loads and whose integrity check passes gets no Error and no Warning in `pulumi`
 *   mode, through the analysis and through the `quota-state` process;
 * - a file with violations gets exactly the violations of a port of `Snapshot.VerifyIntegrity`
 *   (pulumi/pulumi pkg/resource/deploy/snapshot.go) that keeps going after the first one, after
 *   the version handling of pkg/resource/stack/checkpoint.go
 *   (`UnmarshalVersionedCheckpointToLatestCheckpoint`) and the migration of pkg/resource/stack/migrate.
 *
 * The oracle below is written from Pulumi's Go source, independently of shared/state.
 */
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyzeState, type StateAnalysis } from '../../shared/state/analyze';
import { runQuotaState } from '../helpers/processes';

const REAL = resolve(__dirname, '..', 'fixtures', 'state', 'real');
const UNKNOWN_ID = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** One violation, as `[rule, resource urn, referenced urn]`. */
type Violation = [string, string, string];

/** pkg/resource/stack/checkpoint.go: version 0 (no version) reads the whole file as CheckpointV1. */
function loadCheckpoint(root: Json): { version: number; features: string[]; deployment: Json } {
  const version = typeof root.version === 'number' ? root.version : 0;
  const body = version === 0 ? root : isObject(root.checkpoint) ? root.checkpoint : {};
  const latest = isObject(body.latest) ? body.latest : {};
  return { version, features: Array.isArray(root.features) ? (root.features as string[]) : [], deployment: latest };
}

/** pkg/resource/stack/deployment.go `supportedFeatures`. */
const SUPPORTED = new Set(['refreshBeforeUpdate', 'views', 'hooks', 'taint', 'replaceWith', 'snippets-prototype', 'extensionParameterization', 'byteString']);

function pulumiViolations(root: Json): Violation[] {
  const shape =
    'checkpoint' in root || !('deployment' in root) ? loadCheckpoint(root) : { version: root.version as number, features: (root.features as string[]) ?? [], deployment: root.deployment as Json };
  const out: Violation[] = [];
  // checkpoint.go case 4 / deployment.go UnmarshalUntypedDeployment: validateSupportedFeatures.
  if (shape.version >= 4) for (const feature of shape.features) if (!SUPPORTED.has(feature)) out.push(['unsupported-feature', '', feature]);
  // migrate.UpToResourceV2 keeps urn, custom, delete, id, type, parent, protect, dependencies (provider
  // dropped); UpToResourceV3 derives propertyDependencies from dependencies (same urns, not re-reported).
  const version1 = shape.version <= 1;
  const deployment = shape.deployment;
  const manifest = isObject(deployment.manifest) ? deployment.manifest : {};
  const version = str(manifest.version);
  const magic = version === '' ? '' : createHash('sha256').update(version).digest('hex');
  if (str(manifest.magic) !== magic) out.push(['magic', '', '']);
  const resources = (Array.isArray(deployment.resources) ? deployment.resources : []) as Json[];
  const seen = new Map<string, Json[]>();
  const providers = new Set<string>();
  resources.forEach((resource, i) => {
    const urn = str(resource.urn);
    if (urn === '') out.push(['missing-urn', String(i), '']);
    const type = str(resource.type);
    if (type === '') out.push(['missing-type', urn, '']);
    if (resource.custom !== true && str(resource.id) !== '') out.push(['component-with-id', urn, '']);
    if (/^pulumi:providers:./.test(type)) providers.add(`${urn}::${str(resource.id) || UNKNOWN_ID}`);
    const provider = version1 ? '' : str(resource.provider);
    if (provider && !providers.has(provider) && resource.pendingReplacement !== true) out.push(['unknown-provider', urn, provider]);
    const deps: Array<[string, string]> = [];
    if (str(resource.parent)) deps.push(['parent', str(resource.parent)]);
    for (const d of (resource.dependencies as unknown[]) ?? []) if (str(d)) deps.push(['dependency', str(d)]);
    if (!version1) {
      for (const list of Object.values((resource.propertyDependencies as Json) ?? {})) for (const d of (list as unknown[]) ?? []) if (str(d)) deps.push(['propertyDependency', str(d)]);
      if (str(resource.deletedWith)) deps.push(['deletedWith', str(resource.deletedWith)]);
      for (const d of (resource.replaceWith as unknown[]) ?? []) if (str(d)) deps.push(['replaceWith', str(d)]);
    }
    for (const [kind, target] of deps) {
      if (seen.has(target)) continue;
      const later = resources.slice(i + 1).some((other) => other.urn === target);
      out.push([`${kind} ${later ? 'comes after it' : 'missing'}`, urn, target]);
    }
    seen.set(urn, [...(seen.get(urn) ?? []), resource]);
  });
  for (const [urn, copies] of seen) {
    const deletes = copies.filter((c) => c.delete === true).length;
    if (copies.length > 1 && deletes !== copies.length - 1 && deletes !== copies.length) out.push(['duplicate', urn, '']);
  }
  return out;
}

/** Our Error diagnostics, as the oracle's tuples. */
function ourViolations(analysis: StateAnalysis): Violation[] {
  return analysis.diagnostics
    .filter((d) => d.severity === 'error')
    .map((d): Violation => {
      const data = (d.data ?? {}) as Json;
      switch (d.code) {
        case 'forward-reference':
        case 'missing-reference': {
          const urn = str(analysis.structure.resources[Number(data.from)]?.urn);
          return [`${String(data.kind)} ${d.code === 'forward-reference' ? 'comes after it' : 'missing'}`, urn, str(data.target)];
        }
        case 'unsupported-feature':
          return ['unsupported-feature', '', str(data.feature)];
        default:
          return [d.code, d.message, ''];
      }
    });
}

const sortViolations = (list: Violation[]) => [...list].sort((a, b) => a.join('|').localeCompare(b.join('|')));

const files = readdirSync(REAL)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('real Pulumi state files (test/fixtures/state/real), Pulumi as the oracle', () => {
  it('the set holds the valid, legacy, version-1, version-3 and version-4 files', () => {
    assert.ok(files.length >= 9, files.join(', '));
  });

  for (const file of files) {
    const text = readFileSync(join(REAL, file), 'utf8');
    const expected = pulumiViolations(JSON.parse(text) as Json);

    it(`${file}: exactly the violations of Pulumi's loader and VerifyIntegrity (pkg/resource/deploy/snapshot.go), every one`, () => {
      const analysis = analyzeState(text);
      assert.notEqual(analysis.shape, 'unknown');
      assert.deepEqual(sortViolations(ourViolations(analysis)), sortViolations(expected));
    });

    it(`${file}: no Warning in pulumi mode; Information only for declared, legacy, parent-urn and plaintext-secret findings`, () => {
      const diagnostics = analyzeState(text).diagnostics;
      assert.deepEqual(
        diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message),
        [],
      );
      const informationCodes = new Set(diagnostics.filter((d) => d.severity === 'information').map((d) => d.code));
      for (const code of informationCodes) assert.ok(['newer-engine-property', 'legacy-property', 'parent-urn-mismatch', 'secret-in-plaintext'].includes(code), code);
      assert.ok(diagnostics.filter((d) => d.code === 'newer-engine-property').length <= 1, 'one newer-engine-property summary per file');
      assert.ok(diagnostics.filter((d) => d.code === 'legacy-property').length <= 1, 'one legacy-property summary per file');
    });
  }

  it('the valid ones come out of the quota-state process with no Error and no Warning, exit 0', () => {
    const valid = files.filter((f) => pulumiViolations(JSON.parse(readFileSync(join(REAL, f), 'utf8')) as Json).length === 0);
    assert.deepEqual(valid.length >= 3, true, valid.join(', '));
    const result = runQuotaState(['check', '--format', 'json', ...valid.map((f) => join(REAL, f))]);
    assert.equal(result.status, 0, result.stdout + result.stderr);
    const reports = JSON.parse(result.stdout) as Array<{ file: string; diagnostics: Array<{ severity: string; code: string }> }>;
    assert.equal(reports.length, valid.length);
    for (const report of reports)
      assert.deepEqual(
        report.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning'),
        [],
        report.file,
      );
  });

  it('the files with violations make the process exit 1 with exactly the analysis of each', () => {
    const invalid = files.filter((f) => pulumiViolations(JSON.parse(readFileSync(join(REAL, f), 'utf8')) as Json).length > 0);
    const result = runQuotaState(['check', '--format', 'json', ...invalid.map((f) => join(REAL, f))]);
    assert.equal(result.status, 1, result.stderr);
    const reports = JSON.parse(result.stdout) as Array<{ file: string; diagnostics: Array<{ code: string; severity: string; message: string }> }>;
    for (const report of reports) {
      const file = invalid.find((f) => report.file.endsWith(f))!;
      const expected = analyzeState(readFileSync(join(REAL, file), 'utf8')).diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message }));
      assert.deepEqual(
        report.diagnostics.map((d) => ({ code: d.code, severity: d.severity, message: d.message })),
        expected,
        file,
      );
    }
  });

  it('in seed-v3 mode (--schema seed-v3) the seed schema is enforced on the same real files', () => {
    const file = join(REAL, 'pulumi-tls__examples_TPU_ts_5.0.0_stack.json');
    const result = runQuotaState(['check', '--format', 'json', '--schema', 'seed-v3', file]);
    assert.equal(result.status, 1, result.stderr);
    const [report] = JSON.parse(result.stdout) as Array<{ diagnostics: Array<{ code: string; severity: string; message: string }> }>;
    assert.ok(report.diagnostics.some((d) => d.code === 'unknown-property' && d.severity === 'error' && d.message.includes('"created"')));
    assert.equal(runQuotaState(['check', '--schema', 'strict', file]).status, 2, 'an unknown mode is a usage error');
  });
});
