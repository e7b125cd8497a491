// @vscode/ripgrep (a dependency of code-server) downloads `rg` from GitHub in its postinstall.
// These machines reach only npm and Debian, so we put Debian's /usr/bin/rg into the cache folder
// it looks in first, packed under the exact archive name it expects; the postinstall then stays offline.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const RIPGREP_PACKAGE_VERSION = '1.15.11';
const ARCHIVE_NAME = 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz';

export function seedRipgrepCache(systemRg = '/usr/bin/rg') {
  const cacheDir = join(tmpdir(), `vscode-ripgrep-cache-${RIPGREP_PACKAGE_VERSION}`);
  const archive = join(cacheDir, ARCHIVE_NAME);
  if (existsSync(archive)) return archive;
  if (!existsSync(systemRg)) {
    throw new Error(`ripgrep is not installed at ${systemRg}; install the Debian package "ripgrep" first`);
  }
  mkdirSync(cacheDir, { recursive: true });
  const staging = mkdtempSync(join(tmpdir(), 'rg-seed-'));
  try {
    copyFileSync(systemRg, join(staging, 'rg'));
    execFileSync('tar', ['-czf', archive, '-C', staging, 'rg']);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return archive;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`ripgrep cache seeded: ${seedRipgrepCache()}`);
}
