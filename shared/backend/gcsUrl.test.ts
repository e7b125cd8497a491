/**
 * Reading a `gs://` DIY backend URL as Pulumi v3.274.1 does (gcsUrl.ts): Go's url.Parse, gocloud's
 * applyPrefixParam and gcsblob URLOpener.forParams (gocloud v0.46.1-0.20260810195832-b5401c07b5f1),
 * Pulumi's credential order (authhelpers/gcpauth.go), STORAGE_EMULATOR_HOST as gcsblob openBucket
 * reads it, the path as a key prefix; and gcsblob's escapeKey/unescapeKey on object keys. Every
 * refusal and acceptance here was checked with Pulumi's GoogleCredentialsMux opening the URL (v3.274.1),
 * except the ones refused up front where Pulumi fails later (key=, a port or IP literal as host).
 */
import { strict as assert } from 'node:assert';
import { gcsObjectKey, gcsObjectName, GcsUrlError, parseGcsBackendUrl } from './gcsUrl';

/** Asserts that parsing fails with a GcsUrlError whose message matches. */
function refuses(url: string, message: RegExp, environment = {}): void {
  assert.throws(
    () => parseGcsBackendUrl(url, environment),
    (error: unknown) => error instanceof GcsUrlError && message.test(error.message),
  );
}

