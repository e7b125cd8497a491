/**
 * A Pulumi DIY backend URL in object storage (`s3://bucket[/prefix]?query`), read as Pulumi
 * v3.274.1 reads it, step by step:
 *  1. Go's `net/url.Parse` (shared/text/goUrl.ts), through `IsDIYBackendURL` in pulumi
 *     `pkg/backend/diy/backend.go`;
 *  2. `massageBlobPath` → `translateLegacyS3Params` (same file): only for URLs starting with the
 *     lowercase `s3://`, SDK-v1 `disableSSL` becomes `disable_https`, a scheme-less endpoint gets
 *     one, and an endpoint defaults `request_checksum_calculation=when_required`;
 *  3. gocloud.dev `blob/blob.go` `applyPrefixParam` (`prefix=`, `key=`), then
 *     `blob/s3blob/s3blob.go` `URLOpener.OpenBucketURL` (ssetype, kmskeyid, accelerate,
 *     disable_https, use_path_style, s3ForcePathStyle), then `aws/aws.go`
 *     `V2ConfigFromURLParams` (everything else; any other name is an error), then `openBucket`
 *     (a bucket name is required);
 *  4. `newDIYBackend` (backend.go): the URL's path, without its leading slashes and with a
 *     trailing one, becomes a `blob.PrefixedBucket` inside the one of `prefix=`;
 *  5. aws-sdk-go-v2 `service/s3` v1.106.0: a custom endpoint goes through the legacy resolver, so
 *     dualstack and fips have no effect on it (nor accelerate, except a rewrite of an `s3.*` AWS
 *     host that is not reproduced here), `hostname_immutable` keeps the bucket in the path and the
 *     scheme as written, and `disable_https` (`disableHTTPSMiddleware`) otherwise turns the
 *     scheme to http.
 * Pure: no I/O, no Node built-ins (it is bundled for the browser too).
 */
import * as l10n from '@vscode/l10n';
import { goParseQuery, goParseUrl, GoUrlError, NotUtf8Error, valuesGet, type GoUrl, type GoValues } from '../text/goUrl';

export class S3UrlError extends Error {}

export interface S3BackendUrl {
  /** The URL as given (for messages; never contains credentials). */
  url: string;
  bucket: string;
  /** Key prefix every object name gets: '' or 'some/path/' (trailing slash), from the URL's path as Pulumi/gocloud apply it. */
  prefix: string;
  region?: string;
  /** Full endpoint URL with scheme (http:// when disable_https, else https://, as gocloud/AWS SDK v2 would resolve it). */
  endpoint?: string;
  /** `disable_https`: already folded into `endpoint` when there is one; without one it means AWS's own endpoint over http. */
  disableHttps: boolean;
  forcePathStyle: boolean;
  profile?: string;
  anonymous: boolean;
  useDualstack: boolean;
  useFips: boolean;
  useAccelerate: boolean;
  requestChecksumCalculation?: 'when_supported' | 'when_required';
  responseChecksumValidation?: 'when_supported' | 'when_required';
  /** `type` is '' when only `kmskeyid` is given: gocloud then sends the key id without an encryption type. */
  serverSideEncryption?: { type: string; kmsKeyId?: string };
  /** Accepted by Pulumi but without effect here (role, hostname_immutable, rate_limiter_capacity, awssdk): named so the caller can warn. */
  ignored: string[];
}

/** The environment variable `translateLegacyS3Params` consults (it reads the process environment; this module is given it). */
export interface S3UrlEnvironment {
  AWS_REQUEST_CHECKSUM_CALCULATION?: string;
}

/** True for `s3://` (any case, as Go lowercases the scheme); gs:// and azblob:// are Pulumi's other DIY buckets, not handled here. */
export function isObjectStorageUrl(url: string): boolean {
  return /^s3:/i.test(url);
}

// ---------------------------------------------------------------------------------------------
// The parameters, in the order Pulumi and gocloud take them.

