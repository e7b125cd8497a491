/**
 * A DIY backend in Azure Blob Storage (`azblob://container[/prefix]?…`) as the backend model's
 * writable store, through the official SDK (@azure/storage-blob): listings page through List Blobs'
 * continuation markers, a read is one Get Blob (a range for magic bytes), a write one Put Blob (a
 * block blob, atomic), conditional on the ETag read (`If-Match`) or on absence (`If-None-Match: *`,
 * a lock file). Keys are escaped as gocloud's azureblob escapes them, so both name the same blobs.
 * Credentials come from the environment in gocloud's order (a shared key, a SAS token, a connection
 * string, else @azure/identity's DefaultAzureCredential, loaded only then); none is ever written or
 * shown. Its own esbuild entry (dist/stores/), loaded only when an `azblob://` URL is used.
 */
import { BlobServiceClient, ContainerClient, StorageSharedKeyCredential, type StoragePipelineOptions } from '@azure/storage-blob';
import type { TokenCredential } from '@azure/identity';
import { StoreConflict, StoreError, StoreMissing, type AzblobBackendUrl, type StoredObject, type StoreObject, type WritableBackendStore } from '../backend/vocabulary';

export interface AzblobStoreOptions {
  /** How long one call may take, its retry and the body included (a stalled server ends in an error, not a hang). */
  timeoutMs: number;
  /** Blobs per listing page: gocloud's 1000 unless given (a test asks for fewer to see many pages). */
  pageSize?: number;
}

/** What the SDK's RestError carries (duck-typed: the SDK's classes are not this module's to compare). */
interface ServiceError {
  statusCode?: number;
  code?: string;
  name?: string;
  message?: string;
}

const serviceError = (error: unknown): ServiceError => (typeof error === 'object' && error !== null ? (error as ServiceError) : {});

/** A deadline that aborts the call; `DeadlineExceeded` tells it apart from the server's own errors. */
class DeadlineExceeded extends Error {}

