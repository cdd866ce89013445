// Processes carrying a test's tag in their environment, read from the process table: how the
// containment tests count what outlived a host (setsid escapees and reparented orphans too).

import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';

export const TAG_ENV = 'PROCMUX_E2E_TAG';

/** A tag no other test (or earlier run) can share. */
export function newTag(): string {
  return `${process.pid}-${randomBytes(6).toString('hex')}`;
}

export interface TaggedProcess {
  pid: number;
  command: string;
}

/** Live (non-zombie) processes whose environment has PROCMUX_E2E_TAG=<tag>. Linux /proc. */
export function taggedProcesses(tag: string): TaggedProcess[] {
  const wanted = `${TAG_ENV}=${tag}`;
  const found: TaggedProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) continue;
      if (!readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(wanted)) continue;
      const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      found.push({ pid: Number(name), command });
    } catch {
      // Gone while we read it, or not ours to read.
    }
  }
  return found;
}

/** SIGKILLs whatever still carries the tag, so a failing test cannot poison the next. */
export function killTagged(tag: string): void {
  for (const { pid } of taggedProcesses(tag)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
}