/** Every name Pulumi v3.274.1 takes on an s3:// URL (for the unknown-parameter message). */
const ACCEPTED = [
  'region',
  'endpoint',
  'profile',
  'role',
  'anonymous',
  'hostname_immutable',
  'dualstack',
  'fips',
  'rate_limiter_capacity',
  'request_checksum_calculation',
  'response_checksum_validation',
  'ssetype',
  'kmskeyid',
  'accelerate',
  'disable_https',
  'use_path_style',
  's3ForcePathStyle',
  'awssdk',
  'disableSSL',
  'prefix',
];

/** Taken only when not empty (`q.Get(k) != ""`): an empty one stays behind and V2ConfigFromURLParams calls it unknown. */
const TAKEN_WHEN_NOT_EMPTY = new Set(['prefix', 'key', 'ssetype', 'kmskeyid', 'accelerate', 'disable_https', 'use_path_style', 's3ForcePathStyle']);

/** aws-sdk-go-v2 `types.ServerSideEncryption.Values()` in service/s3 v1.106.0. */
const SSE_TYPES = ['AES256', 'aws:fsx', 'aws:kms', 'aws:kms:dsse'];

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Go's `strconv.ParseBool`, failing with the parameter's name. */
function goBool(value: string, name: string, shown: string): boolean {
  if (GO_TRUE.has(value)) return true;
  if (GO_FALSE.has(value)) return false;
  throw new S3UrlError(l10n.t('{0}: invalid value for "{1}": "{2}" is not a boolean (Go accepts 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False)', shown, name, value));
}

/** Go's `strings.EqualFold` against an ASCII word: besides ASCII case, 'ſ' folds to s and the Kelvin sign to k. */
function equalFoldAscii(value: string, ascii: string): boolean {
  const runes = [...value];
  const fold = (rune: string) => (rune === '\u017f' ? 's' : rune === '\u212a' ? 'k' : /^[A-Za-z]$/.test(rune) ? rune.toLowerCase() : rune);
  return runes.length === ascii.length && runes.every((rune, i) => fold(rune) === ascii[i].toLowerCase());
}

/** Go's `strings.ToLower` then the two values aws.go knows (Go lowers 'İ' to a plain i, JavaScript does not). */
function checksumMode(value: string, name: string, shown: string): 'when_supported' | 'when_required' {
  const lowered = value.replace(/\u0130/g, 'i').toLowerCase();
  if (lowered === 'when_supported' || lowered === 'when_required') return lowered;
  throw new S3UrlError(l10n.t('{0}: invalid value for "{1}": "{2}" (valid values are when_supported, when_required)', shown, name, value));
}

interface LegacyTranslation {
  /** Whether translateLegacyS3Params ran at all (the URL starts with a lowercase s3://). */
  translated: boolean;
  disableSslDropped: boolean;
  checksumDefaulted: boolean;
}

/** `translateLegacyS3Params` (pkg/backend/diy/backend.go), on the parsed query. */
function translateLegacyS3Params(query: GoValues, environment: S3UrlEnvironment, shown: string): LegacyTranslation {
  let disableSsl = false;
  let disableSslDropped = false;
  const legacy = query.get('disableSSL');
  if (legacy) {
    // Pulumi reads the last value here, where gocloud reads the first of everything else.
    disableSsl = goBool(legacy[legacy.length - 1], 'disableSSL', shown);
    query.delete('disableSSL');
    if (valuesGet(query, 'endpoint').includes('://')) disableSslDropped = true;
    else query.set('disable_https', [String(disableSsl)]);
  }
  const endpoint = valuesGet(query, 'endpoint');
  let checksumDefaulted = false;
  if (endpoint !== '') {
    if (!endpoint.includes('://')) query.set('endpoint', [`${disableSsl ? 'http' : 'https'}://${endpoint}`]);
    if (valuesGet(query, 'request_checksum_calculation') === '' && !environment.AWS_REQUEST_CHECKSUM_CALCULATION) {
      query.set('request_checksum_calculation', ['when_required']);
      checksumDefaulted = true;
    }
  }
  return { translated: true, disableSslDropped, checksumDefaulted };
}