describe('a gs:// backend URL, read as Pulumi reads it', () => {
  it('reads a bare bucket: no prefix, application default credentials', () => {
    assert.deepEqual(parseGcsBackendUrl('gs://my-state'), { shown: 'gs://my-state', bucket: 'my-state', prefix: '', credentials: 'application-default', ignored: [] });
  });

  it('reads the emulator form: every request to http://HOST, without credentials', () => {
    assert.deepEqual(parseGcsBackendUrl('gs://hist', { STORAGE_EMULATOR_HOST: '127.0.0.1:4443', GOOGLE_OAUTH_ACCESS_TOKEN: 'x' }), {
      shown: 'gs://hist',
      bucket: 'hist',
      prefix: '',
      emulatorEndpoint: 'http://127.0.0.1:4443',
      credentials: 'none',
      ignored: [],
    });
  });

  describe('the key prefix', () => {
    const prefixOf = (url: string) => parseGcsBackendUrl(url).prefix;
    const cases: Array<[string, string]> = [
      ['gs://b/some/path', 'some/path/'],
      ['gs://b/some/path/', 'some/path/'],
      ['gs://b//leading', 'leading/'],
      ['gs://b/', ''],
      // prefix= is gocloud's PrefixedBucket, outside the path's.
      ['gs://b?prefix=outer/', 'outer/'],
      ['gs://b/inner?prefix=outer/', 'outer/inner/'],
      // gocloud takes prefix= as it is: without a slash it is a plain string prefix.
      ['gs://b/inner?prefix=outer', 'outerinner/'],
      ['gs://b/a%20b', 'a b/'],
      // Go's url.Values.Get: the first value.
      ['gs://b?prefix=one/&prefix=two/', 'one/'],
    ];
    for (const [url, prefix] of cases) it(`${url} → ${JSON.stringify(prefix)}`, () => assert.equal(prefixOf(url), prefix));
  });

  describe('credentials in Pulumi order (GoogleCredentialsMux)', () => {
    const cases: Array<[string, Record<string, string>, string]> = [
      ['GOOGLE_CREDENTIALS first', { GOOGLE_CREDENTIALS: '{}', GOOGLE_OAUTH_ACCESS_TOKEN: 't' }, 'GOOGLE_CREDENTIALS'],
      ['then GOOGLE_OAUTH_ACCESS_TOKEN', { GOOGLE_OAUTH_ACCESS_TOKEN: 't' }, 'GOOGLE_OAUTH_ACCESS_TOKEN'],
      ['an empty variable is no credential (os.Getenv != "")', { GOOGLE_CREDENTIALS: '', GOOGLE_OAUTH_ACCESS_TOKEN: '' }, 'application-default'],
      ['then application default credentials', {}, 'application-default'],
    ];
    for (const [title, environment, source] of cases) it(title, () => assert.equal(parseGcsBackendUrl('gs://b', environment).credentials, source));
    it('anonymous=true and access_id=- make the client unauthenticated (gcp.NewAnonymousHTTPClient)', () => {
      for (const url of ['gs://b?anonymous=true', 'gs://b?anonymous=1', 'gs://b?access_id=-', 'gs://b?anonymous=false&access_id=-']) {
        assert.equal(parseGcsBackendUrl(url, { GOOGLE_OAUTH_ACCESS_TOKEN: 't' }).credentials, 'none', url);
      }
      assert.equal(parseGcsBackendUrl('gs://b?anonymous=F', { GOOGLE_OAUTH_ACCESS_TOKEN: 't' }).credentials, 'GOOGLE_OAUTH_ACCESS_TOKEN');
    });
    it('the parsed URL never holds a credential', () => {
      const parsed = parseGcsBackendUrl('gs://b', { GOOGLE_CREDENTIALS: '{"private_key":"SECRET-KEY"}' });
      assert.doesNotMatch(JSON.stringify(parsed), /SECRET-KEY/);
    });
  });

  it('names the parameters Pulumi accepts but that change no read or write', () => {
    assert.deepEqual(parseGcsBackendUrl('gs://b?access_id=me@example.iam.gserviceaccount.com&private_key_path=/k.pem&universe_domain=example.com').ignored, [
      'access_id',
      'private_key_path',
      'universe_domain',
    ]);
    // An empty private_key_path still clears a default key in forParams; universe_domain="" is still a name.
    assert.deepEqual(parseGcsBackendUrl('gs://b?private_key_path=&access_id=').ignored, ['private_key_path']);
  });

  describe('refusals, with the reason', () => {
    const cases: Array<[string, RegExp, Record<string, string>?]> = [
      ['gs://b?region=us', /unknown query parameter "region" \(Pulumi accepts: access_id, private_key_path, anonymous, universe_domain, prefix\)/],
      ['gs://b?endpoint=http://127.0.0.1:1', /unknown query parameter "endpoint"/],
      // An empty prefix= is not gocloud's: forParams refuses it as any other name.
      ['gs://b?prefix=', /unknown query parameter "prefix" \(it is empty/],
      ['gs://b?key=.pulumi/meta.yaml', /query parameter "key" makes gocloud read and write one object/],
      ['gs://b?anonymous=yes', /invalid value for "anonymous": "yes" is not a boolean/],
      ['gs://?anonymous=true', /no bucket name \(the form is gs:\/\/BUCKET\[\/prefix\]\)/],
      ['gs:///path', /no bucket name/],
      ['gs://b:443', /"b:443" is not a bucket name/],
      ['gs://[::1]/x', /"\[::1\]" is not a bucket name/],
      ['s3://b', /not a gs:\/\/ URL/],
      ['gs://b/%zz', /not a URL Pulumi can read: invalid URL escape "%zz"/],
      ['gs://b', /STORAGE_EMULATOR_HOST must be HOST:PORT without a scheme/, { STORAGE_EMULATOR_HOST: 'http://127.0.0.1:4443' }],
    ];
    for (const [url, message, environment] of cases) it(`${url}${environment ? ` with ${JSON.stringify(environment)}` : ''}`, () => refuses(url, message, environment));
  });

  it('the scheme in any case, as Go lowercases it', () => {
    assert.equal(parseGcsBackendUrl('GS://b/p').prefix, 'p/');
  });

  it('messages show a password in the URL as xxxxx', () => {
    assert.equal(parseGcsBackendUrl('gs://user:hunter2@b').shown, 'gs://user:xxxxx@b');
    refuses('gs://user:hunter2@b?bad=1', /^gs:\/\/user:xxxxx@b\?bad=1: unknown query parameter "bad"/);
  });
});

describe("object keys as gcsblob escapes them (escapeKey / unescapeKey, gocloud's HexEscape)", () => {
  const cases: Array<[string, string]> = [
    ['.pulumi/stacks/app/dev.json', '.pulumi/stacks/app/dev.json'],
    ['a/../b', 'a/..__0x2f__b'],
    ['line\nbreak\r', 'line__0xa__break__0xd__'],
    // Text that reads as an escape sequence is escaped itself, so no two names share a key.
    ['x__0x2f__y', 'x__0x5f___0x2f__y'],
    ['__0xzz__', '__0xzz__'],
  ];
  for (const [name, key] of cases) {
    it(`${JSON.stringify(name)} ↔ ${JSON.stringify(key)}`, () => {
      assert.equal(gcsObjectKey(name), key);
      assert.equal(gcsObjectName(key), name);
    });
  }
});
