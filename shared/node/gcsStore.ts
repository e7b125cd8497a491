/**
 * A DIY backend in Google Cloud Storage (`gs://bucket[/prefix]`) as the backend model's writable
 * store, through the official SDK (@google-cloud/storage): listings page through `pageToken`
 * cursors, a read is one GET whose answer names the generation (the version; a range for magic
 * bytes), a write one upload conditional on the generation read
 * (`ifGenerationMatch`, 0 for "only if absent"), which GCS applies atomically. Credentials come in
 * Pulumi's order (GOOGLE_CREDENTIALS, GOOGLE_OAUTH_ACCESS_TOKEN, application default credentials);
 * none is ever written or shown. With STORAGE_EMULATOR_HOST every request goes unauthenticated to
 * `http://HOST`, as gocloud sends it. Its own esbuild entry (dist/stores/gcsStore.js), loaded only
 * when a `gs://` URL is used.
 */
import { ApiError, Storage, type Bucket, type File, type StorageOptions } from '@google-cloud/storage';
import {
  gcsObjectKey,
  gcsObjectName,
  objectUrl,
  StoreConflict,
  StoreError,
  StoreMissing,
  type GcsBackendUrl,
  type StoredObject,
  type StoreObject,
  type WritableBackendStore,
} from '../backend/vocabulary';

export interface GcsStoreOptions {
  /** How long one request may take (a stalled server ends in an error, not a hang). */
  timeoutMs: number;
}

/** GCS's page size for a listing (gocloud's defaultPageSize, GCS's maximum). */
const PAGE_SIZE = 1000;
/** A read that finds its generation replaced between the metadata and the bytes starts again, this many times. */
const READ_ATTEMPTS = 3;

const statusOf = (error: unknown): number | undefined => (error instanceof ApiError || typeof (error as { code?: unknown })?.code === 'number' ? (error as { code: number }).code : undefined);

const CREDENTIAL_HELP = "GOOGLE_CREDENTIALS (a key's JSON), GOOGLE_OAUTH_ACCESS_TOKEN, or application default credentials (GOOGLE_APPLICATION_CREDENTIALS, gcloud auth application-default login)";

/** What a failed request means, in words that name the bucket and the object and never a secret. */
function explain(error: unknown, target: GcsBackendUrl, what: string, timeoutMs: number): StoreError {
  const where = `gs://${target.bucket}${target.emulatorEndpoint ? ` at ${target.emulatorEndpoint}` : ''}`;
  const status = statusOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (status === 404) return new StoreError(`${what}: there is no bucket "${target.bucket}" (${where})`);
  if (status === 401 || status === 403) return new StoreError(`${what}: ${where} refused the credentials (${status}); they come from ${CREDENTIAL_HELP}`);
  if (status !== undefined && status >= 100) return new StoreError(`${what}: ${where} answered ${status} ${message}`);
  const code = String((error as { code?: unknown })?.code ?? (error as { name?: unknown })?.name ?? '');
  if (/timeout|ETIMEDOUT|ESOCKETTIMEDOUT/i.test(code) || /timed? ?out|timeout/i.test(message)) {
    return new StoreError(`${what}: ${where} did not answer within ${Math.round(timeoutMs / 1000)} s`);
  }
  if (/Could not load the default credentials|Unable to detect a Project Id/i.test(message)) {
    return new StoreError(`${what}: no Google credentials found for ${where} (set ${CREDENTIAL_HELP})`);
  }
  const network = `${code} ${message}`;
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN/i.test(network)) {
    // A host of its own: not the storage endpoint but another the request needed first (a key's token endpoint).
    const hostname = (error as { hostname?: unknown }).hostname;
    const other = typeof hostname === 'string' && !(target.emulatorEndpoint ?? '').includes(hostname) ? `${hostname}, needed for ` : '';
    return new StoreError(`${what}: could not reach ${other}${where} (${code || message})`);
  }
  // Cut while a request was under way (the server stopped, a connection dropped): GCS applies a write whole or not at all.
  if (/ECONNRESET|EPIPE|socket hang up|premature close/i.test(network)) return new StoreError(`${what}: the connection to ${where} broke (${/EPIPE/.test(network) ? 'EPIPE' : code || 'ECONNRESET'})`);
  return new StoreError(`${what}: ${where}: ${message}`);
}

/**
 * The SDK's credentials, chosen in Pulumi's order (pkg/authhelpers/gcpauth.go ResolveGoogleCredentials).
 * A bearer token needs no library of its own: the SDK's GoogleAuth asks its client for the request's
 * headers and nothing else (`authorizeRequest`), as oauth2.StaticTokenSource gives Pulumi the token.
 */
