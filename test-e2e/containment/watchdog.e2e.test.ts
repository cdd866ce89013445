// The watchdog itself: started on a registry's first spawn (not before), in its own process
// group, holding nothing but its link (no PTY master of any session, no stdio of the host),
// gone and reaped after dispose(), and never keeping its host's event loop alive.
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createProcessSessions } from '@procmux/sessions';
import { assertNoLeakedProcesses, isAlive, waitFor } from '@procmux/test-utils';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';

const E2E_ROOT = fileURLToPath(new URL('..', import.meta.url));

afterAll(async () => {
  await assertNoLeakedProcesses();
});

/** Our children that run the watchdog (a registry's, found in the process table). */
function watchdogs(): number[] {
  return readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      return ppid === process.pid && cmd.includes('watchdog/main.js') ? [Number(name)] : [];
    } catch {
      return [];
    }
  });
}

/**
 * `fd:target` of each descriptor `pid` holds. One listed that is gone by the time it is read
 * was a transient of node's own start (a module file read, say), not something it holds.
 */
function heldFds(pid: number): string[] {
  return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
    try {
      return [`${fd}:${readlinkSync(`/proc/${pid}/fd/${fd}`)}`];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  });
}

function pgidOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

describe.skipIf(process.platform !== 'linux')('the host-death watchdog (Linux /proc)', () => {
  it('starts on the first spawn in its own group, holds only its link, and exits on dispose', async () => {
    // Another registry's PTY sessions: their masters are open in this process.
    const other = createProcessSessions({ cwd: E2E_ROOT });
    // A failure below must not leave the sessions (and their watchdogs) behind.
    onTestFinished(() => other.dispose());
    await other.start({ command: 'cat', args: [], pty: true });
    await other.start({ command: 'cat', args: [], pty: true });
    const before = new Set(watchdogs());
    expect(before.size).toBe(1);

    const sessions = createProcessSessions({ cwd: E2E_ROOT });
    onTestFinished(() => sessions.dispose());
    expect(watchdogs()).toHaveLength(1);
    await sessions.start({ command: 'sleep', args: ['60'] });
    const [watchdog] = watchdogs().filter((pid) => !before.has(pid));
    expect(watchdog).toBeDefined();
    // Node itself, not the bash before it (whose argv names node too): bash closes what it
    // inherited and then execs node, so only then does the watchdog hold what it keeps.
    const node = realpathSync(process.execPath);
    await waitFor(() => readlinkSync(`/proc/${watchdog}/exe`) === node, 10_000, 'node');

    expect(pgidOf(watchdog!)).toBe(watchdog);
    expect(pgidOf(watchdog!)).not.toBe(pgidOf(process.pid));
    const fds = heldFds(watchdog!);
    // Its link and /dev/null; everything else is node's own (epoll, eventfd, its pipes): no
    // terminal, no socket of ours.
    expect(fds).toContain('1:/dev/null');
    expect(fds).toContain('2:/dev/null');
    expect(fds.filter((fd) => /\/dev\/(ptmx|pts)/.test(fd))).toEqual([]);
    expect(fds.find((fd) => fd.startsWith('0:'))).toMatch(/^0:(pipe|socket):/);

    await sessions.dispose();
    await waitFor(() => !isAlive(watchdog!), 10_000, 'the watchdog to exit after dispose');
    // Reaped, not a zombie: its /proc entry is gone.
    expect(() => readFileSync(`/proc/${watchdog}/stat`)).toThrow();
    await other.dispose();
    await waitFor(() => watchdogs().length === 0, 10_000, 'every watchdog gone');
  });

  it.each([
    ['without dispose()', ''],
    ['after awaiting dispose()', 'await sessions.dispose();'],
  ])(
    'does not keep its host alive, nor lets it leave early: a host that is done exits %s',
    async (_label, end) => {
      const script = `
      import { createProcessSessions } from '@procmux/sessions';
      const sessions = createProcessSessions({ cwd: process.cwd() });
      const s = await sessions.start({ command: 'true', args: [] });
      await s.wait({ timeoutMs: 10000 });
      ${end}
      console.log('done');
    `;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
        cwd: E2E_ROOT,
        timeout: 30_000,
      });
      expect(stdout.trim()).toBe('done');
    },
  );
});
