/**
 * A Pulumi DIY backend URL in Google Cloud Storage (`gs://bucket[/prefix]?query`), read as Pulumi
 * v3.274.1 reads it, step by step:
 *  1. Go's `net/url.Parse` (shared/text/goUrl.ts), through `IsDIYBackendURL` in pulumi
 *     `pkg/backend/diy/backend.go`; `massageBlobPath` leaves a gs:// URL untouched;
 *  2. `authhelpers.GoogleCredentialsMux` (pkg/authhelpers/gcpauth.go) resolves the credentials:
 *     `GOOGLE_CREDENTIALS` (the JSON text of a key), then `GOOGLE_OAUTH_ACCESS_TOKEN`, then
 *     application default credentials (`GOOGLE_APPLICATION_CREDENTIALS`, gcloud's file, GCE);
 *  3. gocloud.dev `blob/blob.go` `applyPrefixParam` (`prefix=`, `key=`), then
 *     `blob/gcsblob/gcsblob.go` `URLOpener.forParams` (access_id, private_key_path, anonymous,
 *     universe_domain; any other name is an error) and `openBucket` (a bucket name is required;
 *     `STORAGE_EMULATOR_HOST` sends every request unauthenticated to `http://HOST/storage/v1/`);
 *  4. `newDIYBackend` (backend.go): the URL's path, without its leading slashes and with a trailing
 *     one, becomes a `blob.PrefixedBucket` inside the one of `prefix=`.
 * Object keys go through gcsblob's `escapeKey` (gocloud `internal/escape` HexEscape), so the names
 * this store lists and writes are the keys Pulumi lists and writes.
 * Pure: no I/O, no Node built-ins (it is bundled for the browser too).
 */
import * as l10n from '@vscode/l10n';
import { goParseQuery, goParseUrl, GoUrlError, NotUtf8Error, valuesGet, type GoValues } from '../text/goUrl';

export class GcsUrlError extends Error {}

/** Where the requests' credentials come from, in Pulumi's order; the store reads the secret itself, so none is ever held here. */
type GcsCredentialSource =
  /** `GOOGLE_CREDENTIALS`: the JSON text of a service account key (or any key google.CredentialsFromJSON reads). */
  | 'GOOGLE_CREDENTIALS'
  /** `GOOGLE_OAUTH_ACCESS_TOKEN`: a bearer token, used as it is. */
  | 'GOOGLE_OAUTH_ACCESS_TOKEN'
  /** Application default credentials: `GOOGLE_APPLICATION_CREDENTIALS`, gcloud's well-known file, the metadata server. */
  | 'application-default'
  /** No credentials: `anonymous=true`, `access_id=-`, or an emulator (gocloud sends it nothing). */
  | 'none';

export interface GcsBackendUrl {
  /** The URL as messages name it (a password in it shown as xxxxx; a gs:// URL holds no other secret). */
  shown: string;
  bucket: string;
  /** Key prefix every object name gets: '' or 'some/path/' (trailing slash), from `prefix=` and the URL's path as gocloud and Pulumi apply them. */
  prefix: string;
  /** `http://HOST` from `STORAGE_EMULATOR_HOST`, as gocloud's openBucket builds it; absent for Google's own endpoint. */
  emulatorEndpoint?: string;
  credentials: GcsCredentialSource;
  /** Accepted by Pulumi but without effect on reading and writing (access_id other than "-", private_key_path, universe_domain): named so the caller can warn. */
  ignored: string[];
}

/** Every name Pulumi v3.274.1 takes on a gs:// URL (for the unknown-parameter message). */
const ACCEPTED = ['access_id', 'private_key_path', 'anonymous', 'universe_domain', 'prefix'];
const FOR_PARAMS = new Set(['access_id', 'private_key_path', 'anonymous', 'universe_domain']);

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Go's `strconv.ParseBool`, failing with the parameter's name. */
function goBool(value: string, name: string, shown: string): boolean {
  if (GO_TRUE.has(value)) return true;
  if (GO_FALSE.has(value)) return false;
  throw new GcsUrlError(l10n.t('{0}: invalid value for "{1}": "{2}" is not a boolean (Go accepts 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False)', shown, name, value));
}

