// No descriptor crosses sessions: after two PTY sessions are open, a pipe child and a PTY
// child (started by command string and by file + args) hold no /dev/ptmx and no other
// session's /dev/pts/N. Run with node-pty and with the homebridge prebuild forced.
import { readdirSync, readlinkSync } from 'node:fs';
import type { ProcessAdapter } from '@procmux/core-types';
import { createPtyAdapter, type PtyAdapter } from '@procmux/pty-posix';
import { ChildAdapter } from '@procmux/supervisor';
import { assertNoLeakedProcesses, waitForSleep } from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const started: ProcessAdapter[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((a) => a.kill('force').catch(() => {})));
});
afterAll(async () => {
  await assertNoLeakedProcesses();
});

/** Where each descriptor of `pid` points (its own /proc/<pid>/fd links). */
function descriptors(pid: number): string[] {
  return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
    try {
      return [readlinkSync(`/proc/${pid}/fd/${fd}`)];
    } catch {
      return [];
    }
  });
}

/** Terminal devices `pid` holds that are not `own` (its own terminal, for a PTY child). */
function foreignTerminals(pid: number, own?: string): string[] {
  return descriptors(pid).filter((target) => /^\/dev\/(ptmx|pts\/)/.test(target) && target !== own);
}

async function started_(adapter: Promise<ProcessAdapter>): Promise<ProcessAdapter> {
  const a = await adapter;
  started.push(a);
  return a;
}

const backends = ['node-pty', 'homebridge'] as const;

describe.skipIf(process.platform !== 'linux')('no descriptor crosses sessions (Linux /proc)', () => {
  describe.each(backends)('with the %s backend', (backend) => {
    const pty = (options: Record<string, unknown>) =>
      started_(createPtyAdapter({ backend, ...options })) as Promise<PtyAdapter>;

    it.each([
      ['a command string', { command: 'sleep 300' }],
      ['a file and args', { file: 'sleep', args: ['300'] }],
    ])('children started by %s hold only their own terminal', async (_label, target) => {
      const first = await pty({ command: 'cat' });
      const second = await pty({ command: 'cat' });
      expect(first.backend).toContain(backend === 'node-pty' ? 'node-pty' : 'homebridge');
      expect(second.backend).toBe(first.backend);

      const pipeChild = await started_(ChildAdapter.create({ ...target, stdin: 'open' }));
      const ptyChild = await pty(target);
      await waitForSleep(pipeChild.pid!);
      await waitForSleep(ptyChild.pid!);

      expect(foreignTerminals(pipeChild.pid!)).toEqual([]);
      const own = readlinkSync(`/proc/${ptyChild.pid}/fd/0`);
      expect(own).toMatch(/^\/dev\/pts\/\d+$/);
      expect(foreignTerminals(ptyChild.pid!, own)).toEqual([]);
      // Nothing but stdio: no other descriptor crossed either.
      expect(readdirSync(`/proc/${pipeChild.pid}/fd`).sort()).toEqual(['0', '1', '2']);
      expect(readdirSync(`/proc/${ptyChild.pid}/fd`).sort()).toEqual(['0', '1', '2']);
    });
  });
});
