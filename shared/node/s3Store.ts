/**
 * A DIY backend in object storage (`s3://bucket[/prefix]?…`) as the backend model's writable store,
 * through the official AWS SDK: listings page through ListObjectsV2's continuation tokens, a read
 * is one GetObject (a Range for magic bytes), a write one PutObject (atomic in S3), conditional on
 * the ETag read (`If-Match`) or on absence (`If-None-Match: *`, a lock file). A store that answers
 * a condition with 501 gets the ETag compared just before the write instead. Credentials come from
 * the SDK's standard chain (environment, shared files, `profile=`); none is ever written or shown.
 * Its own esbuild entry (dist/cli/s3Store.js), loaded only when an `s3://` URL is used.
 */
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException, type S3ClientConfig } from '@aws-sdk/client-s3';
import { StoreConflict, StoreError, StoreMissing, type S3BackendUrl, type StoredObject, type StoreObject, type WritableBackendStore } from '../backend/vocabulary';

/** The store's error classes (one place to name them, passed to the helpers below). */
interface StoreErrors {
  StoreError: typeof StoreError;
  StoreConflict: typeof StoreConflict;
}

export interface S3StoreOptions {
  /** How long one request may take (a stalled server ends in an error, not a hang). */
  timeoutMs: number;
}