/** `applyPrefixParam` (gocloud blob/blob.go): `prefix=` wraps the bucket in a PrefixedBucket, `key=` in a SingleKeyBucket. */
function takeMuxParams(query: GoValues, shown: string): string {
  const prefix = valuesGet(query, 'prefix');
  const key = valuesGet(query, 'key');
  if (prefix !== '' || key !== '') {
    query.delete('prefix');
    query.delete('key');
  }
  // A SingleKeyBucket cannot list, so Pulumi opens it and then fails on its first listing; refused up front here.
  if (key !== '') throw new S3UrlError(l10n.t('{0}: query parameter "key" makes gocloud read and write one object as the whole bucket, which a Pulumi backend cannot use', shown));
  return prefix;
}

interface S3blobParams {
  sseType?: string;
  kmsKeyId?: string;
  accelerate: boolean;
  disableHttps: boolean;
  pathStyle: boolean;
  /** The name that set `pathStyle` last (use_path_style or s3ForcePathStyle), if any. */
  pathStyleKey?: string;
}

/** `URLOpener.OpenBucketURL` (gocloud blob/s3blob/s3blob.go), before it hands the rest to aws.go. */
function takeS3blobParams(query: GoValues, shown: string): S3blobParams {
  const take = (key: string) => {
    const value = valuesGet(query, key);
    if (value !== '') query.delete(key);
    return value;
  };
  const params: S3blobParams = { accelerate: false, disableHttps: false, pathStyle: false };
  const sseType = take('ssetype');
  if (sseType !== '') {
    params.sseType = SSE_TYPES.find((known) => equalFoldAscii(sseType, known));
    if (!params.sseType) throw new S3UrlError(l10n.t('{0}: "{1}" is not a valid value for "ssetype" (valid values are {2})', shown, sseType, SSE_TYPES.join(', ')));
  }
  const kmsKeyId = take('kmskeyid');
  if (kmsKeyId !== '') params.kmsKeyId = kmsKeyId;
  const accelerate = take('accelerate');
  if (accelerate !== '') params.accelerate = goBool(accelerate, 'accelerate', shown);
  const disableHttps = take('disable_https');
  if (disableHttps !== '') params.disableHttps = goBool(disableHttps, 'disable_https', shown);
  // Both names are applied in this order, so s3ForcePathStyle wins when both are given.
  for (const key of ['use_path_style', 's3ForcePathStyle']) {
    const value = take(key);
    if (value === '') continue;
    params.pathStyle = goBool(value, key, shown);
    params.pathStyleKey = key;
  }
  return params;
}

interface AwsConfigParams {
  region?: string;
  endpoint?: string;
  profile?: string;
  role?: string;
  hostnameImmutable: boolean;
  dualstack: boolean;
  fips: boolean;
  anonymous: boolean;
  requestChecksumCalculation?: 'when_supported' | 'when_required';
  responseChecksumValidation?: 'when_supported' | 'when_required';
  /** Names present, in the order first seen. */
  given: string[];
}

type ParamReader = (value: string, config: AwsConfigParams, shown: string) => void;

