// A run in a systemd user scope after its host was SIGKILLed: the watchdog kills the scope too,
// which holds what left the tree and cleared its environment. There is no user manager here:
// a systemctl stand-in on PATH kills what it is told the scope holds.
import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { assertNoLeakedProcesses, trackPid, waitFor } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { ProcessSupervisor } from '../src/supervisor.js';
import { killAtHostDeath } from '../src/watchdog/host-death-kill.js';
import type { WatchdogSpawner } from '../src/watchdog/host-watchdog.js';
import { decodeMessage, encodeMessage, WatchedSet } from '../src/watchdog/protocol.js';
import { recordingLogger } from './helpers.js';

const MAIN = fileURLToPath(new URL('../dist/watchdog/main.js', import.meta.url));
const alive = (pid: number) =>
  existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

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

describe.skipIf(process.platform !== 'linux')('a scope run and the real watchdog', () => {
  let bin: string | undefined;
  const started: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    if (bin) rmSync(bin, { recursive: true, force: true });
    bin = undefined;
    await assertNoLeakedProcesses();
  });

  function standIns(): { dir: string; log: string; escapee: string } {
    bin = mkdtempSync(join(tmpdir(), 'procmux-fake-systemd-'));
    const log = join(bin, 'log');
    const escapee = join(bin, 'escapee.pid');
    const fake = (name: string, then: string) => {
      writeFileSync(join(bin!, name), `#!/bin/sh\nprintf '%s\\n' "${name} $*" >>"${log}"\n${then}\n`);
      chmodSync(join(bin!, name), 0o755);
    };
    fake('systemd-run', 'while [ "$1" != -- ]; do shift; done; shift; exec "$@"');
    // What systemd does for `kill --kill-whom=all`: every process of the scope, here the escapee.
    fake('systemctl', `[ -f "${escapee}" ] && kill -KILL "$(cat "${escapee}")"; exit 0`);
    return { dir: bin, log, escapee };
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
        `+ ${marker} ${run.pid}`,
        `s ${marker} procmux-1-s`,
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

  it('when the link closes (the host died), the watchdog kills the tree and then every process of its scope', async () => {
    const { dir, log, escapee } = standIns();
    // The tree's root carries the marker; the escapee left its group and cleared its
    // environment, so only the scope still knows it.
    const root = spawn('sleep', ['300'], {
      env: { ...process.env, PROCMUX_TREE: 'scope-test' },
      stdio: 'ignore',
    });
    const daemon = spawn('env', ['-i', 'sleep', '301'], { stdio: 'ignore', detached: true });
    started.push(root, daemon);
    trackPid(root.pid);
    trackPid(daemon.pid);
    await waitFor(
      () => readFileSync(`/proc/${daemon.pid}/cmdline`, 'utf8').startsWith('sleep'),
      5_000,
      'escapee',
    );
    writeFileSync(escapee, String(daemon.pid));
    const watchdog = spawn(process.execPath, [MAIN, '--platform', 'linux', '--grace-ms', '200'], {
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    started.push(watchdog);
    trackPid(watchdog.pid);
    watchdog.stdin!.write(`+ scope-test ${root.pid}\ns scope-test procmux-1-s\n`);
    watchdog.stdin!.end();
    await waitFor(() => !alive(root.pid!) && !alive(daemon.pid!), 15_000, 'the tree and its scope killed');
    expect(readFileSync(log, 'utf8')).toBe(
      'systemctl --user kill --kill-whom=all --signal=SIGKILL procmux-1-s.scope\n',
    );
  });
});
