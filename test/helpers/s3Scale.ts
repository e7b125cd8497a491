/**
 * Fills a bucket with a big Pulumi DIY backend in the project layout, for scale tests and the bench:
 * `.pulumi/meta.yaml` (version 1), one small valid checkpoint per stack under
 * `.pulumi/stacks/<project>/<stack>.json`, and history entries spread over the stacks, each a
 * `<stack>-<UnixNano>.history.json` with its `.checkpoint.json` beside it under
 * `.pulumi/history/<project>/<stack>/`. Objects are generated as they are written (never all in
 * memory) and written by a fixed pool of workers through @aws-sdk/client-s3.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

export interface ScaleServer {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region?: string;
}

export interface ScaleOptions {
  /** Stacks s0000, s0001, …; 1000 unless given. */
  stacks?: number;
  /** History entries in all, spread evenly over the stacks (the first ones get one more when it does not divide); 20000 unless given. */
  entries?: number;
  /** 'scale' unless given. */
  project?: string;
  /** Key prefix the backend lives under ('' unless given); a slash is added when it has none. */
  prefix?: string;
  /** PutObject calls in flight at once; 32 unless given. */
  concurrency?: number;
  /**
   * The checkpoint text of a stack after `step` of its `steps` updates: each history entry n (1-based)
   * gets step n beside it, the stack file step `steps`. A small valid checkpoint of the root stack
   * resource alone, the same at every step, unless given.
   */
  checkpoint?: CheckpointMaker;
}

export type CheckpointMaker = (project: string, stack: string, step: number, steps: number) => string;

export interface ScaleResult {
  stacks: number;
  entries: number;
  objects: number;
}

/** The first entry's UnixNano; each next entry is one second later (19 digits throughout). */
const FIRST_NANO = 1_795_800_000_000_000_000n;
const NANOS_PER_SECOND = 1_000_000_000n;
const FIRST_SECOND = Number(FIRST_NANO / NANOS_PER_SECOND);

interface ScaleObject {
  key: string;
  body: string;
  contentType: string;
}

/** A small valid checkpoint (version 3) of one stack: its root stack resource only. */
function scaleCheckpoint(project: string, stack: string): string {
  return JSON.stringify({
    version: 3,
    checkpoint: {
      stack: `organization/${project}/${stack}`,
      latest: {
        manifest: { time: '2026-01-01T00:00:00Z', magic: '294a449188e3da4517a05ae33e5c1307bbafa419a82735db7986e01d5ec6b1c0', version: 'v3.274.1' },
        resources: [{ urn: `urn:pulumi:${stack}::${project}::pulumi:pulumi:Stack::${project}-${stack}`, custom: false, type: 'pulumi:pulumi:Stack' }],
      },
    },
  });
}

/** A succeeded update's history entry that started at `second`. */
function historyEntry(second: number): string {
  return JSON.stringify({
    kind: 'update',
    startTime: second,
    message: '',
    environment: {},
    config: {},
    version: 0,
    result: 'succeeded',
    endTime: second + 1,
    resourceChanges: { same: 1 },
  });
}

const stackName = (index: number) => `s${String(index).padStart(4, '0')}`;

/** Every object of the backend, in order, made one at a time. */
function* scaleObjects(prefix: string, project: string, stacks: number, entries: number, checkpoint: CheckpointMaker = scaleCheckpoint): Generator<ScaleObject> {
  const json = 'application/json';
  yield { key: `${prefix}.pulumi/meta.yaml`, body: 'version: 1\n', contentType: 'application/x-yaml' };
  let entry = 0;
  for (let index = 0; index < stacks; index++) {
    const stack = stackName(index);
    const count = Math.floor(entries / stacks) + (index < entries % stacks ? 1 : 0);
    yield { key: `${prefix}.pulumi/stacks/${project}/${stack}.json`, body: checkpoint(project, stack, count, count), contentType: json };
    for (let n = 0; n < count; n++, entry++) {
      const base = `${prefix}.pulumi/history/${project}/${stack}/${stack}-${FIRST_NANO + BigInt(entry) * NANOS_PER_SECOND}`;
      yield { key: `${base}.history.json`, body: historyEntry(FIRST_SECOND + entry), contentType: json };
      yield { key: `${base}.checkpoint.json`, body: checkpoint(project, stack, n + 1, count), contentType: json };
    }
  }
}

/**
 * Writes the scale backend through any writable store (the product's own stores of the other remote
 * schemes, a folder), `concurrency` writes in flight; says how much it wrote.
 */
export async function fillScaleStore(store: { write(name: string, bytes: Uint8Array): Promise<void> }, options: Omit<ScaleOptions, 'prefix'> = {}): Promise<ScaleResult> {
  const stacks = options.stacks ?? 1000;
  const entries = options.entries ?? 20_000;
  const objects = scaleObjects('', options.project ?? 'scale', stacks, entries, options.checkpoint);
  let written = 0;
  const encoder = new TextEncoder();
  const worker = async () => {
    for (let next = objects.next(); !next.done; next = objects.next()) {
      await store.write(next.value.key, encoder.encode(next.value.body));
      written++;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 16) }, worker));
  return { stacks, entries, objects: written };
}

/** A folder as the store fillScaleStore writes through: each object a file at its name. */
export function folderWriter(folder: string): { write(name: string, bytes: Uint8Array): Promise<void> } {
  return {
    write: async (name, bytes) => {
      const path = join(folder, ...name.split('/'));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, bytes);
    },
  };
}

/** Writes the scale backend into `bucket` (which must exist) and says how much it wrote. */
export async function fillScaleBackend(server: ScaleServer, bucket: string, options: ScaleOptions = {}): Promise<ScaleResult> {
  const stacks = options.stacks ?? 1000;
  const entries = options.entries ?? 20_000;
  const project = options.project ?? 'scale';
  const prefix = options.prefix ? options.prefix.replace(/\/*$/, '/') : '';
  const concurrency = Math.max(1, options.concurrency ?? 32);
  if (!Number.isInteger(stacks) || stacks < 1) throw new Error(`fillScaleBackend needs at least one stack, not ${stacks}`);
  if (!Number.isInteger(entries) || entries < 0) throw new Error(`fillScaleBackend needs a whole number of entries, not ${entries}`);

  const client = new S3Client({
    endpoint: server.endpoint,
    region: server.region ?? 'us-east-1',
    credentials: { accessKeyId: server.accessKey, secretAccessKey: server.secretKey },
    forcePathStyle: true,
    // The bodies are tiny and the server local: no extra checksum work beyond what S3 requires.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    requestHandler: { httpAgent: { keepAlive: true, maxSockets: concurrency } },
  });
  const objects = scaleObjects(prefix, project, stacks, entries, options.checkpoint);
  let written = 0;
  let failure: unknown;
  // Each worker takes the next object from the one shared generator, so at most `concurrency` bodies exist at a time.
  const worker = async () => {
    for (let next = objects.next(); !next.done && failure === undefined; next = objects.next()) {
      const { key, body, contentType } = next.value;
      try {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
        written++;
      } catch (error) {
        failure ??= new Error(`PutObject ${bucket}/${key} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    client.destroy();
  }
  if (failure !== undefined) throw failure;
  return { stacks, entries, objects: written };
}
