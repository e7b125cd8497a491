import { strict as assert } from 'node:assert';
import { posix } from 'node:path';
import { backendUrlTarget, BackendUrlError, projectBackendUrl, resolveBackendUrl, type BackendUrlHost, type ResolvedBackendUrl } from './url';
import type { RemoteBackendUrl } from './remoteUrl';

const HOME = '/home/u';
const APP = '/home/u/work/app';

/** One case: a file tree (paths ending in `/` are folders), the argument, environment and working folder, and what comes out. */
interface Row {
  name: string;
  argument?: string;
  env?: Record<string, string>;
  cwd?: string;
  files?: Record<string, string>;
  expected: { url: string; source: ResolvedBackendUrl['source']; root?: string; bucket?: string; project?: string } | { error: RegExp };
}

/** Where a remote backend's objects are: a bucket and its prefix, a database table and the key prefix. */
const placeOf = (remote: RemoteBackendUrl) => {
  switch (remote.scheme) {
    case 's3':
      return `${remote.s3.bucket}/${remote.s3.prefix}`;
    case 'gs':
      return `${remote.gs.bucket}/${remote.gs.prefix}`;
    case 'postgres':
      return `${remote.postgres.table}/${remote.postgres.prefix}`;
  }
};
const s3Of = (remote: RemoteBackendUrl | undefined) => (remote?.scheme === 's3' ? remote.s3 : undefined);

const yaml = (lines: string[]) => lines.join('\n') + '\n';
const project = (name: string, url?: string) => yaml([`name: ${name}`, 'runtime: nodejs', ...(url === undefined ? [] : ['backend:', `  url: ${url}`])]);
const credentials = (current: unknown) => JSON.stringify({ current, accounts: {} });
const NO_BACKEND = /^no backend: give --backend file:\/\/FOLDER, set PULUMI_BACKEND_URL, or run in a folder above which one holds \.pulumi\/$/;

