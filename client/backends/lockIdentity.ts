/** Who the editor is when it takes Pulumi's stack lock: this process, user and machine, as Pulumi's lock.go writes them. */
import { hostname, userInfo } from 'node:os';
import type { LockIdentity } from '../../shared/backend/vocabulary';

export function lockIdentity(): LockIdentity {
  let username: string;
  try {
    username = userInfo().username;
  } catch {
    username = process.env.USER ?? process.env.USERNAME ?? 'vscode';
  }
  return { pid: process.pid, username, hostname: hostname() };
}

/** What the stale-lock rule asks of this machine: its name, and whether a process of it runs (signal 0; EPERM is another user's). */
export function lockHost(): { hostname: string; pidAlive: (pid: number) => boolean | undefined } {
  return {
    hostname: hostname(),
    pidAlive: (pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return code === 'ESRCH' ? false : code === 'EPERM' ? true : undefined;
      }
    },
  };
}
