/**
 * `backend copy` in the bench: a `file://` backend of 200 stacks × 50 history entries each
 * (BENCH_COPY_STACKS, BENCH_COPY_ENTRIES), every entry with its checkpoint, the checkpoints realistic
 * states of the bench's generator (generate.ts), each stack growing over its history to between 5 and
 * 60 resources; then, in the same run, whole processes against their baselines:
 * - `quota-state backend copy file://SRC file://DST` against `cp -r` of the same tree;
 * - `quota-state backend copy file://SRC s3://…` into a bucket of a real MinIO against the AWS SDK's
 *   own upload of the same files (PutObject: @aws-sdk/lib-storage is no dependency of ours) into
 *   another bucket of the same MinIO, with as many requests in flight as our copy has (one: it copies
 *   object after object, each verified).
 * Each row names the objects and bytes copied. `node --import tsx test/bench/copyFigures.ts` runs
 * these rows alone (build first: they run dist/).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createBucket, startMinio, type MinioServer } from '../../scripts/minio.mjs';
import { fillScaleStore, folderWriter } from '../helpers/s3Scale';
import { generateDeployment } from './generate';
import { runCli, type BucketFigure } from './s3Figures';

export const COPY_STACKS = Number(process.env.BENCH_COPY_STACKS ?? 200);
export const COPY_ENTRIES = Number(process.env.BENCH_COPY_ENTRIES ?? 50);
export const COPY_RUNS = Number(process.env.BENCH_COPY_RUNS ?? 1);
/** Our copy's requests in flight: it writes (and verifies) one object after the other. */
const OUR_CONCURRENCY = 1;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A stack's checkpoint after `step` of its `steps` updates: the generator's state, grown to the step's share of the stack's final size. */
function realisticCheckpoint(project: string, stack: string, step: number, steps: number): string {
  const index = Number(/\d+$/.exec(stack)?.[0] ?? 0);
  const finalResources = 5 + ((index * 37) % 56);
  const resources = Math.max(3, Math.round((finalResources * step) / steps));
  const latest = generateDeployment({ resources, seed: index + 1, stack, project });
  return JSON.stringify({ version: 3, checkpoint: { stack: `organization/${project}/${stack}`, latest } }, null, 4);
}

/** Every file under `folder`: its path relative to it (with `/`) and its size. */
function filesOf(folder: string): Array<{ key: string; path: string; size: number }> {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { key: relative(folder, path).split(sep).join('/'), path, size: statSync(path).size };
    });
}

/** The AWS SDK's own upload of every file of `folder` into `bucket`, `concurrency` PutObject calls in flight. */
async function sdkUpload(server: MinioServer, folder: string, bucket: string, concurrency: number): Promise<number> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client({ endpoint: server.endpoint, region: server.region, forcePathStyle: true, credentials: { accessKeyId: server.accessKey, secretAccessKey: server.secretKey } });
  const files = filesOf(folder);
  let next = 0;
  const start = performance.now();
  try {
    const worker = async () => {
      for (let file = files[next++]; file; file = files[next++]) {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: file.key, Body: readFileSync(file.path), ContentType: 'application/json' }));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    return performance.now() - start;
  } finally {
    client.destroy();
  }
}

