// A run in a systemd user scope: the watchdog link carries its scope, and the host-death kill
// kills it after the tree (the real watchdog process: systemd-scope-host-death.test.ts).
import { EventEmitter } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { assertNoLeakedProcesses } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessSupervisor } from '../src/supervisor.js';
import { killAtHostDeath } from '../src/watchdog/host-death-kill.js';
import type { WatchdogSpawner } from '../src/watchdog/host-watchdog.js';
import { decodeMessage, encodeMessage, WatchedSet } from '../src/watchdog/protocol.js';
import { recordingLogger } from './helpers.js';

describe('the watchdog link carries a tree’s systemd scope', () => {
  it('round-trips a scope line, keeps it across a later add, and takes only units procmux named', () => {
    const line = encodeMessage({ kind: 'scope', marker: 'm1', unit: 'procmux-42-s1' });
    expect(line).toBe('s m1 procmux-42-s1\n');
    expect(decodeMessage(line.trim())).toEqual({ kind: 'scope', marker: 'm1', unit: 'procmux-42-s1' });
    for (const bad of ['s m1 sshd', 's m1 user@1000', 's m1 procmux-a/b', 's m1 procmux-x y', 's  procmux-1'])
      expect(decodeMessage(bad)).toBeUndefined();
    const set = new WatchedSet();
    set.apply({ kind: 'add', tree: { marker: 'm1', pid: 0 } });
    set.apply({ kind: 'scope', marker: 'm1', unit: 'procmux-42-s1' });
    set.apply({ kind: 'add', tree: { marker: 'm1', pid: 77 } });
    set.apply({ kind: 'scope', marker: 'other', unit: 'procmux-42-s2' });
    expect(set.trees()).toEqual([{ marker: 'm1', pid: 77, scope: 'procmux-42-s1' }]);
  });

  it('kills the scope after the tree kill, and a failing scope kill is no crash', async () => {
    const done: string[] = [];
    const survivors = await killAtHostDeath(
      [
        { marker: 'a', pid: 10, scope: 'procmux-1-a' },
        { marker: 'b', pid: 11 },
        { marker: 'c', pid: 12, scope: 'procmux-1-c' },
      ],
      'linux',
      100,
      {
        killTree: async (pid) => {
          done.push(`tree ${pid}`);
          return { signalled: [pid], survivors: [] };
        },
        carriers: async () => [],
        killScope: async (unit) => {
          done.push(`scope ${unit}`);
          if (unit === 'procmux-1-c') throw new Error('bus gone');
        },
      },
    );
    expect(survivors).toEqual([]);
    expect(done.filter((d) => d.startsWith('scope'))).toEqual(['scope procmux-1-a', 'scope procmux-1-c']);
    expect(done.indexOf('tree 10')).toBeLessThan(done.indexOf('scope procmux-1-a'));
  });
});

class LinkChild extends EventEmitter {
  readonly stdin = Object.assign(new PassThrough(), { unref: () => {} });
  readonly pid = 999;
  written = '';
  constructor() {
    super();
    this.stdin.on('data', (chunk: Buffer) => {
      this.written += chunk.toString();
    });
  }
  unref(): void {}
  kill(): void {}
}

describe.skipIf(process.platform !== 'linux')('a scope run tells the watchdog its scope', () => {
  let bin: string | undefined;
  afterEach(async () => {
    if (bin) rmSync(bin, { recursive: true, force: true });
    bin = undefined;
    await assertNoLeakedProcesses();
  });

  function standIns(): { dir: string; log: string } {
    bin = mkdtempSync(join(tmpdir(), 'procmux-fake-systemd-'));
    const log = join(bin, 'log');
    const fake = (name: string, then: string) => {
      writeFileSync(join(bin!, name), `#!/bin/sh\nprintf '%s\\n' "${name} $*" >>"${log}"\n${then}\n`);
      chmodSync(join(bin!, name), 0o755);
    };
    fake('systemd-run', 'while [ "$1" != -- ]; do shift; done; shift; exec "$@"');
    fake('systemctl', 'exit 0');
    return { dir: bin, log };
  }

  it('the supervisor tells the watchdog the scope of a run, before and after its pid', async () => {
    const { dir, log } = standIns();
    const links: LinkChild[] = [];
    const path = process.env.PATH;
    process.env.PATH = `${dir}:${path}`;
    const supervisor = new ProcessSupervisor({
      watchdog: true,
      logger: recordingLogger().logger,
      spawnWatchdog: () => {
        const child = new LinkChild();
        links.push(child);
        return child as unknown as ReturnType<WatchdogSpawner>;
      },
    });
    try {
      const run = await supervisor.spawn({
        command: 'exit 0',
        mode: 'pipe',
        env: { ...process.env },
        systemdScope: { unit: 'procmux-1-s' },
      });
      await run.wait();
      const lines = links[0]!.written.trim().split('\n');
      const marker = lines[0]!.split(' ')[1]!;
      expect(lines).toEqual([
        `+ ${marker} 0`,
        `s ${marker} procmux-1-s`,
        // The pid alone: the watchdog keeps the scope it was told before.
        `+ ${marker} ${run.pid}`,
        `- ${marker}`,
      ]);
      expect(readFileSync(log, 'utf8')).toContain('systemctl --user kill');
    } finally {
      process.env.PATH = path;
      const disposed = supervisor.dispose();
      links[0]?.emit('exit', 0, null);
      await disposed;
    }
  });
});
