/**
 * Who takes Pulumi's stack lock, the CLI and the editor alike: this process, user and machine, as
 * Pulumi's lock.go writes them; and what the stale-lock rule asks of this machine. The browser's twin is
 * client/web/lockIdentity.ts (esbuild's web build maps this module to it).
 */
import { hostname, userInfo } from 'node:os';
import type { LockIdentity } from '../backend/vocabulary';

export function lockIdentity(): LockIdentity {
  let username: string;
  try {
    username = userInfo().username;
  } catch {
    username = process.env.USER ?? process.env.USERNAME ?? String(process.getuid?.() ?? 'unknown');
  }
  return { pid: process.pid, username, hostname: hostname() };
}

/** What the stale-lock rule asks of this machine: its name, and whether a process of it runs (signal 0; EPERM is another user's). */
export function lockHost(): { hostname: string; pidAlive: (pid: number) => boolean | undefined } {
  return {
    hostname: hostname(),
    pidAlive,
  };
}

/** Whether a process of this machine runs: signal 0 checks without sending; EPERM is a process of another user. */
export function pidAlive(pid: number): boolean | undefined {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ESRCH' ? false : code === 'EPERM' ? true : undefined;
  }
}