function authOptions(target: GcsBackendUrl): StorageOptions {
  switch (target.credentials) {
    case 'GOOGLE_CREDENTIALS': {
      let credentials: unknown;
      try {
        credentials = JSON.parse(process.env.GOOGLE_CREDENTIALS ?? '');
      } catch {
        // Never the text itself: it is a private key.
        throw new StoreError(`${target.shown}: GOOGLE_CREDENTIALS is not JSON (Pulumi reads it as the JSON text of a key, not a file name)`);
      }
      return { credentials: credentials as StorageOptions['credentials'] };
    }
    case 'GOOGLE_OAUTH_ACCESS_TOKEN': {
      const token = process.env.GOOGLE_OAUTH_ACCESS_TOKEN ?? '';
      return { authClient: { getRequestHeaders: async () => ({ Authorization: `Bearer ${token}` }) } as unknown as StorageOptions['authClient'] };
    }
    case 'application-default':
    case 'none':
      return {};
  }
}

/**
 * The SDK sends credentials to an endpoint of its own naming (`customEndpoint`) only with
 * `useAuthWithCustomEndpoint`: an emulator gets none (gocloud sends it none), and an anonymous client
 * names Google's own endpoint with a trailing slash, which counts as one of its own, so that it never
 * looks for credentials.
 */
function endpointOptions(target: GcsBackendUrl): StorageOptions {
  if (target.emulatorEndpoint !== undefined) return { apiEndpoint: target.emulatorEndpoint, useAuthWithCustomEndpoint: target.credentials !== 'none' };
  if (target.credentials === 'none') return { apiEndpoint: 'https://storage.googleapis.com/', useAuthWithCustomEndpoint: false };
  return {};
}

function newStorage(target: GcsBackendUrl, options: GcsStoreOptions): Storage {
  const storageOptions: StorageOptions = {
    ...authOptions(target),
    ...endpointOptions(target),
    timeout: options.timeoutMs,
    // One retry: a cut connection is tried again once (conditional writes only: the SDK's default strategy), a stalled server fails within twice the timeout.
    retryOptions: { maxRetries: 1, totalTimeout: Math.ceil((2 * options.timeoutMs) / 1000) },
  };
  // The SDK reads STORAGE_EMULATOR_HOST itself, and takes it as its base URL whole (no /storage/v1, no
  // http:// added), where gocloud sends to http://HOST/storage/v1/: the endpoint is given instead, and the
  // variable hidden from the constructor (synchronous, so nothing else runs in between).
  const emulatorHost = process.env.STORAGE_EMULATOR_HOST;
  delete process.env.STORAGE_EMULATOR_HOST;
  try {
    return new Storage(storageOptions);
  } finally {
    if (emulatorHost !== undefined) process.env.STORAGE_EMULATOR_HOST = emulatorHost;
  }
}

/** A listing's page: the names relative to the backend root, gcsblob's escaping undone. */
function pageOf(files: File[], target: GcsBackendUrl, nextToken: string | undefined): { objects: StoreObject[]; next?: string } {
  const objects: StoreObject[] = [];
  for (const file of files) {
    const name = gcsObjectName(file.name);
    if (!name.startsWith(target.prefix)) continue;
    const updated = file.metadata.updated ? Date.parse(file.metadata.updated) : NaN;
    objects.push({ name: name.slice(target.prefix.length), size: Number(file.metadata.size ?? 0), modifiedMs: Number.isNaN(updated) ? 0 : updated });
  }
  return { objects, ...(nextToken ? { next: nextToken } : {}) };
}

/** What reading an object needs of its store. */
interface ObjectAccess {
  bucket: Bucket;
  keyOf(name: string): string;
  fail(error: unknown, name: string): StoreError;
  missing(name: string): StoreMissing;
  /** Rejects with the bucket's own error when a 404 was the bucket's, not the object's. */
  bucketThere(name: string, notFound: unknown): Promise<void>;
}

/** One GET of a file's bytes (the first `length` where given), with the generation GCS names in its answer (`x-goog-generation`). */
function download(file: File, length: number | undefined): Promise<{ bytes: Uint8Array; generation?: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let answered: string | undefined;
    file
      .createReadStream(length !== undefined ? { start: 0, end: Math.max(length, 1) - 1 } : {})
      .on('response', (response: { headers?: Record<string, unknown> }) => {
        const header = response.headers?.['x-goog-generation'];
        if (typeof header === 'string' && /^[0-9]+$/.test(header)) answered = header;
      })
      .on('data', (chunk: Buffer) => chunks.push(chunk))
      .on('error', reject)
      .on('end', () => resolve({ bytes: new Uint8Array(Buffer.concat(chunks)), ...(answered !== undefined ? { generation: answered } : {}) }));
  });
}

