/**
 * A Pulumi DIY backend URL in Azure Blob Storage (`azblob://CONTAINER[/prefix]?query`), read as
 * Pulumi v3.274.1 reads it, step by step:
 *  1. Go's `net/url.Parse` (shared/text/goUrl.ts), through `IsDIYBackendURL` in pulumi
 *     `pkg/backend/diy/backend.go`; `massageBlobPath` leaves an azblob URL untouched;
 *  2. gocloud.dev `blob/blob.go` `applyPrefixParam` (`prefix=`, `key=`, taken when not empty);
 *  3. `blob/azureblob/azureblob.go` (gocloud v0.46.1-0.20260810195832-b5401c07b5f1), through the
 *     opener `newDIYBackend` registers (`NewDefaultServiceURLOptions` from the environment, no
 *     refusal of a SAS token with an overridden endpoint): `withOverrides` (domain, protocol, cdn,
 *     localemu, storage_account; any other name, or a name given twice, is an error), then
 *     `NewServiceURL` (an account is required; `http`/`https` only; a local emulator, or a domain
 *     starting with 127.0.0.1 or localhost, is `PROTOCOL://DOMAIN/ACCOUNT`, a CDN
 *     `PROTOCOL://DOMAIN`, else `PROTOCOL://ACCOUNT.DOMAIN`), then `newCredInfoFromEnv` (a shared
 *     key when AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY are both set, else a SAS token, else a
 *     connection string, else the default Azure credential chain);
 *  4. `newDIYBackend`: the URL's path, without its leading slashes and with a trailing one, becomes
 *     a `blob.PrefixedBucket` inside the one of `prefix=`.
 * The credentials themselves stay in the environment: this reads which kind applies, the store
 * (shared/node/azblobStore.ts) reads their values when it opens the container. Pure: no I/O, no
 * Node built-ins.
 */
import * as l10n from '@vscode/l10n';
import { goParseQuery, goParseUrl, GoUrlError, NotUtf8Error, valuesGet, type GoValues } from '../text/goUrl';

export class AzblobUrlError extends Error {}

/** Where the store finds the credentials; only the kind and the variable's name, never a value. */
type AzblobCredential =
  /** AZURE_STORAGE_ACCOUNT's account with AZURE_STORAGE_KEY (the account of the key, whatever storage_account says). */
  | { kind: 'sharedKey'; accountName: string }
  /** AZURE_STORAGE_SAS_TOKEN appended to the service URL, as gocloud does. */
  | { kind: 'sas' }
  /** The connection string decides the endpoint (gocloud's NewClientFromConnectionString): `serviceUrl` is not used. */
  | { kind: 'connectionString'; variable: 'AZURE_STORAGE_CONNECTION_STRING' | 'AZURE_STORAGEBLOB_CONNECTIONSTRING' }
  /** @azure/identity's DefaultAzureCredential (environment, workload identity, managed identity, Azure CLI, …). */
  | { kind: 'default' };

export interface AzblobBackendUrl {
  /** The URL as messages name it: a password or a `sig=` value masked, never a credential. */
  shown: string;
  container: string;
  /** Key prefix every object name gets: '' or 'some/path/' (`prefix=` first, then the URL's path). */
  prefix: string;
  accountName: string;
  /** `PROTOCOL://ACCOUNT.DOMAIN`, `PROTOCOL://DOMAIN/ACCOUNT` or `PROTOCOL://DOMAIN`, without a SAS token. */
  serviceUrl: string;
  credential: AzblobCredential;
}

/** Every query parameter Pulumi v3.274.1 takes on an azblob:// URL (for the unknown-parameter message). */
const ACCEPTED = ['domain', 'protocol', 'cdn', 'localemu', 'storage_account', 'prefix', 'key'];

const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Go's `strconv.ParseBool`; undefined when it fails. */
function parseGoBool(value: string): boolean | undefined {
  return GO_TRUE.has(value) ? true : GO_FALSE.has(value) ? false : undefined;
}

/** True for `azblob://` (any case, as Go lowercases the scheme). */
export function isAzblobUrl(url: string): boolean {
  return /^azblob:/i.test(url);
}

