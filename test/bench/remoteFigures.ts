/**
 * The other remote backends in the bench (azblob://, gs://, postgres://, each on its real server):
 * `backend ls` and `history` of the 1,000-stack scale backend and a `check` of the realistic 30k stack,
 * each beside the same on `file://` (the same objects, written to a folder), as s3Figures.ts measures
 * `s3://`. The backend is filled through the product's own store of the scheme (setup, not measured).
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseRemoteBackendUrl } from '../../shared/backend';
import { openRemoteStore } from '../../shared/node/remoteStore';
import { fillScaleStore, folderWriter } from '../helpers/s3Scale';
import { runCli, type BucketFigure } from './s3Figures';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A running server holding an empty backend: its URL and the environment that reaches it. */
export interface RemoteBenchServer {
  url: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

export interface RemoteBenchScheme {
  scheme: string;
  start(scratch: string, log: (line: string) => void): Promise<RemoteBenchServer>;
}

/** The scale backend and the 30k stack into `store` (and the same into `folder`, as files). */
async function fill(url: string, env: Record<string, string>, folder: string, realisticFile: string): Promise<{ stacks: number; entries: number }> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const remote = parseRemoteBackendUrl(url, process.env);
  if (!remote) throw new Error(`${url} is no remote backend URL`);
  const store = openRemoteStore(remote, { timeoutMs: 120_000 });
  const toFolder = folderWriter(folder);
  try {
    const filled = await fillScaleStore(store);
    await fillScaleStore(toFolder);
    const checkpoint = new TextEncoder().encode(
      JSON.stringify({ version: 3, checkpoint: { stack: 'organization/big/dev', latest: (JSON.parse(readFileSync(realisticFile, 'utf8')) as { deployment: unknown }).deployment } }),
    );
    await store.write('.pulumi/stacks/big/dev.json', checkpoint);
    await toFolder.write('.pulumi/stacks/big/dev.json', checkpoint);
    return filled;
  } finally {
    store.destroy();
    process.env = saved;
  }
}

export async function remoteFigures(
  schemes: readonly RemoteBenchScheme[],
  out: string,
  realisticFile: string,
  runs: number,
  log: (line: string) => void,
): Promise<Array<BucketFigure & { id: string }>> {
  const rows: Array<BucketFigure & { id: string }> = [];
  for (const { scheme, start } of schemes) {
    const scratch = join(out, scheme);
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    const server = await start(scratch, log);
    try {
      const folder = join(scratch, 'scale');
      const filled = await fill(server.url, server.env, folder, realisticFile);
      log(`${scheme}: ${filled.stacks} stacks, ${filled.entries} entries`);
      const env = { ...process.env, ...server.env, PULUMI_BACKEND_URL: '', HOME: scratch };
      const rss = join(scratch, 'rss');
      const pair = (id: string, args: (url: string) => string[]) => {
        const remote: number[] = [];
        const disk: number[] = [];
        let peak = 0;
        for (let run = 0; run < runs; run++) {
          const measured = runCli(args(server.url), env, rss);
          remote.push(measured.ms);
          peak = Math.max(peak, measured.rssMB);
          disk.push(runCli(args(`file://${folder}`), env, rss).ms);
        }
        rows.push({ id, figure: id, ms: median(remote), ratio: median(remote) / median(disk), baseline: 'the same on file://', baselineMs: median(disk), peakRssMB: peak });
      };
      pair(`${scheme}: backend ls of 1,000 stacks`, (url) => ['backend', 'ls', url, '--format', 'json']);
      pair(`${scheme}: history of one stack`, (url) => ['history', 'organization/scale/s0500', '--backend', url, '--format', 'json']);
      pair(`${scheme}: check of the 30k stack`, (url) => ['check', 'organization/big/dev', '--backend', url, '--format', 'json']);
    } finally {
      await server.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return rows;
}