/** An object's bytes and generation: one GET when its answer names the generation (GCS and fake-gcs-server do), else the metadata's generation and then that generation's bytes. */
function objectReader({ bucket, keyOf, fail, missing, bucketThere }: ObjectAccess): (name: string, length: number | undefined) => Promise<StoredObject> {
  /** The object's generation, or undefined when there is none; a missing bucket is an error. */
  const generationOf = async (name: string): Promise<string | undefined> => {
    try {
      const [metadata] = await bucket.file(keyOf(name)).getMetadata();
      return String(metadata.generation);
    } catch (error) {
      if (statusOf(error) !== 404) throw fail(error, name);
      await bucketThere(name, error);
      return undefined;
    }
  };
  const readPinned = async (name: string, length: number | undefined): Promise<StoredObject | 'replaced'> => {
    const generation = await generationOf(name);
    if (generation === undefined) throw missing(name);
    try {
      return { bytes: (await download(bucket.file(keyOf(name), { generation: Number(generation) }), length)).bytes, version: generation };
    } catch (error) {
      // That generation is gone: another writer replaced or removed the object in between.
      if (statusOf(error) === 404) return 'replaced';
      // An empty object has no first byte.
      if (statusOf(error) === 416) return { bytes: new Uint8Array(), version: generation };
      throw fail(error, name);
    }
  };
  const readOnce = async (name: string, length: number | undefined): Promise<StoredObject | 'replaced'> => {
    try {
      const { bytes, generation } = await download(bucket.file(keyOf(name)), length);
      if (generation !== undefined) return { bytes, version: generation };
    } catch (error) {
      if (statusOf(error) === 404) {
        await bucketThere(name, error);
        throw missing(name);
      }
      // An empty object has no first byte (416): its generation comes from its metadata.
      if (statusOf(error) !== 416) throw fail(error, name);
    }
    return readPinned(name, length);
  };
  return async (name, length) => {
    for (let attempt = 1; ; attempt++) {
      const outcome = await readOnce(name, length);
      if (outcome !== 'replaced') return outcome;
      if (attempt === READ_ATTEMPTS) throw fail(new Error('it kept changing while it was read (another writer); try again'), name);
    }
  };
}

export function gcsBackendStore(target: GcsBackendUrl, options: GcsStoreOptions): WritableBackendStore & { destroy(): void } {
  const storage = newStorage(target, options);
  const bucket = storage.bucket(target.bucket);
  const keyOf = (name: string) => gcsObjectKey(`${target.prefix}${name}`);
  const missing = (name: string) => new StoreMissing(`${objectUrl(target.shown, name)}: no such object`);

  /** An object as messages name it: the backend URL with its key (`gs://bucket/prefix/.pulumi/meta.yaml`). */
  const shown = (name: string) => objectUrl(target.shown, name);
  const fail = (error: unknown, name: string) => explain(error, target, shown(name), options.timeoutMs);
  /**
   * GCS answers 404 alike for a missing object and a missing bucket: a miss asks once whether the
   * bucket is there (remembered once it is), so a wrong bucket name is an error, never an empty backend.
   */
  let bucketSeen = false;
  const bucketThere = async (name: string, notFound: unknown): Promise<void> => {
    if (bucketSeen) return;
    try {
      await bucket.getMetadata();
      bucketSeen = true;
    } catch (error) {
      throw fail(statusOf(error) === 404 ? notFound : error, name);
    }
  };

  const read = objectReader({ bucket, keyOf, fail, missing, bucketThere });

  const write = async (name: string, bytes: Uint8Array, ifVersion: string | null | undefined): Promise<void> => {
    // GCS's generation precondition: 0 means "only if there is no live object".
    const condition = ifVersion === undefined ? {} : { preconditionOpts: { ifGenerationMatch: ifVersion === null ? 0 : Number(ifVersion) } };
    try {
      await bucket.file(keyOf(name)).save(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), { resumable: false, contentType: 'application/octet-stream', ...condition });
    } catch (error) {
      if (statusOf(error) === 412) throw new StoreConflict(`${shown(name)} changed since it was read (another writer); nothing was written`);
      throw fail(error, name);
    }
  };

  return {
    url: target.shown,
    async listPage(prefix, cursor) {
      try {
        const [files, nextQuery] = await bucket.getFiles({ prefix: keyOf(prefix), maxResults: PAGE_SIZE, autoPaginate: false, ...(cursor ? { pageToken: cursor } : {}) });
        return pageOf(files, target, (nextQuery as { pageToken?: string } | null)?.pageToken);
      } catch (error) {
        throw fail(error, prefix);
      }
    },
    read: (name, readOptions) => read(name, readOptions?.length),
    write: (name, bytes, condition = {}) => write(name, bytes, condition.ifVersion),
    async delete(name) {
      try {
        await bucket.file(keyOf(name)).delete();
      } catch (error) {
        if (statusOf(error) !== 404) throw fail(error, name);
        await bucketThere(name, error);
      }
    },
    // The SDK keeps no sockets of its own beyond Node's agent: nothing to close.
    destroy: () => undefined,
  };
}