const rows: Row[] = [
  // The order: the argument, PULUMI_BACKEND_URL, Pulumi.yaml's backend.url, credentials.json's current, the nearest folder.
  { name: 'the argument', argument: 'file:///srv/state', expected: { url: 'file:///srv/state', source: 'flag', root: '/srv/state' } },
  {
    name: 'the argument before everything else',
    argument: 'file:///srv/a',
    env: { PULUMI_BACKEND_URL: 'file:///srv/b' },
    files: { [`${APP}/Pulumi.yaml`]: project('app', 'file:///srv/c'), [`${HOME}/.pulumi/credentials.json`]: credentials('file:///srv/d') },
    expected: { url: 'file:///srv/a', source: 'flag', root: '/srv/a', project: 'app' },
  },
  {
    name: 'PULUMI_BACKEND_URL before the project',
    env: { PULUMI_BACKEND_URL: 'file:///srv/b' },
    files: { [`${APP}/Pulumi.yaml`]: project('app', 'file:///srv/c') },
    expected: { url: 'file:///srv/b', source: 'env', root: '/srv/b', project: 'app' },
  },
  {
    name: 'an empty PULUMI_BACKEND_URL is no URL',
    env: { PULUMI_BACKEND_URL: '' },
    files: { [`${APP}/Pulumi.yaml`]: project('app', 'file:///srv/c') },
    expected: { url: 'file:///srv/c', source: 'project', root: '/srv/c', project: 'app' },
  },
  {
    name: "the project's backend.url before credentials.json",
    files: { [`${APP}/Pulumi.yaml`]: project('app', 'file:///srv/c'), [`${HOME}/.pulumi/credentials.json`]: credentials('file:///srv/d') },
    expected: { url: 'file:///srv/c', source: 'project', root: '/srv/c', project: 'app' },
  },
  {
    name: "a relative backend.url is read in the project's folder, the nearest Pulumi.yaml above the working folder",
    cwd: `${APP}/src/deep`,
    files: { [`${APP}/Pulumi.yaml`]: project('app', 'file://state'), '/home/u/work/Pulumi.yaml': project('outer', 'file:///srv/outer') },
    expected: { url: 'file://state', source: 'project', root: `${APP}/state`, project: 'app' },
  },
  { name: 'Pulumi.yml too', files: { [`${APP}/Pulumi.yml`]: project('yml', 'file:///srv/y') }, expected: { url: 'file:///srv/y', source: 'project', root: '/srv/y', project: 'yml' } },
  {
    name: 'Pulumi.yaml before Pulumi.yml in one folder',
    files: { [`${APP}/Pulumi.yaml`]: project('yaml', 'file:///srv/a'), [`${APP}/Pulumi.yml`]: project('yml', 'file:///srv/b') },
    expected: { url: 'file:///srv/a', source: 'project', root: '/srv/a', project: 'yaml' },
  },
  {
    name: 'a flow mapping, quoted, with a comment',
    files: { [`${APP}/Pulumi.yaml`]: yaml(['name: "flow"', "backend: { url: 'file:///srv/flow' } # here"]) },
    expected: { url: 'file:///srv/flow', source: 'project', root: '/srv/flow', project: 'flow' },
  },
  {
    name: 'a project without backend.url names only the project',
    files: { [`${APP}/Pulumi.yaml`]: project('app'), [`${HOME}/.pulumi/credentials.json`]: credentials('file:///srv/d') },
    expected: { url: 'file:///srv/d', source: 'credentials', root: '/srv/d', project: 'app' },
  },
  {
    name: 'backend as a string, a url that is not a string, a name that is not one: none is taken',
    argument: 'file:///srv/a',
    files: { [`${APP}/Pulumi.yaml`]: yaml(['name: 12', 'backend: file:///srv/no']) },
    expected: { url: 'file:///srv/a', source: 'flag', root: '/srv/a' },
  },
  {
    name: 'a backend.url that is a number is none',
    files: { [`${APP}/Pulumi.yaml`]: yaml(['name: app', 'backend:', '  url: 12']), '/home/u/work/.pulumi/meta.yaml': 'version: 1\n' },
    expected: { url: 'file:///home/u/work', source: 'folder', root: '/home/u/work', project: 'app' },
  },
  {
    name: 'a Pulumi.yaml that is no mapping names nothing',
    argument: 'file:///srv/a',
    files: { [`${APP}/Pulumi.yaml`]: 'just words\n' },
    expected: { url: 'file:///srv/a', source: 'flag', root: '/srv/a' },
  },
  { name: 'an empty Pulumi.yaml names nothing', argument: 'file:///srv/a', files: { [`${APP}/Pulumi.yaml`]: '' }, expected: { url: 'file:///srv/a', source: 'flag', root: '/srv/a' } },
  {
    name: 'malformed YAML is refused, whatever else is given',
    argument: 'file:///srv/a',
    files: { [`${APP}/Pulumi.yaml`]: 'name: [app\n' },
    expected: { error: /^\/home\/u\/work\/app\/Pulumi\.yaml: not valid YAML: .+/ },
  },
  {
    name: 'a duplicate key is malformed YAML',
    files: { [`${APP}/Pulumi.yaml`]: yaml(['name: a', 'name: b']) },
    expected: { error: /^\/home\/u\/work\/app\/Pulumi\.yaml: not valid YAML: Map keys must be unique at line 2, column 1:$/ },
  },
  // credentials.json
  {
    name: "credentials.json's current, with ~",
    files: { [`${HOME}/.pulumi/credentials.json`]: credentials('file://~/states') },
    expected: { url: 'file://~/states', source: 'credentials', root: '/home/u/states' },
  },
  {
    name: 'malformed credentials.json is no URL',
    files: { [`${HOME}/.pulumi/credentials.json`]: '{"current": ', [`${APP}/.pulumi/stacks/`]: '' },
    expected: { url: `file://${APP}`, source: 'folder', root: APP },
  },
  {
    name: 'an empty current is no URL',
    files: { [`${HOME}/.pulumi/credentials.json`]: credentials(''), [`${APP}/.pulumi/stacks/`]: '' },
    expected: { url: `file://${APP}`, source: 'folder', root: APP },
  },
  {
    name: 'a current that is not a string is no URL',
    files: { [`${HOME}/.pulumi/credentials.json`]: credentials(7), [`${APP}/.pulumi/stacks/`]: '' },
    expected: { url: `file://${APP}`, source: 'folder', root: APP },
  },
  {
    name: 'credentials.json that is null is no URL',
    files: { [`${HOME}/.pulumi/credentials.json`]: 'null', [`${APP}/.pulumi/stacks/`]: '' },
    expected: { url: `file://${APP}`, source: 'folder', root: APP },
  },
  {
    name: "credentials.json's Pulumi Cloud is refused",
    files: { [`${HOME}/.pulumi/credentials.json`]: credentials('https://api.pulumi.com') },
    expected: { error: /^https:\/\/api\.pulumi\.com is a Pulumi Cloud backend; quota-state reads DIY backends only \(file:\/\/…\)$/ },
  },
  // The nearest folder holding .pulumi/
  { name: 'the working folder holding .pulumi/meta.yaml', files: { [`${APP}/.pulumi/meta.yaml`]: 'version: 1\n' }, expected: { url: `file://${APP}`, source: 'folder', root: APP } },
  {
    name: 'the nearest folder up the tree holding .pulumi/stacks/',
    cwd: `${APP}/a/b`,
    files: { '/home/u/work/.pulumi/stacks/': '', '/srv/.pulumi/meta.yaml': '' },
    expected: { url: 'file:///home/u/work', source: 'folder', root: '/home/u/work' },
  },
  { name: 'a .pulumi/ with neither marker is no backend', files: { [`${APP}/.pulumi/plugins/`]: '' }, expected: { error: NO_BACKEND } },
  { name: "the home folder's .pulumi is never found, only named", files: { [`${HOME}/.pulumi/stacks/`]: '', [`${HOME}/.pulumi/meta.yaml`]: '' }, expected: { error: NO_BACKEND } },
  { name: 'above the home folder, found', cwd: APP, files: { '/home/.pulumi/meta.yaml': '' }, expected: { url: 'file:///home', source: 'folder', root: '/home' } },
  { name: 'nothing at all', expected: { error: NO_BACKEND } },
  // file:// forms
  { name: 'file://~ is the home folder', argument: 'file://~', expected: { url: 'file://~', source: 'flag', root: HOME } },
  { name: 'file://~/x', argument: 'file://~/x/y', expected: { url: 'file://~/x/y', source: 'flag', root: '/home/u/x/y' } },
  { name: 'file://~user is a relative folder named so', argument: 'file://~user', expected: { url: 'file://~user', source: 'flag', root: `${APP}/~user` } },
  { name: 'an absolute path is kept as written', argument: 'file:///srv/state/', expected: { url: 'file:///srv/state/', source: 'flag', root: '/srv/state/' } },
  { name: 'percent escapes are decoded', argument: 'file:///srv/my%20state', expected: { url: 'file:///srv/my%20state', source: 'flag', root: '/srv/my state' } },
  { name: 'the query is dropped', argument: 'file:///srv/state?no_lock=true', expected: { url: 'file:///srv/state?no_lock=true', source: 'flag', root: '/srv/state' } },
  { name: 'a relative path is read in the working folder', argument: 'file://../state', expected: { url: 'file://../state', source: 'flag', root: '/home/u/work/state' } },
  { name: 'a relative PULUMI_BACKEND_URL too', env: { PULUMI_BACKEND_URL: 'file://./state' }, expected: { url: 'file://./state', source: 'env', root: `${APP}/state` } },
  { name: 'a bad escape is refused', argument: 'file:///srv/100%', expected: { error: /^file:\/\/\/srv\/100% is not a valid file:\/\/ URL \(a % not followed by two hex digits\)$/ } },
  // Not a URL, other schemes
  { name: 'a bare folder is not a URL', argument: 'state-folder', expected: { error: /^"state-folder" is not a backend URL; a folder is named file:\/\/\/home\/u\/work\/app\/state-folder$/ } },
  {
    name: "a bare backend.url is named in the project's folder",
    cwd: `${APP}/src`,
    files: { [`${APP}/Pulumi.yaml`]: project('app', 'state') },
    expected: { error: /^"state" is not a backend URL; a folder is named file:\/\/\/home\/u\/work\/app\/state$/ },
  },
  { name: 'an empty argument is not a URL', argument: '', expected: { error: /^"" is not a backend URL; a folder is named file:\/\/\/home\/u\/work\/app$/ } },
  { name: 'Pulumi Cloud', argument: 'https://api.pulumi.com', expected: { error: /^https:\/\/api\.pulumi\.com is a Pulumi Cloud backend/ } },
  { name: 'a self-hosted Pulumi Cloud over http', env: { PULUMI_BACKEND_URL: 'http://pulumi.internal' }, expected: { error: /^http:\/\/pulumi\.internal is a Pulumi Cloud backend/ } },
  {
    name: 'a scheme Pulumi has no backend for',
    argument: 'sftp://host/state',
    expected: { error: /^sftp:\/\/host\/state: sftp:\/\/ backends are not read; quota-state reads file:\/\/, s3:\/\/(, [a-z]+:\/\/)* backends$/ },
  },
  { name: 'gs:// with a prefix', argument: 'gs://bucket/p', expected: { url: 'gs://bucket/p', source: 'flag', bucket: 'bucket/p/' } },
  { name: "a gs:// bucket's unknown parameter is gocloud's error", argument: 'gs://b?region=x', expected: { error: /^gs:\/\/b\?region=x: unknown query parameter "region"/ } },
  { name: 'FILE:// is not file://', argument: 'FILE:///srv/state', expected: { error: /^FILE:\/\/\/srv\/state: FILE:\/\/ backends are not read/ } },
  // Buckets
  {
    name: 's3:// with a prefix and a region',
    argument: 's3://bucket/team/state?region=eu-west-1',
    expected: { url: 's3://bucket/team/state?region=eu-west-1', source: 'flag', bucket: 'bucket/team/state/' },
  },
  { name: 'S3:// as Go lowercases the scheme', env: { PULUMI_BACKEND_URL: 'S3://bucket' }, expected: { url: 'S3://bucket', source: 'env', bucket: 'bucket/' } },
  {
    name: 'an s3:// backend.url is the same bucket wherever it is read',
    cwd: `${APP}/src`,
    files: { [`${APP}/Pulumi.yaml`]: project('app', 's3://b/p') },
    expected: { url: 's3://b/p', source: 'project', bucket: 'b/p/', project: 'app' },
  },
  { name: "a bucket's unknown parameter is Pulumi's error", argument: 's3://b?colour=red', expected: { error: /^s3:\/\/b\?colour=red: unknown query parameter "colour"/ } },
  { name: 's3: without // has no bucket', argument: 's3:bucket', expected: { error: /^s3:bucket: no bucket name/ } },
  // PostgreSQL: the URL as messages name it has no password; the table and the key prefix (the URL's path).
  {
    name: 'postgres:// with a password: named without it',
    argument: 'postgres://u:secret@db:5433/dbg?sslmode=disable&table=state',
    expected: { url: 'postgres://u@db:5433/dbg?sslmode=disable&table=state', source: 'flag', bucket: 'state/dbg/' },
  },
  { name: 'POSTGRES:// as Go lowercases the scheme', env: { PULUMI_BACKEND_URL: 'POSTGRES://db/d' }, expected: { url: 'POSTGRES://db/d', source: 'env', bucket: 'pulumi_state/d/' } },
  { name: "a postgres:// URL lib/pq refuses is Pulumi's error", argument: 'postgres://db/d?sslmode=on', expected: { error: /^postgres:\/\/db\/d\?sslmode=on: wrong value for "sslmode"/ } },
  { name: 'a bare postgres:// is refused as real Pulumi fails on it', argument: 'postgres://', expected: { error: /without a host, a database or a user/ } },
  { name: 'postgresql:// is no DIY backend of Pulumi', argument: 'postgresql://db/d', expected: { error: /^postgresql:\/\/db\/d: postgresql:\/\/ backends are not read/ } },
];