/** `V2ConfigFromURLParams` (gocloud aws/aws.go): each name's first value and its check. */
const AWS_CONFIG_PARAMS: Record<string, ParamReader> = {
  region: (value, config) => {
    config.region = value || undefined;
  },
  endpoint: (value, config) => {
    config.endpoint = value || undefined;
  },
  profile: (value, config) => {
    config.profile = value || undefined;
  },
  role: (value, config, shown) => {
    if (!value.startsWith('arn:')) throw new S3UrlError(l10n.t('{0}: invalid value for "role": "{1}" must be an ARN (starting with "arn:")', shown, value));
    config.role = value;
  },
  hostname_immutable: (value, config, shown) => {
    config.hostnameImmutable = goBool(value, 'hostname_immutable', shown);
  },
  dualstack: (value, config, shown) => {
    config.dualstack = goBool(value, 'dualstack', shown);
  },
  fips: (value, config, shown) => {
    config.fips = goBool(value, 'fips', shown);
  },
  anonymous: (value, config, shown) => {
    config.anonymous = goBool(value, 'anonymous', shown);
  },
  rate_limiter_capacity: (value, _config, shown) => {
    // strconv.ParseInt(value, 10, 32): a sign, decimal digits, within int32.
    if (!/^[+-]?[0-9]+$/.test(value) || BigInt(value) < -(2n ** 31n) || BigInt(value) >= 2n ** 31n) {
      throw new S3UrlError(l10n.t('{0}: invalid value for "rate_limiter_capacity": "{1}" is not a 32-bit integer', shown, value));
    }
  },
  request_checksum_calculation: (value, config, shown) => {
    config.requestChecksumCalculation = checksumMode(value, 'request_checksum_calculation', shown);
  },
  response_checksum_validation: (value, config, shown) => {
    config.responseChecksumValidation = checksumMode(value, 'response_checksum_validation', shown);
  },
  awssdk: () => undefined,
};

function unknownParameter(name: string, value: string, shown: string, translated: boolean): S3UrlError {
  if (TAKEN_WHEN_NOT_EMPTY.has(name) && value === '') {
    return new S3UrlError(l10n.t('{0}: query parameter "{1}" is empty (gocloud then rejects it as an unknown parameter)', shown, name));
  }
  // translateLegacyS3Params only runs on URLs that start with a lowercase s3://.
  const hint = name === 'disableSSL' && !translated ? l10n.t(' (Pulumi translates it only when the URL starts with a lowercase s3://)') : '';
  return new S3UrlError(l10n.t('{0}: unknown query parameter "{1}"{2} (Pulumi accepts: {3})', shown, name, hint, ACCEPTED.join(', ')));
}

function readAwsConfigParams(query: GoValues, shown: string, translated: boolean): AwsConfigParams {
  const config: AwsConfigParams = { hostnameImmutable: false, dualstack: false, fips: false, anonymous: false, given: [] };
  for (const [name, values] of query) {
    const read = Object.hasOwn(AWS_CONFIG_PARAMS, name) ? AWS_CONFIG_PARAMS[name] : undefined;
    if (!read) throw unknownParameter(name, values[0], shown, translated);
    read(values[0], config, shown);
    config.given.push(name);
  }
  return config;
}

// ---------------------------------------------------------------------------------------------
// What the S3 client ends up with.

/** Go's `URL.Redacted`: a password in the userinfo shown as xxxxx. */
function redacted(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)@/, (whole, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon < 0 ? whole : `${scheme}${userinfo.slice(0, colon)}:xxxxx@`;
  });
}

/** The endpoint the SDK sends to: `disableHTTPSMiddleware` turns its scheme to http unless the hostname is immutable. */
function effectiveEndpoint(endpoint: string, downgrade: boolean, shown: string, translated: boolean): string {
  const withScheme = downgrade ? endpoint.replace(/^[A-Za-z][A-Za-z0-9+.-]*:/, 'http:') : endpoint;
  let parsed: GoUrl | undefined;
  try {
    parsed = goParseUrl(withScheme);
  } catch (error) {
    if (!(error instanceof GoUrlError || error instanceof NotUtf8Error)) throw error;
  }
  // Go's HTTP client refuses the same endpoints on the first request (no host, or a scheme other than http and https).
  if (!parsed || (parsed.scheme !== 'http' && parsed.scheme !== 'https') || parsed.host === '') {
    // translateLegacyS3Params only adds a scheme on URLs that start with a lowercase s3://.
    const hint = !translated && !endpoint.includes('://') ? l10n.t(' (Pulumi adds a scheme only when the URL starts with a lowercase s3://)') : '';
    throw new S3UrlError(l10n.t('{0}: invalid value for "endpoint": "{1}" is not an http:// or https:// URL with a host{2}', shown, endpoint, hint));
  }
  return withScheme;
}