/** One `backend copy`, whole process, which must copy every object but meta.yaml and verify them all. */
function ourCopy(args: string[], env: NodeJS.ProcessEnv, rss: string, objects: number): { ms: number; rssMB: number } {
  const run = runCli(['backend', 'copy', ...args], env, rss);
  const written = Number(/(\d+) objects written/.exec(run.stdout)?.[1]);
  if (run.status !== 0 || !/all verified/.test(run.stdout) || written !== objects - 1) {
    throw new Error(`backend copy ${args.join(' ')} (exit ${run.status}) did not copy and verify ${objects - 1} objects: ${run.stdout.slice(0, 500)}`);
  }
  return run;
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

export async function copyFigures(out: string, runs: number, log: (line: string) => void): Promise<Array<BucketFigure & { id: string }>> {
  const scratch = join(out, 'copy');
  rmSync(scratch, { recursive: true, force: true });
  const src = join(scratch, 'src');
  let server: MinioServer | undefined;
  try {
    const filled = await fillScaleStore(folderWriter(src), { stacks: COPY_STACKS, entries: COPY_STACKS * COPY_ENTRIES, project: 'copy', checkpoint: realisticCheckpoint });
    const files = filesOf(src);
    const bytes = files.reduce((sum, file) => sum + file.size, 0);
    const what = `${filled.stacks} stacks × ${COPY_ENTRIES} entries, ${files.length} objects, ${megabytes(bytes)}`;
    log(`copy: ${what} in ${src}`);
    const env = { ...process.env, PULUMI_BACKEND_URL: '', HOME: scratch };
    const rss = join(scratch, 'rss');
    const local = { ours: [] as number[], cp: [] as number[], peak: 0 };
    for (let run = 0; run < runs; run++) {
      const dst = join(scratch, `dst-${run}`);
      const measured = ourCopy([`file://${src}`, `file://${dst}`], env, rss, files.length);
      local.ours.push(measured.ms);
      local.peak = Math.max(local.peak, measured.rssMB);
      rmSync(dst, { recursive: true, force: true });
      const start = performance.now();
      const cp = spawnSync('cp', ['-r', src, dst]);
      local.cp.push(performance.now() - start);
      if (cp.status !== 0) throw new Error(`cp -r failed: ${String(cp.stderr)}`);
      rmSync(dst, { recursive: true, force: true });
    }
    log(`copy: file→file ${(median(local.ours) / 1000).toFixed(1)} s, cp -r ${(median(local.cp) / 1000).toFixed(1)} s`);

    server = await startMinio({ log });
    const s3Env = { ...env, AWS_ACCESS_KEY_ID: server.accessKey, AWS_SECRET_ACCESS_KEY: server.secretKey, AWS_REGION: server.region, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
    const remote = { ours: [] as number[], sdk: [] as number[], peak: 0 };
    for (let run = 0; run < runs; run++) {
      await createBucket(server, `copy-ours-${run}`);
      await createBucket(server, `copy-sdk-${run}`);
      const measured = ourCopy([`file://${src}`, `s3://copy-ours-${run}?endpoint=${server.endpoint}&s3ForcePathStyle=true&region=${server.region}`], s3Env, rss, files.length);
      remote.ours.push(measured.ms);
      remote.peak = Math.max(remote.peak, measured.rssMB);
      remote.sdk.push(await sdkUpload(server, src, `copy-sdk-${run}`, OUR_CONCURRENCY));
    }
    log(`copy: file→s3 ${(median(remote.ours) / 1000).toFixed(1)} s, the SDK's PutObject ${(median(remote.sdk) / 1000).toFixed(1)} s`);
    const row = (id: string, figure: string, ours: number[], baseline: number[], baselineName: string, peakRssMB: number) => ({
      id,
      figure,
      ms: median(ours),
      ratio: median(ours) / median(baseline),
      baseline: baselineName,
      baselineMs: median(baseline),
      peakRssMB,
    });
    return [
      row('copy: backend copy file→file', `backend copy file→file, whole process, verified (${what})`, local.ours, local.cp, 'cp -r of the same tree', local.peak),
      row(
        'copy: backend copy file→s3',
        `backend copy file→s3 (MinIO), whole process, verified (${what})`,
        remote.ours,
        remote.sdk,
        `the AWS SDK's PutObject of the same files, ${OUR_CONCURRENCY} in flight`,
        remote.peak,
      ),
    ];
  } finally {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  copyFigures(join(tmpdir(), 'quota-state-bench'), COPY_RUNS, (line) => console.error(line))
    .then((rows) =>
      console.table(
        rows.map((r) => ({
          figure: r.figure,
          s: (r.ms / 1000).toFixed(1),
          baseline: `${r.baseline}: ${((r.baselineMs ?? 0) / 1000).toFixed(1)} s`,
          ratio: r.ratio.toFixed(2),
          'peak RSS MB': r.peakRssMB?.toFixed(0),
        })),
      ),
    )
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