/** Go's `URL.Redacted`: a password in the userinfo shown as xxxxx. */
function redacted(url: string): string {
  return url.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)@/, (whole, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon < 0 ? whole : `${scheme}${userinfo.slice(0, colon)}:xxxxx@`;
  });
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
  if (key !== '') throw new GcsUrlError(l10n.t('{0}: query parameter "key" makes gocloud read and write one object as the whole bucket, which a Pulumi backend cannot use', shown));
  return prefix;
}

interface ForParams {
  anonymous: boolean;
  ignored: string[];
}

/** `URLOpener.forParams` (gocloud blob/gcsblob/gcsblob.go), with the URLOpener Pulumi's mux registers. */
function readForParams(query: GoValues, shown: string): ForParams {
  for (const [name, values] of query) {
    if (FOR_PARAMS.has(name)) continue;
    // An empty prefix= or key= is left behind by applyPrefixParam and refused here like any other name.
    const empty = (name === 'prefix' || name === 'key') && values[0] === '' ? l10n.t(' (it is empty, so gocloud does not take it as its own)') : '';
    throw new GcsUrlError(l10n.t('{0}: unknown query parameter "{1}"{2} (Pulumi accepts: {3})', shown, name, empty, ACCEPTED.join(', ')));
  }
  let anonymous = false;
  const anonymousValue = valuesGet(query, 'anonymous');
  if (anonymousValue !== '') anonymous = goBool(anonymousValue, 'anonymous', shown);
  const ignored: string[] = [];
  // access_id only names the signer of signed URLs, except "-", which makes the client unauthenticated.
  const accessId = valuesGet(query, 'access_id');
  if (accessId === '-') anonymous = true;
  else if (accessId !== '') ignored.push('access_id');
  // Pulumi reads the file (and fails when it cannot), but only signed URLs use the key.
  if (query.has('private_key_path')) ignored.push('private_key_path');
  // Pulumi's own URLOpener never looks at it: only gocloud's default opener (not registered by Pulumi) does.
  if (query.has('universe_domain')) ignored.push('universe_domain');
  return { anonymous, ignored };
}

/** The key prefix: `prefix=` outside, the URL's path (leading slashes dropped, a trailing one added) inside (newDIYBackend). */
function keyPrefix(queryPrefix: string, path: string): string {
  const subDir = path.replace(/^\/+/, '');
  return queryPrefix + (subDir === '' || subDir.endsWith('/') ? subDir : `${subDir}/`);
}