/** A host over `files` (a path ending in `/` is a folder, holding what is under it too). */
function hostOf(row: Row): BackendUrlHost {
  const files = row.files ?? {};
  const paths = Object.keys(files);
  return {
    cwd: row.cwd ?? APP,
    env: row.env ?? {},
    home: HOME,
    path: posix,
    readText: async (path) => (Object.hasOwn(files, path) ? files[path] : undefined),
    exists: async (path) => paths.some((known) => known === path || known === `${path}/` || known.startsWith(`${path}/`)),
  };
}

describe('resolveBackendUrl: which backend, in Pulumi order', () => {
  for (const row of rows) {
    it(row.name, async () => {
      const { expected } = row;
      if ('error' in expected) {
        await assert.rejects(resolveBackendUrl(row.argument, hostOf(row)), (error: unknown) => {
          assert.ok(error instanceof BackendUrlError, String(error));
          assert.match(error.message, expected.error);
          return true;
        });
        return;
      }
      const { remote, ...resolved } = await resolveBackendUrl(row.argument, hostOf(row));
      assert.deepEqual({ ...resolved, ...(remote ? { bucket: placeOf(remote) } : {}) }, expected);
    });
  }

  it('reads the bucket with the environment Pulumi reads it with', async () => {
    const url = 's3://b?endpoint=minio:9000';
    const defaulted = await resolveBackendUrl(url, hostOf({ name: '', expected: { error: /./ } }));
    assert.equal(s3Of(defaulted.remote)?.requestChecksumCalculation, 'when_required');
    const set = await resolveBackendUrl(url, hostOf({ name: '', env: { AWS_REQUEST_CHECKSUM_CALCULATION: 'when_supported' }, expected: { error: /./ } }));
    assert.equal(s3Of(set.remote)?.requestChecksumCalculation, undefined);
  });

  it('a project file that cannot be read is said so', async () => {
    const host: BackendUrlHost = { ...hostOf({ name: '', expected: { error: /./ } }), readText: async () => Promise.reject(new Error('EISDIR: illegal operation on a directory, read\nmore')) };
    await assert.rejects(resolveBackendUrl('file:///x', host), { message: '/home/u/work/app/Pulumi.yaml: not valid YAML: EISDIR: illegal operation on a directory, read' });
  });
});