/** The URL for messages: Go's `URL.Redacted` (a password shown as xxxxx), and a SAS signature pasted into the query masked too. */
function shownUrl(url: string): string {
  return url
    .replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)@/, (whole, scheme: string, userinfo: string) => {
      const colon = userinfo.indexOf(':');
      return colon < 0 ? whole : `${scheme}${userinfo.slice(0, colon)}:xxxxx@`;
    })
    .replace(/([?&]sig=)[^&#]*/gi, '$1xxxxx');
}

/** `NewDefaultServiceURLOptions`: what the environment says, before the URL overrides it. */
interface ServiceUrlOptions {
  accountName: string;
  storageDomain: string;
  protocol: string;
  isCdn: boolean;
  isLocalEmulator: boolean;
}

type Environment = Readonly<Record<string, string | undefined>>;

const connectionStringOf = (env: Environment) => env.AZURE_STORAGE_CONNECTION_STRING || env.AZURE_STORAGEBLOB_CONNECTIONSTRING || '';

function defaultServiceUrlOptions(env: Environment): ServiceUrlOptions {
  let accountName = env.AZURE_STORAGE_ACCOUNT ?? '';
  let protocol = env.AZURE_STORAGE_PROTOCOL ?? '';
  // gocloud takes a default account and protocol from a connection string's `key=value` parts (a part with a second '=' is skipped).
  for (const part of connectionStringOf(env).split(';')) {
    const keyValue = part.split('=');
    if (keyValue.length !== 2) continue;
    if (accountName === '' && keyValue[0] === 'AccountName') accountName = keyValue[1];
    else if (protocol === '' && keyValue[0] === 'DefaultEndpointsProtocol') protocol = keyValue[1];
  }
  return {
    accountName,
    storageDomain: env.AZURE_STORAGE_DOMAIN ?? '',
    protocol,
    // Unparsable values are false, as gocloud ignores ParseBool's error here.
    isCdn: parseGoBool(env.AZURE_STORAGE_IS_CDN ?? '') ?? false,
    isLocalEmulator: parseGoBool(env.AZURE_STORAGE_IS_LOCAL_EMULATOR ?? '') ?? false,
  };
}

/** `applyPrefixParam`: `prefix=` wraps the bucket in a PrefixedBucket, `key=` in a SingleKeyBucket; both leave the query when either is not empty. */
function takeMuxParams(query: GoValues, shown: string): string {
  const prefix = valuesGet(query, 'prefix');
  const key = valuesGet(query, 'key');
  if (prefix !== '' || key !== '') {
    query.delete('prefix');
    query.delete('key');
  }
  // A SingleKeyBucket cannot list, so Pulumi opens it and then fails on its first listing; refused up front here.
  if (key !== '') throw new AzblobUrlError(l10n.t('{0}: query parameter "key" makes gocloud read and write one object as the whole container, which a Pulumi backend cannot use', shown));
  return prefix;
}

/** `ServiceURLOptions.withOverrides`, in the URL's order (Go's map order is random). */
function withOverrides(options: ServiceUrlOptions, query: GoValues, shown: string): ServiceUrlOptions {
  const result = { ...options };
  const bool = (name: string, value: string) => {
    const parsed = parseGoBool(value);
    if (parsed === undefined)
      throw new AzblobUrlError(l10n.t('{0}: invalid value for "{1}": "{2}" is not a boolean (Go accepts 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False)', shown, name, value));
    return parsed;
  };
  for (const [name, values] of query) {
    if (values.length > 1) throw new AzblobUrlError(l10n.t('{0}: query parameter "{1}" is given {2} times; gocloud allows one value', shown, name, values.length));
    const [value] = values;
    if (name === 'domain') result.storageDomain = value;
    else if (name === 'protocol') result.protocol = value;
    else if (name === 'cdn') result.isCdn = bool(name, value);
    else if (name === 'localemu') result.isLocalEmulator = bool(name, value);
    else if (name === 'storage_account') result.accountName = value;
    else if ((name === 'prefix' || name === 'key') && value === '') {
      throw new AzblobUrlError(l10n.t('{0}: query parameter "{1}" is empty (gocloud then rejects it as an unknown parameter)', shown, name));
    } else throw new AzblobUrlError(l10n.t('{0}: unknown query parameter "{1}" (Pulumi accepts: {2})', shown, name, ACCEPTED.join(', ')));
  }
  return result;
}

/** `NewServiceURL`, without the SAS token gocloud appends (the store adds it from the environment). */
function serviceUrlOf(options: ServiceUrlOptions, shown: string): string {
  if (options.accountName === '') {
    throw new AzblobUrlError(
      l10n.t('{0}: no storage account: set AZURE_STORAGE_ACCOUNT, add storage_account= to the URL, or give a connection string with an AccountName (AZURE_STORAGE_CONNECTION_STRING)', shown),
    );
  }
  const domain = options.storageDomain || 'blob.core.windows.net';
  const protocol = options.protocol || 'https';
  if (protocol !== 'http' && protocol !== 'https') throw new AzblobUrlError(l10n.t('{0}: invalid protocol "{1}" (http or https)', shown, protocol));
  let serviceUrl: string;
  if (domain.startsWith('127.0.0.1') || domain.startsWith('localhost') || options.isLocalEmulator) serviceUrl = `${protocol}://${domain}/${options.accountName}`;
  else if (options.isCdn) serviceUrl = `${protocol}://${domain}`;
  else serviceUrl = `${protocol}://${options.accountName}.${domain}`;
  // The container client's URL is joined to it (url.JoinPath), which parses it first.
  try {
    const parsed = goParseUrl(serviceUrl);
    if (parsed.host === '') throw new GoUrlError('no host');
  } catch (error) {
    if (error instanceof GoUrlError || error instanceof NotUtf8Error) throw new AzblobUrlError(l10n.t('{0}: the service URL {1} is not a URL ({2})', shown, serviceUrl, error.message));
    throw error;
  }
  return serviceUrl;
}

/** `newCredInfoFromEnv`: which credential gocloud builds, in its order. */
function credentialOf(env: Environment): AzblobCredential {
  if (env.AZURE_STORAGE_ACCOUNT && env.AZURE_STORAGE_KEY) return { kind: 'sharedKey', accountName: env.AZURE_STORAGE_ACCOUNT };
  if (env.AZURE_STORAGE_SAS_TOKEN) return { kind: 'sas' };
  if (env.AZURE_STORAGE_CONNECTION_STRING) return { kind: 'connectionString', variable: 'AZURE_STORAGE_CONNECTION_STRING' };
  if (env.AZURE_STORAGEBLOB_CONNECTIONSTRING) return { kind: 'connectionString', variable: 'AZURE_STORAGEBLOB_CONNECTIONSTRING' };
  return { kind: 'default' };
}

/** The key prefix: `prefix=` outside, the URL's path (leading slashes dropped, a trailing one added) inside (newDIYBackend). */
function keyPrefix(queryPrefix: string, path: string): string {
  const subDir = path.replace(/^\/+/, '');
  return queryPrefix + (subDir === '' || subDir.endsWith('/') ? subDir : `${subDir}/`);
}

/**
 * Reads an `azblob://container[/prefix]?query` backend URL as Pulumi v3.274.1 does, with the errors
 * it would give, in gocloud's order (where Go's map order makes that random, in URL order). `env`
 * is the environment Pulumi would read (AZURE_STORAGE_*).
 */
export function parseAzblobBackendUrl(url: string, env: Environment): AzblobBackendUrl {
  const shown = shownUrl(url);
  try {
    const parsed = goParseUrl(url);
    if (parsed.scheme !== 'azblob') throw new AzblobUrlError(l10n.t('{0}: not an azblob:// URL', shown));
    const query = goParseQuery(parsed.rawQuery);
    const queryPrefix = takeMuxParams(query, shown);
    const options = withOverrides(defaultServiceUrlOptions(env), query, shown);
    const serviceUrl = serviceUrlOf(options, shown);
    // gocloud would open a container client on the service URL itself and fail on the first request.
    if (parsed.host === '') throw new AzblobUrlError(l10n.t('{0}: no container name (the form is azblob://CONTAINER[/prefix]?…)', shown));
    return { shown, container: parsed.host, prefix: keyPrefix(queryPrefix, parsed.path), accountName: options.accountName, serviceUrl, credential: credentialOf(env) };
  } catch (error) {
    if (error instanceof GoUrlError) throw new AzblobUrlError(l10n.t('{0}: not a URL Pulumi can read: {1}', shown, error.message));
    if (error instanceof NotUtf8Error) throw new AzblobUrlError(l10n.t('{0}: "{1}" percent-decodes to bytes that are not UTF-8', shown, error.message));
    throw error;
  }
}