/** The key prefix: `prefix=` outside, the URL's path (leading slashes dropped, a trailing one added) inside (newDIYBackend). */
function keyPrefix(queryPrefix: string, path: string): string {
  const subDir = path.replace(/^\/+/, '');
  return queryPrefix + (subDir === '' || subDir.endsWith('/') ? subDir : `${subDir}/`);
}

/** With `role=`, V2ConfigFromURLParams keeps only the assumed credentials, the region and the endpoint: these go to the STS call alone. */
const DISCARDED_BY_ROLE = ['profile', 'anonymous', 'dualstack', 'fips', 'request_checksum_calculation', 'response_checksum_validation'];

/** How the SDK's request path treats the options: which ones reach the request, which do not. */
interface Effect {
  customEndpoint: boolean;
  /** hostname_immutable with an endpoint: the SDK leaves host and scheme alone and keeps the bucket in the path. */
  immutableHost: boolean;
  roleDiscards: boolean;
  useAccelerate: boolean;
  /** With a custom endpoint the legacy resolver drops path style in favour of accelerate. */
  pathStyleDropped: boolean;
}

function effectOf(s3: S3blobParams, aws: AwsConfigParams, shown: string): Effect {
  const customEndpoint = aws.endpoint !== undefined;
  // The SDK's rules resolver fails every request with "Path-style addressing cannot be used with S3 Accelerate": refused up front.
  if (!customEndpoint && s3.accelerate && s3.pathStyle) {
    throw new S3UrlError(
      l10n.t('{0}: accelerate=true cannot go with {1}=true: the AWS SDK refuses every request (path-style addressing cannot be used with S3 Accelerate)', shown, s3.pathStyleKey ?? ''),
    );
  }
  const immutableHost = customEndpoint && aws.hostnameImmutable;
  return {
    customEndpoint,
    immutableHost,
    roleDiscards: aws.role !== undefined,
    useAccelerate: s3.accelerate && !customEndpoint,
    pathStyleDropped: customEndpoint && !immutableHost && s3.accelerate && s3.pathStyle,
  };
}

/** The parameters given that change nothing the caller's S3 client does, in the order of ACCEPTED. */
function ignoredParams(s3: S3blobParams, aws: AwsConfigParams, legacy: LegacyTranslation, effect: Effect): string[] {
  const given = new Set(aws.given);
  const ignored = new Set(['role', 'rate_limiter_capacity', 'awssdk'].filter((name) => given.has(name)));
  const defaultedChecksum = (name: string) => name === 'request_checksum_calculation' && legacy.checksumDefaulted;
  if (effect.roleDiscards) for (const name of DISCARDED_BY_ROLE) if (given.has(name) && !defaultedChecksum(name)) ignored.add(name);
  if (legacy.disableSslDropped) ignored.add('disableSSL');
  if (given.has('hostname_immutable') && !effect.immutableHost) ignored.add('hostname_immutable');
  // The legacy resolver of a custom endpoint applies neither dualstack nor fips; its accelerate host rewrite is not reproduced.
  if (effect.customEndpoint)
    for (const [name, on] of [
      ['dualstack', aws.dualstack],
      ['fips', aws.fips],
      ['accelerate', s3.accelerate],
    ] as const)
      if (on) ignored.add(name);
  if (effect.immutableHost && s3.disableHttps) ignored.add('disable_https');
  if (effect.pathStyleDropped && s3.pathStyleKey) ignored.add(s3.pathStyleKey);
  return ACCEPTED.filter((name) => ignored.has(name));
}

