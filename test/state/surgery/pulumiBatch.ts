/**
 * Runs many hermetic `pulumi` invocations against `file://` DIY stacks, two at a time (the test
 * machines have two cores). The binary and the hermetic environment are test/helpers/realPulumi.ts's
 * (scripts/pulumi-cli.mjs): this module only adds the batching, which DiyBackend's synchronous `run`
 * cannot do. Each job gets its own backend folder holding the stacks it names, runs from an empty
 * folder, and returns the stack files as Pulumi left them.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hermeticEnv } from '../../../scripts/pulumi-cli.mjs';
import { pulumiBinaries } from '../../helpers/realPulumi';

export interface PulumiJob {
  /** Stack files by `<project>/<stack>`: the checkpoint text. */
  stacks: Record<string, string>;
  /** Extra files written beside the backend (e.g. a deployment to import), by name. */
  files?: Record<string, string>;
  /** Arguments after `pulumi`; `{dir}` is replaced by the job's folder. */
  args: string[];
}

export interface PulumiResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The stack files after the run, by `<project>/<stack>`. */
  stacks: Record<string, string | undefined>;
}

export interface PulumiEnv {
  binary: string;
  /** The environment of one run against `backendDir`, and how to clean up after it. */
  env: (backendDir: string) => { env: NodeJS.ProcessEnv; cleanup: () => void };
}

export function runJob(pulumi: PulumiEnv, job: PulumiJob, scratch: string): Promise<PulumiResult> {
  const dir = mkdtempSync(join(scratch, 'job-'));
  const backend = join(dir, 'backend');
  const cwd = join(dir, 'cwd');
  mkdirSync(join(backend, '.pulumi'), { recursive: true });
  mkdirSync(cwd);
  writeFileSync(join(backend, '.pulumi', 'meta.yaml'), 'version: 1\n');
  for (const [name, text] of Object.entries(job.stacks)) {
    const [project, stack] = name.split('/');
    mkdirSync(join(backend, '.pulumi', 'stacks', project), { recursive: true });
    writeFileSync(join(backend, '.pulumi', 'stacks', project, `${stack}.json`), text);
  }
  for (const [name, text] of Object.entries(job.files ?? {})) writeFileSync(join(dir, name), text);
  const args = job.args.map((a) => a.split('{dir}').join(dir));
  return new Promise((resolvePromise) => {
    const hermetic = pulumi.env(backend);
    const child = spawn(pulumi.binary, args, { cwd, env: hermetic.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      const stacks: Record<string, string | undefined> = {};
      for (const name of Object.keys(job.stacks)) {
        const [project, stack] = name.split('/');
        try {
          stacks[name] = readFileSync(join(backend, '.pulumi', 'stacks', project, `${stack}.json`), 'utf8');
        } catch {
          stacks[name] = undefined;
        }
      }
      rmSync(dir, { recursive: true, force: true });
      hermetic.cleanup();
      resolvePromise({ code, stdout, stderr, stacks });
    });
  });
}

/** Runs the jobs `concurrency` at a time; results in the jobs' order. */
export async function runJobs(pulumi: PulumiEnv, jobs: PulumiJob[], concurrency = 2): Promise<PulumiResult[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-pulumi-'));
  const results: PulumiResult[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await runJob(pulumi, jobs[i], scratch);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, worker));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return results;
}

/**
 * The pinned Pulumi (built on first use by scripts/pulumi-cli.mjs), or undefined when it cannot be had
 * (no Go to build it): the differential suite is then skipped, saying why.
 */
export function realPulumi(): { pulumi?: PulumiEnv; why?: string } {
  let binary: string;
  try {
    binary = pulumiBinaries().pulumi;
  } catch (error) {
    return { why: (error as Error).message };
  }
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('PULUMI_')) base[name] = value;
  return {
    pulumi: {
      binary,
      env: (backend) =>
        hermeticEnv({
          ...base,
          PULUMI_BACKEND_URL: `file://${backend}`,
          PULUMI_CONFIG_PASSPHRASE: 'test',
          PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS: '1',
        }),
    },
  };
}
