/**
 * Reading an `s3://` DIY backend URL as Pulumi v3.274.1 does (shared/backend/s3Url.ts):
 * Go's url.Parse, Pulumi's translateLegacyS3Params, gocloud's applyPrefixParam, s3blob
 * OpenBucketURL and aws V2ConfigFromURLParams, and the path as a key prefix. The expected values
 * were checked against the real Go code (gocloud v0.46.1-0.20260810195832-b5401c07b5f1,
 * aws-sdk-go-v2 s3 v1.106.0) opening each URL and recording the request it sends.
 */
import { strict as assert } from 'node:assert';
import { isObjectStorageUrl, parseS3BackendUrl, S3UrlError } from '../../shared/backend/s3Url';

/** Asserts that parsing fails with an S3UrlError whose message matches. */
function refuses(url: string, message: RegExp, environment = {}): void {
  assert.throws(
    () => parseS3BackendUrl(url, environment),
    (error: unknown) => error instanceof S3UrlError && message.test(error.message),
  );
}

const GO_TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const GO_FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

describe('an s3:// backend URL, read as Pulumi reads it', () => {
  it('reads the MinIO form', () => {
    assert.deepEqual(parseS3BackendUrl('s3://bucket?endpoint=http://127.0.0.1:9000&s3ForcePathStyle=true&region=us-east-1'), {
      url: 's3://bucket?endpoint=http://127.0.0.1:9000&s3ForcePathStyle=true&region=us-east-1',
      bucket: 'bucket',
      prefix: '',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      disableHttps: false,
      forcePathStyle: true,
      anonymous: false,
      useDualstack: false,
      useFips: false,
      useAccelerate: false,
      requestChecksumCalculation: 'when_required',
      ignored: [],
    });
  });

  it('reads a bare bucket with every default', () => {
    assert.deepEqual(parseS3BackendUrl('s3://my-state'), {
      url: 's3://my-state',
      bucket: 'my-state',
      prefix: '',
      disableHttps: false,
      forcePathStyle: false,
      anonymous: false,
      useDualstack: false,
      useFips: false,
      useAccelerate: false,
      ignored: [],
    });
  });

  describe('the key prefix', () => {
    const prefixOf = (url: string) => parseS3BackendUrl(url).prefix;
    it('takes the path with a trailing slash', () => {
      assert.equal(prefixOf('s3://b/some/path'), 'some/path/');
      assert.equal(prefixOf('s3://b/some/path/'), 'some/path/');
      assert.equal(prefixOf('s3://b/team/state?region=eu-west-1'), 'team/state/');
    });
    it('is empty for no path or a lone slash', () => {
      assert.equal(prefixOf('s3://b'), '');
      assert.equal(prefixOf('s3://b/'), '');
      assert.equal(prefixOf('s3://b///'), '');
    });
    it('drops only the leading slashes (strings.TrimLeft)', () => {
      assert.equal(prefixOf('s3://b//a//c'), 'a//c/');
    });
    it('is percent-decoded as Go decodes a path ("+" stays "+")', () => {
      assert.equal(prefixOf('s3://b/a%20b/c%2Fd'), 'a b/c/d/');
      assert.equal(prefixOf('s3://b/a+b/%C3%A9t%C3%A9'), 'a+b/été/');
    });
    it("puts gocloud's prefix= outside the path's prefix", () => {
      assert.equal(prefixOf('s3://b/p?prefix=q/'), 'q/p/');
      assert.equal(prefixOf('s3://b?prefix=raw'), 'raw');
    });
  });

  describe("Pulumi's translation of SDK-v1 parameters", () => {
    it('turns disableSSL into disable_https', () => {
      assert.equal(parseS3BackendUrl('s3://b?disableSSL=true').disableHttps, true);
      assert.equal(parseS3BackendUrl('s3://b?disableSSL=false').disableHttps, false);
      // query.Set replaces an explicit disable_https.
      assert.equal(parseS3BackendUrl('s3://b?disable_https=0&disableSSL=true').disableHttps, true);
      // The last disableSSL counts there.
      assert.equal(parseS3BackendUrl('s3://b?disableSSL=1&disableSSL=0').disableHttps, false);
    });
    it('gives a scheme-less endpoint http:// with disableSSL, https:// without', () => {
      assert.equal(parseS3BackendUrl('s3://b?endpoint=minio:9000&disableSSL=true').endpoint, 'http://minio:9000');
      assert.equal(parseS3BackendUrl('s3://b?endpoint=minio:9000').endpoint, 'https://minio:9000');
    });
    it('drops disableSSL when the endpoint names its scheme', () => {
      const target = parseS3BackendUrl('s3://b?endpoint=https://minio:9000&disableSSL=true');
      assert.equal(target.endpoint, 'https://minio:9000');
      assert.equal(target.disableHttps, false);
      assert.deepEqual(target.ignored, ['disableSSL']);
    });
    it('refuses a disableSSL that is not a boolean', () => {
      refuses('s3://b?disableSSL=banana', /invalid value for "disableSSL": "banana"/);
    });
    it('translates nothing unless the URL starts with a lowercase s3://', () => {
      assert.equal(parseS3BackendUrl('S3://b').bucket, 'b');
      refuses('S3://b?disableSSL=true', /unknown query parameter "disableSSL" \(Pulumi translates it only when the URL starts with a lowercase s3:\/\/\)/);
      refuses('S3://b?endpoint=minio:9000', /invalid value for "endpoint": "minio:9000"/);
      assert.equal(parseS3BackendUrl('S3://b?endpoint=https://e').requestChecksumCalculation, undefined);
    });
  });

  describe('request_checksum_calculation', () => {
    it('defaults to when_required with an endpoint, and only then', () => {
      assert.equal(parseS3BackendUrl('s3://b?endpoint=https://e').requestChecksumCalculation, 'when_required');
      assert.equal(parseS3BackendUrl('s3://b?endpoint=minio:9000').requestChecksumCalculation, 'when_required');
      assert.equal(parseS3BackendUrl('s3://b').requestChecksumCalculation, undefined);
      assert.equal(parseS3BackendUrl('s3://b?endpoint=').requestChecksumCalculation, undefined);
    });
    it('keeps an explicit value, and replaces an empty one', () => {
      assert.equal(parseS3BackendUrl('s3://b?endpoint=https://e&request_checksum_calculation=when_supported').requestChecksumCalculation, 'when_supported');
      assert.equal(parseS3BackendUrl('s3://b?endpoint=https://e&request_checksum_calculation=').requestChecksumCalculation, 'when_required');
    });
    it('leaves the default to AWS_REQUEST_CHECKSUM_CALCULATION when that is set', () => {
      assert.equal(parseS3BackendUrl('s3://b?endpoint=https://e', { AWS_REQUEST_CHECKSUM_CALCULATION: 'when_supported' }).requestChecksumCalculation, undefined);
      assert.equal(parseS3BackendUrl('s3://b?endpoint=https://e', { AWS_REQUEST_CHECKSUM_CALCULATION: '' }).requestChecksumCalculation, 'when_required');
    });
    it('takes either value in any case, and nothing else', () => {
      const target = parseS3BackendUrl('s3://b?request_checksum_calculation=WHEN_REQUIRED&response_checksum_validation=When_Supported');
      assert.equal(target.requestChecksumCalculation, 'when_required');
      assert.equal(target.responseChecksumValidation, 'when_supported');
      refuses('s3://b?request_checksum_calculation=never', /invalid value for "request_checksum_calculation": "never"/);
      refuses('s3://b?response_checksum_validation=', /invalid value for "response_checksum_validation": ""/);
    });
  });

  describe('the boolean parameters (strconv.ParseBool)', () => {
    const cases: Array<[string, (t: ReturnType<typeof parseS3BackendUrl>) => boolean]> = [
      ['anonymous', (t) => t.anonymous],
      ['dualstack', (t) => t.useDualstack],
      ['fips', (t) => t.useFips],
      ['accelerate', (t) => t.useAccelerate],
      ['disable_https', (t) => t.disableHttps],
      ['use_path_style', (t) => t.forcePathStyle],
      ['s3ForcePathStyle', (t) => t.forcePathStyle],
    ];
    for (const [name, read] of cases) {
      it(`reads ${name} with Go's spellings`, () => {
        for (const value of GO_TRUE) assert.equal(read(parseS3BackendUrl(`s3://b?${name}=${value}`)), true, `${name}=${value}`);
        for (const value of GO_FALSE) assert.equal(read(parseS3BackendUrl(`s3://b?${name}=${value}`)), false, `${name}=${value}`);
      });
      it(`refuses ${name}=yes, naming it`, () => {
        refuses(`s3://b?${name}=yes`, new RegExp(`invalid value for "${name}": "yes" is not a boolean`));
      });
    }
    it('reads hostname_immutable: the bucket stays in the path of an endpoint, whose scheme stays', () => {
      const target = parseS3BackendUrl('s3://b?endpoint=https://minio:9000&hostname_immutable=true&disable_https=true');
      assert.equal(target.forcePathStyle, true);
      assert.equal(target.endpoint, 'https://minio:9000');
      assert.deepEqual(target.ignored, ['disable_https']);
      assert.deepEqual(parseS3BackendUrl('s3://b?hostname_immutable=true').ignored, ['hostname_immutable']);
      refuses('s3://b?hostname_immutable=2', /invalid value for "hostname_immutable": "2"/);
    });
    it('refuses an empty boolean: gocloud leaves its own ones behind as unknown, aws.go fails to parse the others', () => {
      refuses('s3://b?accelerate=', /query parameter "accelerate" is empty/);
      refuses('s3://b?fips=', /invalid value for "fips": ""/);
    });
    it('lets s3ForcePathStyle win over use_path_style', () => {
      assert.equal(parseS3BackendUrl('s3://b?use_path_style=1&s3ForcePathStyle=0').forcePathStyle, false);
      assert.equal(parseS3BackendUrl('s3://b?use_path_style=0&s3ForcePathStyle=1').forcePathStyle, true);
    });
    it('turns an endpoint to http with disable_https, as the SDK does to each request', () => {
      assert.equal(parseS3BackendUrl('s3://b?endpoint=https://minio:9000&disable_https=true').endpoint, 'http://minio:9000');
    });
    it('drops dualstack, fips and accelerate with a custom endpoint', () => {
      const target = parseS3BackendUrl('s3://b?endpoint=https://e&dualstack=1&fips=1&accelerate=1');
      assert.deepEqual([target.useDualstack, target.useFips, target.useAccelerate], [false, false, false]);
      assert.deepEqual(target.ignored, ['dualstack', 'fips', 'accelerate']);
    });
    it('refuses accelerate with path style, which the SDK refuses on every request', () => {
      refuses('s3://b?accelerate=true&s3ForcePathStyle=true', /accelerate=true cannot go with s3ForcePathStyle=true/);
    });
  });

  describe('the other parameters', () => {
    it('reads region, profile and the first of repeated values', () => {
      const target = parseS3BackendUrl('s3://b?region=eu-west-1&region=us-east-1&profile=ci');
      assert.equal(target.region, 'eu-west-1');
      assert.equal(target.profile, 'ci');
      assert.equal(parseS3BackendUrl('s3://b?region=').region, undefined);
      assert.equal(parseS3BackendUrl('s3://b?region=a+b').region, 'a b');
      assert.equal(parseS3BackendUrl('s3://b?%72egion=x').region, 'x');
    });
    it('reads server-side encryption (ssetype as EqualFold, kmskeyid as is)', () => {
      assert.deepEqual(parseS3BackendUrl('s3://b?ssetype=aws:kms&kmskeyid=abc').serverSideEncryption, { type: 'aws:kms', kmsKeyId: 'abc' });
      assert.deepEqual(parseS3BackendUrl('s3://b?ssetype=aes256').serverSideEncryption, { type: 'AES256' });
      assert.deepEqual(parseS3BackendUrl('s3://b?ssetype=AWS:KMS:DSSE').serverSideEncryption, { type: 'aws:kms:dsse' });
      assert.deepEqual(parseS3BackendUrl('s3://b?kmskeyid=k1').serverSideEncryption, { type: '', kmsKeyId: 'k1' });
      refuses('s3://b?ssetype=des', /"des" is not a valid value for "ssetype"/);
      refuses('s3://b?ssetype=', /query parameter "ssetype" is empty/);
    });
    it('names what has no effect here', () => {
      assert.deepEqual(parseS3BackendUrl('s3://b?rate_limiter_capacity=10&awssdk=v2').ignored, ['rate_limiter_capacity', 'awssdk']);
      refuses('s3://b?rate_limiter_capacity=2147483648', /invalid value for "rate_limiter_capacity"/);
      refuses('s3://b?rate_limiter_capacity=1_0', /invalid value for "rate_limiter_capacity"/);
    });
    it('with role=, keeps region and endpoint and names what then goes to the STS call alone', () => {
      const target = parseS3BackendUrl('s3://b?role=arn:aws:iam::1:role/x&region=us-east-1&profile=p&dualstack=true&request_checksum_calculation=when_required');
      assert.equal(target.region, 'us-east-1');
      assert.equal(target.profile, undefined);
      assert.equal(target.useDualstack, false);
      assert.equal(target.requestChecksumCalculation, undefined);
      assert.deepEqual(target.ignored, ['profile', 'role', 'dualstack', 'request_checksum_calculation']);
      refuses('s3://b?role=foo', /invalid value for "role": "foo" must be an ARN/);
    });
    it('refuses an unknown parameter, naming it and what Pulumi accepts', () => {
      refuses('s3://b?foo=1', /^s3:\/\/b\?foo=1: unknown query parameter "foo" \(Pulumi accepts: region, endpoint, .*s3ForcePathStyle, awssdk, disableSSL, prefix\)$/);
      refuses('s3://b?Region=x', /unknown query parameter "Region"/);
      refuses('s3://b?=x', /unknown query parameter ""/);
      refuses('s3://b?x=1&x', /unknown query parameter "x"/);
    });
    it("drops the pairs Go's Query drops (a semicolon, a bad escape)", () => {
      assert.equal(parseS3BackendUrl('s3://b?foo=1;bar=2').bucket, 'b');
      assert.equal(parseS3BackendUrl('s3://b?a%zz=1').bucket, 'b');
    });
    it('refuses key=, whose single-object bucket a backend cannot use', () => {
      refuses('s3://b?key=x', /query parameter "key"/);
      assert.equal(parseS3BackendUrl('s3://b?prefix=a&key=').prefix, 'a');
    });
    it('refuses an endpoint the HTTP client would refuse', () => {
      refuses('s3://b?endpoint=ftp://x', /invalid value for "endpoint": "ftp:\/\/x"/);
      refuses('s3://b?endpoint=http:///x', /invalid value for "endpoint"/);
      assert.equal(parseS3BackendUrl('s3://b?endpoint=ftp://x&disable_https=true').endpoint, 'http://x');
    });
  });

  describe('the bucket and the URL', () => {
    it('refuses an empty bucket', () => {
      for (const url of ['s3://', 's3:///path', 's3://?region=x', 's3:bucket']) refuses(url, /no bucket name/);
    });
    it('checks the parameters before the bucket, as gocloud does', () => {
      refuses('s3://?foo=1', /unknown query parameter "foo"/);
    });
    it('refuses another scheme', () => {
      for (const url of ['gs://b', 'azblob://c', 'file:///tmp/x', 'http://b', 'b']) refuses(url, /not an s3:\/\/ URL/);
    });
    it("refuses what Go's url.Parse refuses", () => {
      refuses('s3://b/%zz', /not a URL Pulumi can read: invalid URL escape "%zz"/);
      refuses('s3://b#%zz', /invalid URL escape "%zz"/);
      refuses('s3://bu%41cket', /invalid URL escape "%41"/);
      refuses('s3://bu{cket', /invalid character "\{" in host name/);
      refuses('s3://bucket:abc', /invalid port ":abc" after host/);
      refuses('s3://a[b', /invalid IP-literal/);
      refuses('s3://b/\x01', /invalid control character/);
      refuses('s3://[::1]', /is an IP address, not a bucket name/);
    });
    it('decodes the bucket as Go does (only non-ASCII bytes may be escaped), port and all', () => {
      assert.equal(parseS3BackendUrl('s3://bu%C3%A9cket').bucket, 'buécket');
      assert.equal(parseS3BackendUrl('s3://bucket:9000').bucket, 'bucket:9000');
      assert.equal(parseS3BackendUrl('s3://b#frag').bucket, 'b');
    });
    it('never shows a password', () => {
      const target = parseS3BackendUrl('s3://user:secret@b/p');
      assert.equal(target.url, 's3://user:xxxxx@b/p');
      assert.equal(target.bucket, 'b');
      refuses('s3://user:secret@b?foo=1', /^s3:\/\/user:xxxxx@b\?foo=1: /);
    });
  });

  it('tells s3:// URLs from the others', () => {
    assert.equal(isObjectStorageUrl('s3://b'), true);
    assert.equal(isObjectStorageUrl('S3://b'), true);
    assert.equal(isObjectStorageUrl('s3:b'), true);
    assert.equal(isObjectStorageUrl('gs://b'), false);
    assert.equal(isObjectStorageUrl('azblob://c'), false);
    assert.equal(isObjectStorageUrl('file:///tmp'), false);
    assert.equal(isObjectStorageUrl('/tmp/s3:x'), false);
  });
});