function assemble(shown: string, host: string, prefix: string, s3: S3blobParams, aws: AwsConfigParams, legacy: LegacyTranslation): S3BackendUrl {
  const effect = effectOf(s3, aws, shown);
  const kept = <T>(value: T | undefined) => (effect.roleDiscards ? undefined : value);
  const sse = s3.sseType !== undefined || s3.kmsKeyId !== undefined ? { type: s3.sseType ?? '', ...(s3.kmsKeyId !== undefined ? { kmsKeyId: s3.kmsKeyId } : {}) } : undefined;
  const profile = kept(aws.profile);
  const requestChecksum = kept(aws.requestChecksumCalculation);
  const responseChecksum = kept(aws.responseChecksumValidation);
  return {
    url: shown,
    bucket: host,
    prefix,
    ...(aws.region !== undefined ? { region: aws.region } : {}),
    ...(aws.endpoint !== undefined ? { endpoint: effectiveEndpoint(aws.endpoint, s3.disableHttps && !effect.immutableHost, shown, legacy.translated) } : {}),
    disableHttps: s3.disableHttps,
    forcePathStyle: effect.immutableHost || (s3.pathStyle && !effect.pathStyleDropped),
    ...(profile !== undefined ? { profile } : {}),
    anonymous: kept(aws.anonymous) ?? false,
    useDualstack: (kept(aws.dualstack) ?? false) && !effect.customEndpoint,
    useFips: (kept(aws.fips) ?? false) && !effect.customEndpoint,
    useAccelerate: effect.useAccelerate,
    ...(requestChecksum ? { requestChecksumCalculation: requestChecksum } : {}),
    ...(responseChecksum ? { responseChecksumValidation: responseChecksum } : {}),
    ...(sse ? { serverSideEncryption: sse } : {}),
    ignored: ignoredParams(s3, aws, legacy, effect),
  };
}

/**
 * Reads an `s3://bucket[/prefix]?query` backend URL as Pulumi v3.274.1 does, with the errors it
 * would give (checked in gocloud's order; where Go's map order makes that random, in URL order).
 */
export function parseS3BackendUrl(url: string, environment: S3UrlEnvironment = {}): S3BackendUrl {
  const shown = redacted(url);
  try {
    const parsed = goParseUrl(url);
    if (parsed.scheme !== 's3') throw new S3UrlError(l10n.t('{0}: not an s3:// URL', shown));
    const query = goParseQuery(parsed.rawQuery);
    // massageBlobPath compares the prefix with case, where IsDIYBackendURL and gocloud lowercase the scheme.
    const translated = url.startsWith('s3://');
    const legacy = translated ? translateLegacyS3Params(query, environment, shown) : { translated: false, disableSslDropped: false, checksumDefaulted: false };
    const queryPrefix = takeMuxParams(query, shown);
    const s3 = takeS3blobParams(query, shown);
    const aws = readAwsConfigParams(query, shown, translated);
    if (parsed.host === '') throw new S3UrlError(l10n.t('{0}: no bucket name (the form is s3://BUCKET[/prefix]?…)', shown));
    // A bracketed host passes Go's parser but can never be a bucket name.
    if (parsed.host.startsWith('[')) throw new S3UrlError(l10n.t('{0}: "{1}" is an IP address, not a bucket name', shown, parsed.host));
    return assemble(shown, parsed.host, keyPrefix(queryPrefix, parsed.path), s3, aws, legacy);
  } catch (error) {
    if (error instanceof GoUrlError) throw new S3UrlError(l10n.t('{0}: not a URL Pulumi can read: {1}', shown, error.message));
    if (error instanceof NotUtf8Error) throw new S3UrlError(l10n.t('{0}: "{1}" percent-decodes to bytes that are not UTF-8', shown, error.message));
    throw error;
  }
}
