/**
 * The real Pulumi CLI (pinned in tools/pulumi, built on first use by scripts/pulumi-cli.mjs) for the
 * tests: its verdict on state files (the judge) and its own commands on a `file://` DIY backend, always
 * offline (hermetic home, update check off, HTTP(S) sent to a closed port).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ensurePulumi, hermeticEnv } from '../../scripts/pulumi-cli.mjs';

export interface PulumiVerdict {
  file: string;
  shape: 'export' | 'checkpoint' | 'deployment' | 'other';
  /** `null` when Pulumi has no path for the document (a single resource record, say). */
  accepted: boolean | null;
  stage: string | null;
  error: string | null;
}

let binaries: { pulumi: string; judge: string; version: string } | undefined;

export function pulumiBinaries(): { pulumi: string; judge: string; version: string } {
  binaries ??= ensurePulumi();
  return binaries;
}

/** Pulumi's verdict on each file, from one judge process (paths one per line on its stdin). */
export function judgeFiles(files: string[]): PulumiVerdict[] {
  if (files.length === 0) return [];
  const result = spawnSync(pulumiBinaries().judge, ['-'], { input: files.join('\n'), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`the judge failed (exit ${result.status}): ${result.stderr}`);
  const verdicts = result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as PulumiVerdict);
  if (verdicts.length !== files.length) throw new Error(`the judge answered ${verdicts.length} of ${files.length} files`);
  return verdicts;
}

/** The judge's verdict on documents given as text: each is written to a scratch file first. */
export function judgeTexts(texts: string[], scratch: string): PulumiVerdict[] {
  mkdirSync(scratch, { recursive: true });
  const files = texts.map((text, index) => {
    const file = join(scratch, `doc-${index}.json`);
    writeFileSync(file, text);
    return file;
  });
  return judgeFiles(files);
}

/** The same, without blocking the event loop: for batches judged while other work goes on. */
export function judgeFilesAsync(files: string[]): Promise<PulumiVerdict[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(pulumiBinaries().judge, ['-'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the judge failed (exit ${code}): ${stderr}`));
      resolve(
        stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as PulumiVerdict),
      );
    });
    child.stdin.end(files.join('\n'));
  });
}

export interface PulumiRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A DIY (`file://`) backend in a temporary folder, with Pulumi run against it offline. */
export class DiyBackend {
  readonly root: string;
  /** The folder Pulumi runs in: initStack writes its Pulumi.yaml here, and Pulumi its Pulumi.<stack>.yaml. */
  readonly workdir: string;
  private readonly hermetic: { env: NodeJS.ProcessEnv; cleanup: () => void };

  constructor(options: { passphrase?: string; gzip?: boolean } = {}) {
    this.root = mkdtempSync(join(tmpdir(), 'quota-state-diy-'));
    this.workdir = join(this.root, 'work');
    mkdirSync(this.workdir);
    mkdirSync(join(this.root, 'backend', '.pulumi'), { recursive: true });
    writeFileSync(join(this.root, 'backend', '.pulumi', 'meta.yaml'), 'version: 1\n');
    const base: NodeJS.ProcessEnv = { ...process.env, PULUMI_BACKEND_URL: `file://${join(this.root, 'backend')}` };
    for (const name of Object.keys(base)) if (name.startsWith('PULUMI_') && name !== 'PULUMI_BACKEND_URL') delete base[name];
    base.PULUMI_CONFIG_PASSPHRASE = options.passphrase ?? 'quota-state-tests';
    if (options.gzip) base.PULUMI_DIY_BACKEND_GZIP = 'true';
    this.hermetic = hermeticEnv(base);
  }

  /** Runs `pulumi ARGS` from an empty folder (no Pulumi.yaml above it), non-interactively. */
  run(args: string[], extraEnv: NodeJS.ProcessEnv = {}): PulumiRun {
    const result = spawnSync(pulumiBinaries().pulumi, [...args, '--non-interactive'], {
      cwd: this.workdir,
      env: { ...this.hermetic.env, ...extraEnv },
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (result.error) throw result.error;
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  }

  /** `run`, failing with Pulumi's own output when it exits non-zero. */
  ok(args: string[], extraEnv: NodeJS.ProcessEnv = {}): PulumiRun {
    const result = this.run(args, extraEnv);
    if (result.status !== 0) throw new Error(`pulumi ${args.join(' ')} exited ${result.status}:\n${result.stderr}${result.stdout}`);
    return result;
  }

  /**
   * `pulumi stack init` of `organization/<project>/<stack>`, from a folder holding a Pulumi.yaml for that
   * project: Pulumi saves the stack's config (the passphrase salt, say) beside it, and refuses without one.
   */
  initStack(project: string, stack: string, args: string[] = []): PulumiRun {
    writeFileSync(join(this.workdir, 'Pulumi.yaml'), `name: ${project}\nruntime: nodejs\n`);
    return this.ok(['stack', 'init', qualifiedStack(project, stack), ...args]);
  }

  /**
   * The `secrets_providers` block of a stack `initStack` created: its passphrase salt, from the
   * Pulumi.<stack>.yaml Pulumi wrote. A document imported with it encrypts with this backend's passphrase.
   */
  secretsProviders(stack: string): { type: 'passphrase'; state: { salt: string } } {
    const config = readFileSync(join(this.workdir, `Pulumi.${stack}.yaml`), 'utf8');
    const salt = /^encryptionsalt:\s*(\S+)/m.exec(config)?.[1];
    if (!salt) throw new Error(`Pulumi.${stack}.yaml has no encryptionsalt:\n${config}`);
    return { type: 'passphrase', state: { salt } };
  }

  /** The path of a project-mode stack file (`.json`, or `.json.gz` for a gzip backend). */
  stackFile(project: string, stack: string, gzip = false): string {
    return join(this.root, 'backend', '.pulumi', 'stacks', project, `${stack}.json${gzip ? '.gz' : ''}`);
  }

  /** Writes a DIY stack file directly (Pulumi only checks that it exists), as checkpoint `body`. */
  writeStack(project: string, stack: string, content: string, gzip = false): string {
    const file = this.stackFile(project, stack, gzip);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, gzip ? gzipSync(content) : content);
    return file;
  }

  readStack(project: string, stack: string, gzip = false): string {
    const bytes = readFileSync(this.stackFile(project, stack, gzip));
    return gzip ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8');
  }

  dispose(): void {
    this.hermetic.cleanup();
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** The fully-qualified DIY stack name Pulumi's commands take without a Pulumi.yaml. */
export const qualifiedStack = (project: string, stack: string): string => `organization/${project}/${stack}`;

/** Real Pulumi run offline on the `file://` backend `folder` of the generated histories (their passphrase; the legacy layout allowed). */
export function pulumiOnHistoryBackend(pulumi: string, folder: string, args: string[], cwd: string) {
  const { env, cleanup } = hermeticEnv({
    ...process.env,
    PULUMI_BACKEND_URL: `file://${folder}`,
    PULUMI_CONFIG_PASSPHRASE: 'history-passphrase',
    PULUMI_DIY_BACKEND_IGNORE_DEPRECATION_ERROR: 'true',
  });
  try {
    return spawnSync(pulumi, args, { cwd, env, encoding: 'utf8' });
  } finally {
    cleanup();
  }
}