describe('backendUrlTarget and projectBackendUrl: the pieces the Backends view places itself', () => {
  const isAbsolute = (path: string) => path.startsWith('/');
  const targets: Array<[string, ReturnType<typeof backendUrlTarget>['folder'] | RegExp]> = [
    ['file://~', { path: '', from: 'home' }],
    ['file://~/state', { path: '/state', from: 'home' }],
    ['file:///srv/a%2Fb', { path: '/srv/a/b', from: 'absolute' }],
    ['file://state?x=1', { path: 'state', from: 'base' }],
    ['state', /^"state" is not a backend URL$/],
    ['https://app.pulumi.com', /Pulumi Cloud/],
    ['ftp://b', /ftp:\/\/ backends are not read; quota-state reads file:\/\/, s3:\/\//],
    ['file://%', /not a valid file:\/\/ URL/],
  ];
  for (const [url, expected] of targets) {
    it(url, () => {
      if (expected instanceof RegExp)
        assert.throws(
          () => backendUrlTarget(url, {}, isAbsolute),
          (error: unknown) => error instanceof BackendUrlError && expected.test(error.message),
        );
      else assert.deepEqual(backendUrlTarget(url, {}, isAbsolute), { folder: expected });
    });
  }

  it('a bucket', () => {
    assert.equal(s3Of(backendUrlTarget('s3://b/p', {}, isAbsolute).remote)?.prefix, 'p/');
  });

  it("a Pulumi.yaml's name and backend.url", () => {
    assert.deepEqual(projectBackendUrl(project('app', 'file://x')), { name: 'app', url: 'file://x' });
    assert.deepEqual(projectBackendUrl('backend:\n  url: s3://b # the team bucket\n'), { url: 's3://b' });
    assert.deepEqual(projectBackendUrl('- a list\n'), {});
    assert.throws(() => projectBackendUrl('name: [\n'));
  });
});
