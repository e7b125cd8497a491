/**
 * Object storage in the bench: `backend ls` and `history` of a 1,000-stack bucket (20,000 history
 * entries, on a real MinIO) beside the same listings of the same backend on `file://`, and a `check`
 * of the realistic 30k-resource stack fetched from the bucket beside the same check on disk; each a
 * whole process, with its peak RSS.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createBucket, startMinio, type MinioServer } from '../../scripts/minio.mjs';
import { fillScaleBackend } from '../helpers/s3Scale';

const ROOT = resolve(__dirname, '..', '..');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export interface BucketFigure {
  figure: string;
  ms: number;
  ratio: number;
  baseline: string;
  baselineMs: number;
  peakRssMB?: number;
}

/** One whole `quota-state` process: wall time and peak RSS (reported by a preload on exit), its exit status and output. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, rssFile: string): { ms: number; rssMB: number; status: number | null; stdout: string } {
  const preload = join(rssFile, '..', 'rss-preload.cjs');
  writeFileSync(preload, `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(rssFile)}, String(process.resourceUsage().maxRSS * 1024)));\n`);
  const start = performance.now();
  const result = spawnSync(process.execPath, ['-r', preload, join(ROOT, 'dist', 'cli', 'quota-state.js'), ...args], { env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const ms = performance.now() - start;
  if (result.status !== 0 && result.status !== 1) throw new Error(`quota-state ${args.join(' ')}: ${result.stderr}`);
  return { ms, rssMB: Number(readFileSync(rssFile, 'utf8')) / 1e6, status: result.status, stdout: result.stdout };
}

/** The bucket's objects copied into a folder: the same backend on file://. */
async function mirror(client: S3Client, bucket: string, folder: string): Promise<void> {
  let ContinuationToken: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
    await Promise.all(
      (page.Contents ?? []).map(async ({ Key }) => {
        const path = join(folder, ...Key!.split('/'));
        mkdirSync(join(path, '..'), { recursive: true });
        writeFileSync(path, await (await client.send(new GetObjectCommand({ Bucket: bucket, Key }))).Body!.transformToByteArray());
      }),
    );
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
}

export async function bucketFigures(out: string, realisticFile: string, runs: number, log: (line: string) => void): Promise<BucketFigure[]> {
  let server: MinioServer | undefined;
  const scratch = join(out, 's3');
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    server = await startMinio({ log });
    const client = new S3Client({ endpoint: server.endpoint, region: server.region, forcePathStyle: true, credentials: { accessKeyId: server.accessKey, secretAccessKey: server.secretKey } });
    await createBucket(server, 'scale');
    const filled = await fillScaleBackend(server, 'scale');
    log(`bucket: ${filled.stacks} stacks, ${filled.entries} entries, ${filled.objects} objects`);
    const folder = join(scratch, 'scale');
    await mirror(client, 'scale', folder);
    // The realistic 30k stack as a DIY stack object, and on disk.
    const stackKey = '.pulumi/stacks/big/dev.json';
    const checkpoint = JSON.stringify({ version: 3, checkpoint: { stack: 'organization/big/dev', latest: (JSON.parse(readFileSync(realisticFile, 'utf8')) as { deployment: unknown }).deployment } });
    await client.send(new PutObjectCommand({ Bucket: 'scale', Key: stackKey, Body: checkpoint }));
    mkdirSync(join(folder, '.pulumi', 'stacks', 'big'), { recursive: true });
    writeFileSync(join(folder, ...stackKey.split('/')), checkpoint);
    client.destroy();

    const env = {
      ...process.env,
      AWS_ACCESS_KEY_ID: server.accessKey,
      AWS_SECRET_ACCESS_KEY: server.secretKey,
      AWS_REGION: server.region,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      PULUMI_BACKEND_URL: '',
      HOME: scratch,
    };
    const bucket = `s3://scale?endpoint=${server.endpoint}&s3ForcePathStyle=true&region=${server.region}`;
    const file = `file://${folder}`;
    const rss = join(scratch, 'rss');
    const pair = (name: string, args: (url: string) => string[]): BucketFigure => {
      const s3: number[] = [];
      const disk: number[] = [];
      let peak = 0;
      for (let run = 0; run < runs; run++) {
        const remote = runCli(args(bucket), env, rss);
        s3.push(remote.ms);
        peak = Math.max(peak, remote.rssMB);
        disk.push(runCli(args(file), env, rss).ms);
      }
      return { figure: name, ms: median(s3), ratio: median(s3) / median(disk), baseline: 'the same on file://', baselineMs: median(disk), peakRssMB: peak };
    };
    return [
      pair(`s3: backend ls, ${filled.stacks} stacks (${filled.entries} entries)`, (url) => ['backend', 'ls', url, '--format', 'json']),
      pair('s3: history of one stack', (url) => ['history', 'organization/scale/s0500', '--backend', url, '--format', 'json']),
      pair('s3: check of the realistic 30k stack fetched from the bucket', (url) => ['check', 'organization/big/dev', '--backend', url, '--format', 'json']),
    ];
  } finally {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