async function withDeadline<T>(timeoutMs: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineExceeded()), timeoutMs);
  try {
    return await call(controller.signal);
  } catch (error) {
    if (controller.signal.aborted) throw new DeadlineExceeded();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** gocloud `internal/escape.unescape` at `runes[i]`: a `__0x<hex>__` sequence, its rune and its last index. */
function escapeSequenceAt(runes: string[], i: number): { rune: string; end: number } | undefined {
  if (runes.slice(i, i + 4).join('') !== '__0x') return undefined;
  let end = i + 4;
  while (end < runes.length && runes[end] !== '_') end++;
  if (runes[end] !== '_' || runes[end + 1] !== '_') return undefined;
  const hex = runes.slice(i + 4, end).join('');
  // strconv.ParseInt(hex, 16, 32): an optional sign, hex digits, within int32.
  if (!/^[+-]?[0-9a-fA-F]+$/.test(hex)) return undefined;
  const value = parseInt(hex, 16);
  if (value < -(2 ** 31) || value >= 2 ** 31) return undefined;
  // Go's rune() of an invalid code point prints as U+FFFD.
  return { rune: value >= 0 && value <= 0x10ffff && !(value >= 0xd800 && value <= 0xdfff) ? String.fromCodePoint(value) : '\ufffd', end: end + 1 };
}

/** gocloud azureblob `escapeKey`: control characters, `"#%?\` and DEL, a key's trailing `/`, the `/` of `../`, and anything that reads as an escape. */
export function escapeBlobKey(key: string, isPrefix: boolean): string {
  const runes = [...key];
  // gocloud compares the rune index with the key's length in bytes: the same for the ASCII keys Pulumi writes.
  const lastByte = new TextEncoder().encode(key).length - 1;
  const escapes = (i: number) => {
    const c = runes[i].codePointAt(0)!;
    if (c < 32 || c === 127 || '"#%?\\'.includes(runes[i])) return true;
    if (!isPrefix && i === lastByte && runes[i] === '/') return true;
    if (i > 1 && runes[i] === '/' && runes[i - 1] === '.' && runes[i - 2] === '.') return true;
    return escapeSequenceAt(runes, i) !== undefined;
  };
  return runes.map((rune, i) => (escapes(i) ? `__0x${rune.codePointAt(0)!.toString(16)}__` : rune)).join('');
}

/** gocloud `escape.HexUnescape`. */
export function unescapeBlobKey(key: string): string {
  const runes = [...key];
  let out = '';
  for (let i = 0; i < runes.length; i++) {
    const sequence = escapeSequenceAt(runes, i);
    if (sequence) {
      out += sequence.rune;
      i = sequence.end;
    } else out += runes[i];
  }
  return out;
}

/** The default Azure credential chain, loaded only when no key, SAS token or connection string is set. */
function defaultCredential(): TokenCredential {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const identity = require('@azure/identity') as typeof import('@azure/identity');
  return new identity.DefaultAzureCredential();
}

/** The container client gocloud's `credInfoT.NewClient` would make, with the secrets read from this process's environment. */
function containerClientOf(target: AzblobBackendUrl, pipeline: StoragePipelineOptions): ContainerClient {
  const containerUrl = `${target.serviceUrl.replace(/\/+$/, '')}/${encodeURIComponent(target.container)}`;
  const credential = target.credential;
  switch (credential.kind) {
    case 'sharedKey':
      return new ContainerClient(containerUrl, new StorageSharedKeyCredential(credential.accountName, process.env.AZURE_STORAGE_KEY ?? ''), pipeline);
    case 'sas': {
      const token = (process.env.AZURE_STORAGE_SAS_TOKEN ?? '').replace(/^\?/, '');
      return new ContainerClient(`${containerUrl}?${token}`, undefined, pipeline);
    }
    case 'connectionString':
      return BlobServiceClient.fromConnectionString(process.env[credential.variable] ?? '', pipeline).getContainerClient(target.container);
    case 'default':
      return new ContainerClient(containerUrl, defaultCredential(), pipeline);
  }
}

const CREDENTIAL_SOURCES =
  'AZURE_STORAGE_ACCOUNT with AZURE_STORAGE_KEY, AZURE_STORAGE_SAS_TOKEN, AZURE_STORAGE_CONNECTION_STRING, or the default Azure credential chain (AZURE_CLIENT_ID…, managed identity, az login)';
const REFUSED = new Set([
  'AuthenticationFailed',
  'AuthorizationFailure',
  'AuthorizationPermissionMismatch',
  'InsufficientAccountPermissions',
  'InvalidAuthenticationInfo',
  'NoAuthenticationInformation',
]);

/** What a failed call means, in words that name the container and the object and never a secret. */
function explain(error: unknown, where: string, what: string, timeoutMs: number): StoreError {
  if (error instanceof DeadlineExceeded) return new StoreError(`${what}: ${where} did not answer within ${timeoutMs / 1000} s (QUOTA_STATE_REMOTE_TIMEOUT_SECONDS sets the limit)`);
  const { statusCode, code, name, message } = serviceError(error);
  if (code === 'ContainerNotFound') return new StoreError(`${what}: there is no container in ${where}`);
  if ((code && REFUSED.has(code)) || statusCode === 401 || statusCode === 403) {
    return new StoreError(`${what}: ${where} refused the credentials (${code ?? statusCode}); they come from ${CREDENTIAL_SOURCES}`);
  }
  if (name === 'CredentialUnavailableError' || name === 'AggregateAuthenticationError' || name === 'AuthenticationRequiredError') {
    return new StoreError(`${what}: no Azure credentials found for ${where}; set ${CREDENTIAL_SOURCES}`);
  }
  // Azure checks names only on the wire (gocloud and Pulumi do not either): say what a valid one is.
  if (code === 'InvalidResourceName' || code === 'OutOfRangeInput') {
    return new StoreError(`${what}: ${where} answered ${statusCode ?? ''} ${code}: a container name is 3 to 63 lowercase letters, digits and single hyphens`);
  }
  if (statusCode) return new StoreError(`${what}: ${where} answered ${statusCode} ${code ?? ''}`.trimEnd());
  // A network error's message names the host and port, never a credential (the SAS token is in the query, which Node's errors do not print).
  return new StoreError(`${what}: ${where}: ${code ? `${code} ` : ''}${message ?? String(error)}`);
}

async function bytesOf(stream: NodeJS.ReadableStream | undefined): Promise<Uint8Array> {
  if (!stream) return new Uint8Array();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return new Uint8Array(Buffer.concat(chunks));
}

/** Up to this size a write is one Put Blob; above it, blocks of BLOCK_BYTES then one Put Block List. */
const SINGLE_PUT_BYTES = 8 * 1024 * 1024;
const BLOCK_BYTES = 4 * 1024 * 1024;
const BLOCK_CONCURRENCY = 4;

export function azblobBackendStore(target: AzblobBackendUrl, options: AzblobStoreOptions): WritableBackendStore & { destroy(): void } {
  // One retry: a cut connection is tried again once; the deadline bounds both tries.
  const client = containerClientOf(target, { retryOptions: { maxTries: 2, retryDelayInMs: 200 } });
  // The container's address without its query (a SAS token lives there).
  const where = `azblob://${target.container} at ${client.url.replace(/[?#].*$/, '')}`;
  const keyOf = (name: string) => escapeBlobKey(`${target.prefix}${name}`, false);
  const call = <T>(what: string, run: (abortSignal: AbortSignal) => Promise<T>) =>
    withDeadline(options.timeoutMs, run).catch((error: unknown) => {
      throw error instanceof StoreError ? error : explain(error, where, what, options.timeoutMs);
    });
  const statusOf = (error: unknown) => serviceError(error).statusCode;

  const read = (name: string, length?: number): Promise<StoredObject> =>
    call(name, async (abortSignal) => {
      const blob = client.getBlobClient(keyOf(name));
      try {
        const answer = await blob.download(0, length === undefined ? undefined : Math.max(length, 1), { abortSignal });
        return { bytes: await bytesOf(answer.readableStreamBody), version: answer.etag ?? '' };
      } catch (error) {
        const { code } = serviceError(error);
        if (code === 'BlobNotFound') throw new StoreMissing(`${target.shown}: no object ${name}`);
        // An empty blob has no first byte: its version comes from its properties.
        if (statusOf(error) === 416) return { bytes: new Uint8Array(), version: (await blob.getProperties({ abortSignal })).etag ?? '' };
        throw error;
      }
    });

  return {
    url: target.shown,
    listPage: (prefix, cursor) =>
      call(`listing ${prefix || '/'}`, async (abortSignal) => {
        const pages = client.listBlobsFlat({ prefix: escapeBlobKey(`${target.prefix}${prefix}`, true), abortSignal }).byPage({ maxPageSize: options.pageSize ?? 1000, continuationToken: cursor });
        const page = (await pages.next()).value;
        const objects: StoreObject[] = [];
        for (const item of page?.segment.blobItems ?? []) {
          const key = unescapeBlobKey(item.name);
          if (!key.startsWith(target.prefix)) continue;
          objects.push({ name: key.slice(target.prefix.length), size: item.properties.contentLength ?? 0, modifiedMs: item.properties.lastModified?.getTime() ?? 0 });
        }
        return { objects, ...(page?.continuationToken ? { next: page.continuationToken } : {}) };
      }),
    read: (name, readOptions) => read(name, readOptions?.length),
    write: (name, bytes, condition = {}) =>
      call(name, async (abortSignal) => {
        const ifVersion = condition.ifVersion;
        const conditions = ifVersion === null ? { ifNoneMatch: '*' } : ifVersion !== undefined ? { ifMatch: ifVersion } : {};
        try {
          // Large stacks go up in blocks, committed under the condition; one Put Blob of 90 MB breaks
          // Azurite's connection (EPIPE) and holds the whole body in one request against the deadline.
          await client.getBlockBlobClient(keyOf(name)).uploadData(bytes, { conditions, abortSignal, maxSingleShotSize: SINGLE_PUT_BYTES, blockSize: BLOCK_BYTES, concurrency: BLOCK_CONCURRENCY });
        } catch (error) {
          // 412 ConditionNotMet (If-Match, or If-None-Match on some versions), 409 BlobAlreadyExists (If-None-Match: *).
          if (statusOf(error) === 412 || statusOf(error) === 409) throw new StoreConflict(`${name} changed since it was read (another writer); nothing was written`);
          throw error;
        }
      }),
    delete: (name) =>
      call(name, async (abortSignal) => {
        try {
          await client.getBlobClient(keyOf(name)).delete({ abortSignal });
        } catch (error) {
          if (serviceError(error).code !== 'BlobNotFound') throw error;
        }
      }),
    // The SDK keeps no connection of its own to close: its HTTP agent lets the process exit.
    destroy: () => undefined,
  };
}