/** openBucket's `"http://" + host`: a value with a scheme would become http://http://…, which no request reaches. */
function emulatorEndpoint(host: string | undefined, shown: string): string | undefined {
  if (host === undefined || host === '') return undefined;
  if (host.includes('://') || /[/?#@\s]/.test(host)) {
    throw new GcsUrlError(l10n.t('{0}: STORAGE_EMULATOR_HOST must be HOST:PORT without a scheme or path (gocloud sends to http://HOST:PORT/storage/v1/), not "{1}"', shown, host));
  }
  return `http://${host}`;
}

function credentialSource(anonymous: boolean, emulator: string | undefined, environment: Readonly<Record<string, string | undefined>>): GcsCredentialSource {
  if (anonymous || emulator !== undefined) return 'none';
  if (environment.GOOGLE_CREDENTIALS) return 'GOOGLE_CREDENTIALS';
  if (environment.GOOGLE_OAUTH_ACCESS_TOKEN) return 'GOOGLE_OAUTH_ACCESS_TOKEN';
  return 'application-default';
}

/**
 * Reads a `gs://bucket[/prefix]?query` backend URL as Pulumi v3.274.1 does, with the errors it would
 * give (checked in gocloud's order; where Go's map order makes that random, in URL order).
 */
export function parseGcsBackendUrl(url: string, environment: Readonly<Record<string, string | undefined>> = {}): GcsBackendUrl {
  const shown = redacted(url);
  try {
    const parsed = goParseUrl(url);
    if (parsed.scheme !== 'gs') throw new GcsUrlError(l10n.t('{0}: not a gs:// URL', shown));
    const query = goParseQuery(parsed.rawQuery);
    const queryPrefix = takeMuxParams(query, shown);
    const params = readForParams(query, shown);
    if (parsed.host === '') throw new GcsUrlError(l10n.t('{0}: no bucket name (the form is gs://BUCKET[/prefix])', shown));
    // A bracketed host or a port passes Go's parser but can never be a bucket name.
    if (parsed.host.startsWith('[') || parsed.host.includes(':')) throw new GcsUrlError(l10n.t('{0}: "{1}" is not a bucket name', shown, parsed.host));
    const emulator = emulatorEndpoint(environment.STORAGE_EMULATOR_HOST, shown);
    return {
      shown,
      bucket: parsed.host,
      prefix: keyPrefix(queryPrefix, parsed.path),
      ...(emulator !== undefined ? { emulatorEndpoint: emulator } : {}),
      credentials: credentialSource(params.anonymous, emulator, environment),
      ignored: params.ignored,
    };
  } catch (error) {
    if (error instanceof GoUrlError) throw new GcsUrlError(l10n.t('{0}: not a URL Pulumi can read: {1}', shown, error.message));
    if (error instanceof NotUtf8Error) throw new GcsUrlError(l10n.t('{0}: "{1}" percent-decodes to bytes that are not UTF-8', shown, error.message));
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Object keys as gcsblob writes them: `escapeKey` / `unescapeKey` over gocloud's internal/escape.

/** gocloud `escape.unescape` at `i`: an `__0x<hex>__` sequence whose digits Go's ParseInt(…, 16, 32) reads; its rune and last index. */
function escapeSequenceAt(runes: string[], i: number): { rune: number; end: number } | undefined {
  if (runes.slice(i, i + 4).join('') !== '__0x') return undefined;
  let j = i + 4;
  let digits = '';
  for (; j < runes.length && runes[j] !== '_'; j++) digits += runes[j];
  if (runes[j] !== '_' || runes[j + 1] !== '_') return undefined;
  if (!/^[+-]?[0-9A-Fa-f]+$/.test(digits)) return undefined;
  const value = parseInt(digits, 16);
  if (value < -(2 ** 31) || value >= 2 ** 31) return undefined;
  return { rune: value, end: j + 1 };
}

/** gcsblob `escapeKey`: CR and LF, the slash of `../`, and anything that reads as an escape sequence become `__0x<hex>__`. */
export function gcsObjectKey(name: string): string {
  const runes = [...name];
  const escaped = (i: number) => runes[i] === '\n' || runes[i] === '\r' || (i > 1 && runes[i] === '/' && runes[i - 1] === '.' && runes[i - 2] === '.') || escapeSequenceAt(runes, i) !== undefined;
  return runes.map((rune, i) => (escaped(i) ? `__0x${rune.codePointAt(0)!.toString(16)}__` : rune)).join('');
}

/** gcsblob `unescapeKey`: a listed key back to the name Pulumi sees. */
export function gcsObjectName(key: string): string {
  const runes = [...key];
  let name = '';
  for (let i = 0; i < runes.length; i++) {
    const sequence = escapeSequenceAt(runes, i);
    if (sequence && sequence.rune >= 0 && sequence.rune <= 0x10ffff) {
      name += String.fromCodePoint(sequence.rune);
      i = sequence.end;
    } else name += runes[i];
  }
  return name;
}
