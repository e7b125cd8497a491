/**
 * Reading an `azblob://` DIY backend URL as Pulumi v3.274.1 does (azblobUrl.ts): Go's url.Parse,
 * gocloud's applyPrefixParam, azureblob's withOverrides, NewServiceURL and newCredInfoFromEnv
 * (gocloud v0.46.1-0.20260810195832-b5401c07b5f1), and the path as a key prefix.
 */
import { strict as assert } from 'node:assert';
import { AzblobUrlError, isAzblobUrl, parseAzblobBackendUrl } from './azblobUrl';

const KEY_ENV = { AZURE_STORAGE_ACCOUNT: 'acct', AZURE_STORAGE_KEY: 'a2V5' };

function refuses(url: string, message: RegExp, env: Record<string, string> = KEY_ENV): void {
  assert.throws(
    () => parseAzblobBackendUrl(url, env),
    (error: unknown) => error instanceof AzblobUrlError && message.test(error.message),
  );
}

describe('an azblob:// backend URL, read as Pulumi reads it', () => {
  it('reads the Azurite form: the account after the domain, over http', () => {
    assert.deepEqual(parseAzblobBackendUrl('azblob://state?localemu=true&domain=127.0.0.1:10000&protocol=http', { AZURE_STORAGE_ACCOUNT: 'devstoreaccount1', AZURE_STORAGE_KEY: 'a2V5' }), {
      shown: 'azblob://state?localemu=true&domain=127.0.0.1:10000&protocol=http',
      container: 'state',
      prefix: '',
      accountName: 'devstoreaccount1',
      serviceUrl: 'http://127.0.0.1:10000/devstoreaccount1',
      credential: { kind: 'sharedKey', accountName: 'devstoreaccount1' },
    });
  });

  it("reads a bare container: Azure's public cloud over https", () => {
    assert.deepEqual(parseAzblobBackendUrl('azblob://my-state', KEY_ENV), {
      shown: 'azblob://my-state',
      container: 'my-state',
      prefix: '',
      accountName: 'acct',
      serviceUrl: 'https://acct.blob.core.windows.net',
      credential: { kind: 'sharedKey', accountName: 'acct' },
    });
  });

  it('the scheme in any case, as Go lowercases it', () => {
    assert.ok(isAzblobUrl('AZBLOB://c'));
    assert.ok(!isAzblobUrl('s3://c'));
    assert.equal(parseAzblobBackendUrl('AzBlob://c', KEY_ENV).container, 'c');
  });

  describe('the service URL (NewServiceURL)', () => {
    const serviceOf = (url: string, env: Record<string, string> = KEY_ENV) => parseAzblobBackendUrl(url, env).serviceUrl;
    it('a domain starting with 127.0.0.1 or localhost is an emulator even without localemu', () => {
      assert.equal(serviceOf('azblob://c?domain=127.0.0.1:10000'), 'https://127.0.0.1:10000/acct');
      assert.equal(serviceOf('azblob://c?domain=localhost:10000&protocol=http'), 'http://localhost:10000/acct');
    });
    it('localemu=true on any domain; cdn drops the account; localemu wins over cdn', () => {
      assert.equal(serviceOf('azblob://c?domain=emu.test:10000&localemu=1'), 'https://emu.test:10000/acct');
      assert.equal(serviceOf('azblob://c?domain=cdn.example.net&cdn=true'), 'https://cdn.example.net');
      assert.equal(serviceOf('azblob://c?domain=emu.test&cdn=true&localemu=T'), 'https://emu.test/acct');
      assert.equal(serviceOf('azblob://c?domain=blob.core.usgovcloudapi.net'), 'https://acct.blob.core.usgovcloudapi.net');
    });
    it('the environment gives the defaults; the URL overrides them', () => {
      const env = { ...KEY_ENV, AZURE_STORAGE_DOMAIN: 'blob.core.chinacloudapi.cn', AZURE_STORAGE_PROTOCOL: 'http' };
      assert.equal(serviceOf('azblob://c', env), 'http://acct.blob.core.chinacloudapi.cn');
      assert.equal(serviceOf('azblob://c?protocol=https&domain=d.test', env), 'https://acct.d.test');
      assert.equal(serviceOf('azblob://c?localemu=false', { ...KEY_ENV, AZURE_STORAGE_IS_LOCAL_EMULATOR: 'true', AZURE_STORAGE_DOMAIN: 'emu.test' }), 'https://acct.emu.test');
      assert.equal(serviceOf('azblob://c', { ...KEY_ENV, AZURE_STORAGE_IS_LOCAL_EMULATOR: 'true', AZURE_STORAGE_DOMAIN: 'emu.test' }), 'https://emu.test/acct');
      assert.equal(serviceOf('azblob://c', { ...KEY_ENV, AZURE_STORAGE_IS_CDN: '1', AZURE_STORAGE_DOMAIN: 'cdn.test' }), 'https://cdn.test');
      // gocloud ignores an environment boolean it cannot parse (false), where the same word in the URL is an error.
      assert.equal(serviceOf('azblob://c', { ...KEY_ENV, AZURE_STORAGE_IS_CDN: 'yes', AZURE_STORAGE_DOMAIN: 'cdn.test' }), 'https://acct.cdn.test');
    });
    it('storage_account names the account of the service URL; the shared key stays the environment account', () => {
      const target = parseAzblobBackendUrl('azblob://c?storage_account=other', KEY_ENV);
      assert.equal(target.serviceUrl, 'https://other.blob.core.windows.net');
      assert.equal(target.accountName, 'other');
      assert.deepEqual(target.credential, { kind: 'sharedKey', accountName: 'acct' });
    });
    it('a connection string gives a default account and protocol (the environment first)', () => {
      const connection = 'DefaultEndpointsProtocol=http;AccountName=fromcs;AccountKey=a2V5;BlobEndpoint=http://127.0.0.1:10000/fromcs;';
      const target = parseAzblobBackendUrl('azblob://c', { AZURE_STORAGE_CONNECTION_STRING: connection });
      assert.equal(target.serviceUrl, 'http://fromcs.blob.core.windows.net');
      assert.deepEqual(target.credential, { kind: 'connectionString', variable: 'AZURE_STORAGE_CONNECTION_STRING' });
      assert.equal(
        parseAzblobBackendUrl('azblob://c', { AZURE_STORAGEBLOB_CONNECTIONSTRING: connection, AZURE_STORAGE_ACCOUNT: 'env', AZURE_STORAGE_PROTOCOL: 'https' }).serviceUrl,
        'https://env.blob.core.windows.net',
      );
    });
  });

  describe('the credential (newCredInfoFromEnv), in its order', () => {
    const credentialOf = (env: Record<string, string>) => parseAzblobBackendUrl('azblob://c?storage_account=a', env).credential;
    it('a shared key needs both the account and the key', () => {
      assert.deepEqual(credentialOf({ AZURE_STORAGE_ACCOUNT: 'a', AZURE_STORAGE_KEY: 'k', AZURE_STORAGE_SAS_TOKEN: 'sv=1&sig=s' }), { kind: 'sharedKey', accountName: 'a' });
      assert.deepEqual(credentialOf({ AZURE_STORAGE_KEY: 'k', AZURE_STORAGE_SAS_TOKEN: 'sv=1&sig=s' }), { kind: 'sas' });
    });
    it('then a SAS token, then a connection string (either name), then the default chain', () => {
      assert.deepEqual(credentialOf({ AZURE_STORAGE_SAS_TOKEN: 'sv=1&sig=s', AZURE_STORAGE_CONNECTION_STRING: 'AccountName=a' }), { kind: 'sas' });
      assert.deepEqual(credentialOf({ AZURE_STORAGE_CONNECTION_STRING: 'AccountName=a', AZURE_STORAGEBLOB_CONNECTIONSTRING: 'AccountName=b' }), {
        kind: 'connectionString',
        variable: 'AZURE_STORAGE_CONNECTION_STRING',
      });
      assert.deepEqual(credentialOf({ AZURE_STORAGEBLOB_CONNECTIONSTRING: 'AccountName=b' }), { kind: 'connectionString', variable: 'AZURE_STORAGEBLOB_CONNECTIONSTRING' });
      assert.deepEqual(credentialOf({ AZURE_STORAGE_ACCOUNT: 'a' }), { kind: 'default' });
      assert.deepEqual(credentialOf({}), { kind: 'default' });
    });
  });

  describe('the key prefix', () => {
    const prefixOf = (url: string) => parseAzblobBackendUrl(url, KEY_ENV).prefix;
    it('the path with a trailing slash, leading slashes dropped', () => {
      assert.equal(prefixOf('azblob://c/some/path'), 'some/path/');
      assert.equal(prefixOf('azblob://c/some/path/'), 'some/path/');
      assert.equal(prefixOf('azblob://c//x'), 'x/');
      assert.equal(prefixOf('azblob://c/'), '');
      assert.equal(prefixOf('azblob://c/with%20space'), 'with space/');
    });
    it('prefix= outside the path, as gocloud nests its PrefixedBucket', () => {
      assert.equal(prefixOf('azblob://c/inner?prefix=outer/'), 'outer/inner/');
      assert.equal(prefixOf('azblob://c?prefix=outer'), 'outer');
      assert.equal(prefixOf('azblob://c?prefix=a&prefix=b'), 'a', 'the first value; the mux deletes them all');
    });
  });

  describe('refusals, with the name and what Pulumi accepts', () => {
    it('an unknown parameter lists the accepted ones', () => {
      refuses('azblob://c?region=x', /^azblob:\/\/c\?region=x: unknown query parameter "region" \(Pulumi accepts: domain, protocol, cdn, localemu, storage_account, prefix, key\)$/);
    });
    it('an empty prefix= stays in the query and is unknown to azureblob', () => {
      refuses('azblob://c?prefix=', /query parameter "prefix" is empty/);
      refuses('azblob://c?domain=d.test&prefix=', /query parameter "prefix" is empty/);
    });
    it('key= (one object as the whole container)', () => refuses('azblob://c?key=x', /query parameter "key" makes gocloud read and write one object/));
    it('a parameter given twice', () => refuses('azblob://c?domain=a&domain=b', /query parameter "domain" is given 2 times/));
    it('a boolean Go does not parse', () => {
      refuses('azblob://c?localemu=yes', /invalid value for "localemu": "yes" is not a boolean/);
      refuses('azblob://c?cdn=', /invalid value for "cdn": "" is not a boolean/);
    });
    it('a protocol other than http and https', () => refuses('azblob://c?protocol=ftp', /invalid protocol "ftp" \(http or https\)/));
    it('no account anywhere', () => refuses('azblob://c', /no storage account: set AZURE_STORAGE_ACCOUNT/, {}));
    it('no container', () => refuses('azblob:///path', /no container name \(the form is azblob:\/\/CONTAINER/));
    it('a domain that makes no URL', () => refuses('azblob://c?domain=a%20b', /the service URL https:\/\/acct\.a b is not a URL/));
    it('not an azblob URL, or not a URL Go parses', () => {
      refuses('s3://c', /not an azblob:\/\/ URL/);
      refuses('azblob://c/%zz', /not a URL Pulumi can read: invalid URL escape "%zz"/);
    });
    it('messages never show a password or a SAS signature', () => {
      refuses('azblob://user:hunter2@c?sv=2020&sig=SECRETSIG', /^azblob:\/\/user:xxxxx@c\?sv=2020&sig=xxxxx: unknown query parameter "sv"/);
    });
  });
});
