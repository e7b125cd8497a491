/** Runs the built programs in dist/ as real processes. `npm test` builds first. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');

export function distPath(relative: string): string {
  const path = resolve(ROOT, 'dist', relative);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` first (npm test does)`);
  return path;
}

export interface ProcessResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runQuotaState(args: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): ProcessResult {
  const result = spawnSync(process.execPath, [distPath('cli/quota-state.js'), ...args], {
    cwd: options.cwd ?? ROOT,
    encoding: 'utf8',
    input: options.input,
    env: options.env ?? process.env,
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** `runQuotaState` without blocking this process's event loop: for tests whose servers (a fault proxy) run in it. */
export function runQuotaStateAsync(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<ProcessResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [distPath('cli/quota-state.js'), ...args], { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolvePromise({ status, stdout, stderr });
    });
  });
}