/** What a failed request means, in words that name the bucket and never a secret. */
function explain(error: unknown, target: S3BackendUrl, what: string, { StoreError }: StoreErrors): StoreError {
  const where = `s3://${target.bucket}${target.endpoint ? ` at ${target.endpoint}` : ''}`;
  if (error instanceof S3ServiceException) {
    const code = error.name;
    if (code === 'NoSuchBucket') return new StoreError(`${what}: there is no bucket "${target.bucket}" (${where})`);
    if (['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'AccessDenied', 'InvalidToken', 'ExpiredToken'].includes(code)) {
      return new StoreError(
        `${what}: ${where} refused the credentials (${code}); they come from the AWS SDK's chain: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE or profile=, ~/.aws/credentials`,
      );
    }
    return new StoreError(`${what}: ${where} answered ${error.$metadata.httpStatusCode ?? '?'} ${code}`);
  }
  const name = (error as { name?: string; code?: string }).code ?? (error as { name?: string }).name ?? '';
  if (name === 'TimeoutError' || name === 'RequestTimeout' || /timed? ?out/i.test(String((error as Error).message))) {
    return new StoreError(`${what}: ${where} did not answer in time (QUOTA_STATE_S3_TIMEOUT_SECONDS sets the limit)`);
  }
  if (name === 'CredentialsProviderError') return new StoreError(`${what}: no AWS credentials found for ${where} (set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE)`);
  return new StoreError(`${what}: ${where}: ${error instanceof Error ? error.message : String(error)}`);
}

const statusOf = (error: unknown) => (error instanceof S3ServiceException ? error.$metadata.httpStatusCode : undefined);

function clientConfig(target: S3BackendUrl, options: S3StoreOptions): S3ClientConfig {
  return {
    ...(target.region ? { region: target.region } : {}),
    ...(target.endpoint ? { endpoint: target.endpoint } : {}),
    ...(target.profile ? { profile: target.profile } : {}),
    forcePathStyle: target.forcePathStyle,
    useDualstackEndpoint: target.useDualstack,
    useFipsEndpoint: target.useFips,
    useAccelerateEndpoint: target.useAccelerate,
    ...(target.requestChecksumCalculation ? { requestChecksumCalculation: target.requestChecksumCalculation === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED' } : {}),
    ...(target.responseChecksumValidation ? { responseChecksumValidation: target.responseChecksumValidation === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED' } : {}),
    // Anonymous access signs nothing (gocloud's anonymous=true).
    ...(target.anonymous ? { signer: { sign: async (request) => request } } : {}),
    ...(!target.endpoint && target.disableHttps ? { tls: false } : {}),
    // throwOnRequestTimeout: without it the SDK only warns and a stalled server hangs the command.
    requestHandler: { requestTimeout: options.timeoutMs, connectionTimeout: options.timeoutMs, throwOnRequestTimeout: true },
    // One retry: a cut connection is tried again once, a stalled server fails within twice the timeout.
    maxAttempts: 2,
  } as S3ClientConfig;
}

/**
 * PutObject with the store's condition: absent (`null`, If-None-Match), unchanged (an ETag,
 * If-Match, compared first too: a store that ignores If-Match still refuses all but a write in the
 * same instant, and one that answers 501 gets that comparison alone), or none.
 */
async function conditionalWrite(
  name: string,
  bytes: Uint8Array,
  ifVersion: string | null | undefined,
  s3: {
    put(name: string, bytes: Uint8Array, condition: { IfMatch?: string; IfNoneMatch?: string }): Promise<unknown>;
    version(name: string): Promise<string | undefined>;
    explain(error: unknown): StoreError;
  },
  { StoreError, StoreConflict }: StoreErrors,
): Promise<void> {
  const changed = () => new StoreConflict(`${name} changed since it was read (another writer); nothing was written`);
  try {
    if (ifVersion === null) await s3.put(name, bytes, { IfNoneMatch: '*' });
    else if (ifVersion === undefined) await s3.put(name, bytes, {});
    else {
      if ((await s3.version(name)) !== ifVersion) throw changed();
      try {
        await s3.put(name, bytes, { IfMatch: ifVersion });
      } catch (error) {
        if (statusOf(error) !== 501) throw error;
        await s3.put(name, bytes, {});
      }
    }
  } catch (error) {
    if (error instanceof StoreError) throw error;
    if (statusOf(error) === 412 || statusOf(error) === 409) throw changed();
    throw s3.explain(error);
  }
}

export function s3BackendStore(target: S3BackendUrl, options: S3StoreOptions): WritableBackendStore & { destroy(): void } {
  // The SDK warns on every run under Node 20 about its releases of 2027; the version bundled here supports it.
  // Unless asked for ("false"): an empty value (an env file's `VAR=`) silences it too.
  if (process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED !== 'false') process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const errors: StoreErrors = { StoreError, StoreConflict };
  const client = new S3Client(clientConfig(target, options));
  const Bucket = target.bucket;
  const keyOf = (name: string) => `${target.prefix}${name}`;
  const sse = target.serverSideEncryption
    ? { ServerSideEncryption: target.serverSideEncryption.type as 'AES256', ...(target.serverSideEncryption.kmsKeyId ? { SSEKMSKeyId: target.serverSideEncryption.kmsKeyId } : {}) }
    : {};

  const read = async (name: string, length?: number): Promise<StoredObject> => {
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(name), ...(length !== undefined ? { Range: `bytes=0-${Math.max(length, 1) - 1}` } : {}) }));
      return { bytes: (await answer.Body?.transformToByteArray()) ?? new Uint8Array(), version: answer.ETag ?? '' };
    } catch (error) {
      // An empty object has no first byte: its version comes from its head.
      if (statusOf(error) === 416) return { bytes: new Uint8Array(), version: (await version(name)) ?? '' };
      if (error instanceof S3ServiceException && error.name === 'NoSuchKey') throw new StoreMissing(`${target.url}: no object ${name}`);
      throw explain(error, target, name, errors);
    }
  };
  const version = async (name: string): Promise<string | undefined> => {
    try {
      return (await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(name) }))).ETag;
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw explain(error, target, name, errors);
    }
  };
  const put = async (name: string, bytes: Uint8Array, condition: { IfMatch?: string; IfNoneMatch?: string }) =>
    client.send(new PutObjectCommand({ Bucket, Key: keyOf(name), Body: bytes, ContentLength: bytes.length, ...sse, ...condition }));

  return {
    url: target.url,
    async listPage(prefix, cursor) {
      let page;
      try {
        page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: keyOf(prefix), ContinuationToken: cursor }));
      } catch (error) {
        throw explain(error, target, `listing ${prefix || '/'}`, errors);
      }
      const objects: StoreObject[] = [];
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        objects.push({ name: object.Key.slice(target.prefix.length), size: object.Size ?? 0, modifiedMs: object.LastModified?.getTime() ?? 0 });
      }
      return { objects, ...(page.IsTruncated && page.NextContinuationToken ? { next: page.NextContinuationToken } : {}) };
    },
    read: (name, options) => read(name, options?.length),
    write: (name, bytes, condition = {}) => conditionalWrite(name, bytes, condition.ifVersion, { put, version, explain: (error) => explain(error, target, name, errors) }, errors),
    async delete(name) {
      try {
        await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(name) }));
      } catch (error) {
        if (statusOf(error) !== 404) throw explain(error, target, name, errors);
      }
    },
    destroy: () => client.destroy(),
  };
}
