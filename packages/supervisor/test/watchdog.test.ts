// The host-death watchdog's pieces, in process: the link protocol, what gets killed (POSIX
// and, through injected effects, Windows), the exit hook, and the host side's lifecycle with
// a fake watchdog process. The real process is exercised end to end in test-e2e/containment.
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { KillReport, PtyProcessAdapter } from '@procmux/core-types';
import { trackPid } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { ChildAdapter } from '../src/child-adapter.js';
import { ProcessSupervisor } from '../src/supervisor.js';
import { killAtHostDeath, killOnExit } from '../src/watchdog/host-death-kill.js';
import { HostWatchdog, type WatchdogSpawner } from '../src/watchdog/host-watchdog.js';
import { runWatchdogLoop } from '../src/watchdog/loop.js';
import { decodeMessage, encodeMessage, WatchedSet } from '../src/watchdog/protocol.js';
import { recordingLogger } from './helpers.js';

describe('watchdog protocol', () => {
  it('round-trips every message', () => {
    for (const message of [
      { kind: 'add', tree: { marker: '12-3-ab', pid: 4567 } },
      { kind: 'remove', marker: '12-3-ab' },
      { kind: 'bye' },
    ] as const) {
      expect(decodeMessage(encodeMessage(message).trimEnd())).toEqual(message);
    }
  });

  it("carries a tree's cgroup directories, added after its pid, and refuses a path that climbs", () => {
    const message = { kind: 'cgroup', marker: '12-3-ab', dir: '/sys/fs/cgroup/procmux-12-s' } as const;
    expect(decodeMessage(encodeMessage(message).trimEnd())).toEqual(message);
    for (const line of ['c 12-3-ab relative/dir', 'c 12-3-ab /a/../b', 'c 12-3-ab ']) {
      expect(decodeMessage(line)).toBeUndefined();
    }
    const set = new WatchedSet();
    set.apply({ kind: 'add', tree: { marker: 'a', pid: 0 } });
    set.apply({ ...message, marker: 'a' });
    set.apply({ kind: 'add', tree: { marker: 'a', pid: 7 } });
    expect(set.trees()).toEqual([{ marker: 'a', pid: 7, cgroups: ['/sys/fs/cgroup/procmux-12-s'] }]);
  });

  it("carries a tree's private dirs, kept across a later add, and refuses one procmux did not name", () => {
    const message = { kind: 'dir', marker: '12-3-ab', dir: '/tmp/procmux-sandbox-Ab12' } as const;
    expect(decodeMessage(encodeMessage(message).trimEnd())).toEqual(message);
    for (const line of [
      'd 12-3-ab /tmp',
      'd 12-3-ab /home/me',
      'd 12-3-ab tmp/procmux-x',
      'd 12-3-ab /a/../procmux-x',
    ]) {
      expect(decodeMessage(line)).toBeUndefined();
    }
    const set = new WatchedSet();
    set.apply({ kind: 'add', tree: { marker: 'a', pid: 0 } });
    set.apply({ ...message, marker: 'a' });
    set.apply({ kind: 'add', tree: { marker: 'a', pid: 7 } });
    expect(set.trees()).toEqual([{ marker: 'a', pid: 7, dirs: ['/tmp/procmux-sandbox-Ab12'] }]);
  });

  it('ignores malformed lines instead of acting on them', () => {
    for (const line of ['', '+ a', '+ a b', '+ a;rm 1', '- ', 'byebye', `+ ${'x'.repeat(129)} 1`]) {
      expect(decodeMessage(line)).toBeUndefined();
    }
  });

  it('takes markers of 1 to 128 letters, digits and . _ -, pids of 1 to 10 digits, paths of a slash and 4,000 more', () => {
    const long = 'x'.repeat(128);
    expect(decodeMessage('+ a 7')).toEqual({ kind: 'add', tree: { marker: 'a', pid: 7 } });
    expect(decodeMessage(`+ ${long} 1234567890`)).toEqual({
      kind: 'add',
      tree: { marker: long, pid: 1234567890 },
    });
    expect(decodeMessage('+ A.b_c-9 1')).toEqual({ kind: 'add', tree: { marker: 'A.b_c-9', pid: 1 } });
    expect(decodeMessage('- a')).toEqual({ kind: 'remove', marker: 'a' });
    expect(decodeMessage(`- ${long}`)).toEqual({ kind: 'remove', marker: long });
    expect(decodeMessage('c a /x')).toEqual({ kind: 'cgroup', marker: 'a', dir: '/x' });
    const deep = `/${'d'.repeat(4000)}`;
    expect(decodeMessage(`c ${long} ${deep}`)).toEqual({ kind: 'cgroup', marker: long, dir: deep });
    for (const line of [
      '+  7',
      '+ a 12345678901',
      '+ a 7 more',
      'x+ a 7',
      '+ a/b 7',
      '-  ',
      `- ${'x'.repeat(129)}`,
      '- a b',
      'x- a',
      'c a /',
      `c a /${'d'.repeat(4001)}`,
      'c a /x\0y',
      'xc a /x',
      `c ${'x'.repeat(129)} /x`,
      'c a/b /x',
      ' bye',
      'bye ',
    ]) {
      expect(decodeMessage(line), line.slice(0, 40)).toBeUndefined();
    }
  });

  it('reads a private dir line whole: nothing before it, no path past 4,000 characters', () => {
    const kept = `/tmp/procmux-${'x'.repeat(3988)}`; // a slash and 4,000 more
    expect(decodeMessage(`d a ${kept}`)).toEqual({ kind: 'dir', marker: 'a', dir: kept });
    for (const line of [
      'xd a /tmp/procmux-x',
      ' d a /tmp/procmux-x',
      `d a ${kept}x`,
      'd a /tmp/procmux-x/',
    ]) {
      expect(decodeMessage(line), line.slice(0, 40)).toBeUndefined();
    }
  });

  it('forgets a private dir line for a tree it does not watch', () => {
    const set = new WatchedSet();
    set.apply({ kind: 'dir', marker: 'ghost', dir: '/tmp/procmux-g' });
    expect(set.trees()).toEqual([]);
  });

  it('encodes each message as one line', () => {
    expect(encodeMessage({ kind: 'add', tree: { marker: 'm', pid: 5 } })).toBe('+ m 5\n');
    expect(encodeMessage({ kind: 'remove', marker: 'm' })).toBe('- m\n');
    expect(encodeMessage({ kind: 'cgroup', marker: 'm', dir: '/c' })).toBe('c m /c\n');
    expect(encodeMessage({ kind: 'dir', marker: 'm', dir: '/tmp/procmux-d' })).toBe('d m /tmp/procmux-d\n');
    expect(encodeMessage({ kind: 'bye' })).toBe('bye\n');
  });

  it('forgets a cgroup line for a tree it does not watch, and keeps a tree without cgroups bare', () => {
    const set = new WatchedSet();
    set.apply({ kind: 'cgroup', marker: 'ghost', dir: '/g' });
    expect(set.trees()).toEqual([]);
    set.apply({ kind: 'add', tree: { marker: 'a', pid: 3 } });
    set.apply({ kind: 'add', tree: { marker: 'a', pid: 4 } });
    expect(set.trees()).toEqual([{ marker: 'a', pid: 4 }]);
    expect(Object.keys(set.trees()[0]!)).toEqual(['marker', 'pid']);
    set.apply({ kind: 'cgroup', marker: 'a', dir: '/one' });
    set.apply({ kind: 'cgroup', marker: 'a', dir: '/two' });
    expect(set.trees()).toEqual([{ marker: 'a', pid: 4, cgroups: ['/one', '/two'] }]);
    expect(set.disposed).toBe(false);
  });

  it('keeps the latest pid of a marker, forgets removed ones, and nothing after bye', () => {
    const set = new WatchedSet();
    set.apply({ kind: 'add', tree: { marker: 'a', pid: 0 } });
    set.apply({ kind: 'add', tree: { marker: 'a', pid: 10 } });
    set.apply({ kind: 'add', tree: { marker: 'b', pid: 11 } });
    set.apply({ kind: 'remove', marker: 'b' });
    expect(set.trees()).toEqual([{ marker: 'a', pid: 10 }]);
    set.apply({ kind: 'bye' });
    expect(set.disposed).toBe(true);
    expect(set.trees()).toEqual([]);
  });
});

function recordingKill(survivors: number[] = []) {
  const calls: { pid: number; graceMs: number | undefined; marker: string | undefined }[] = [];
  return {
    calls,
    killTree: async (pid: number, options: { graceMs?: number; marker?: string }): Promise<KillReport> => {
      calls.push({ pid, graceMs: options.graceMs, marker: options.marker });
      return { signalled: [pid], survivors: survivors.filter((s) => s === pid) };
    },
  };
}

describe('killAtHostDeath', () => {
  it('tree-kills every watched tree with the grace and its marker (POSIX)', async () => {
    const kill = recordingKill();
    const survivors = await killAtHostDeath(
      [
        { marker: 'm1', pid: 100 },
        { marker: 'm2', pid: 200 },
      ],
      'linux',
      3000,
      { killTree: kill.killTree, carriers: async () => [] },
    );
    expect(survivors).toEqual([]);
    expect(kill.calls).toEqual([
      { pid: 100, graceMs: 3000, marker: 'm1' },
      { pid: 200, graceMs: 3000, marker: 'm2' },
    ]);
  });

  it("kills and removes each tree's cgroup beside its tree kill, and counts its survivors", async () => {
    const kill = recordingKill();
    const cgroups: (readonly string[])[] = [];
    const survivors = await killAtHostDeath(
      [
        { marker: 'm1', pid: 100, cgroups: ['/cg/procmux-1-a', '/v1/procmux-1-a'] },
        { marker: 'm2', pid: 200 },
      ],
      'linux',
      3000,
      {
        killTree: kill.killTree,
        carriers: async () => [],
        killCgroup: async (dirs) => {
          cgroups.push(dirs);
          return [555];
        },
      },
    );
    expect(cgroups).toEqual([['/cg/procmux-1-a', '/v1/procmux-1-a']]);
    expect(kill.calls.map((c) => c.pid)).toEqual([100, 200]);
    expect(survivors).toEqual([555]);
  });

  it("removes each tree's private dirs once its kill is done, and a failed removal is no crash", async () => {
    const order: string[] = [];
    await killAtHostDeath(
      [
        { marker: 'm1', pid: 100, dirs: ['/tmp/procmux-sandbox-1', '/tmp/procmux-sandbox-2'] },
        { marker: 'm2', pid: 200 },
      ],
      'linux',
      3000,
      {
        killTree: async (pid) => {
          order.push(`kill ${pid}`);
          return { signalled: [pid], survivors: [] };
        },
        carriers: async () => [],
        removeDir: async (dir) => {
          order.push(`rm ${dir}`);
          if (dir.endsWith('1')) throw new Error('EBUSY');
        },
      },
    );
    expect(order.indexOf('rm /tmp/procmux-sandbox-1')).toBeGreaterThan(order.indexOf('kill 100'));
    expect(order.filter((o) => o.startsWith('rm'))).toEqual([
      'rm /tmp/procmux-sandbox-1',
      'rm /tmp/procmux-sandbox-2',
    ]);
  });

  it('finds a tree whose pid never arrived by its marker (POSIX)', async () => {
    const kill = recordingKill();
    await killAtHostDeath([{ marker: 'm', pid: 0 }], 'linux', 500, {
      killTree: kill.killTree,
      carriers: async (marker) => (marker === 'm' ? [301, 302] : []),
    });
    expect(kill.calls.map((c) => c.pid)).toEqual([301, 302]);
  });

  it('uses taskkill /T /F at once on Windows (grace 0) and has no marker lookup there', async () => {
    const kill = recordingKill();
    let looked = false;
    await killAtHostDeath(
      [
        { marker: 'm', pid: 42 },
        { marker: 'n', pid: 0 },
      ],
      'win32',
      3000,
      {
        killTree: kill.killTree,
        carriers: async () => {
          looked = true;
          return [1];
        },
      },
    );
    expect(kill.calls).toEqual([{ pid: 42, graceMs: 0, marker: 'm' }]);
    expect(looked).toBe(false);
  });

  it('reports survivors, and a kill that throws counts its root as one', async () => {
    const survivors = await killAtHostDeath(
      [
        { marker: 'a', pid: 1 },
        { marker: 'b', pid: 2 },
      ],
      'linux',
      0,
      {
        killTree: async (pid) => {
          if (pid === 2) throw new Error('no /proc');
          return { signalled: [pid], survivors: [pid] };
        },
        carriers: async () => [],
      },
    );
    expect(survivors.sort()).toEqual([1, 2]);
  });
});

describe('killAtHostDeath: what a tree lacks', () => {
  it('asks no cgroup kill for a tree whose cgroup list is empty', async () => {
    const asked: (readonly string[])[] = [];
    await killAtHostDeath([{ marker: 'm', pid: 100, cgroups: [] }], 'linux', 0, {
      killTree: recordingKill().killTree,
      carriers: async () => [],
      killCgroup: async (dirs) => {
        asked.push(dirs);
        return [];
      },
    });
    expect(asked).toEqual([]);
  });

  it('still reports the tree kill when the cgroup kill fails', async () => {
    const survivors = await killAtHostDeath(
      [{ marker: 'm', pid: 100, cgroups: ['/cg/procmux-1-m'] }],
      'linux',
      0,
      {
        killTree: recordingKill([100]).killTree,
        carriers: async () => [],
        killCgroup: async () => {
          throw new Error('EBUSY');
        },
      },
    );
    expect(survivors).toEqual([100]);
  });

  it('leaves private dirs where no removal is given, and still kills', async () => {
    const kill = recordingKill();
    const survivors = await killAtHostDeath(
      [{ marker: 'm', pid: 100, dirs: ['/tmp/procmux-sandbox-1'] }],
      'linux',
      0,
      { killTree: kill.killTree, carriers: async () => [] },
    );
    expect(survivors).toEqual([]);
    expect(kill.calls.map((c) => c.pid)).toEqual([100]);
  });

  it('writes no cgroup.kill for a tree without a cgroup', () => {
    const done: string[] = [];
    killOnExit([{ marker: 'a', pid: 10 }], 'linux', {
      signal: (target) => void done.push(`signal ${target}`),
      runSync: () => {},
      killCgroupSync: (dir) => void done.push(`kill ${dir}`),
    });
    expect(done).toEqual(['signal -10']);
  });
});

describe('killOnExit (the synchronous second line)', () => {
  it("writes each tree's cgroup.kill first, and still SIGKILLs its group when that fails", () => {
    const done: string[] = [];
    killOnExit(
      [
        { marker: 'a', pid: 10, cgroups: ['/cg/procmux-1-a', '/v1/procmux-1-a'] },
        { marker: 'b', pid: 11, cgroups: ['/cg/procmux-1-b'] },
      ],
      'linux',
      {
        signal: (target) => void done.push(`signal ${target}`),
        runSync: () => {},
        killCgroupSync: (dir) => {
          if (dir.endsWith('-b')) throw new Error('no cgroup.kill');
          done.push(`kill ${dir}`);
        },
      },
    );
    expect(done).toEqual(['kill /cg/procmux-1-a', 'signal -10', 'signal -11']);
  });

  it('SIGKILLs each root process group on POSIX, skipping trees without a pid (and never -1)', () => {
    const signals: [number, string][] = [];
    killOnExit(
      [
        { marker: 'a', pid: 10 },
        { marker: 'b', pid: 0 },
        { marker: 'x', pid: 1 },
        { marker: 'c', pid: 12 },
      ],
      'darwin',
      {
        signal: (target, signal) => void signals.push([target, signal]),
        runSync: () => {
          throw new Error('not on POSIX');
        },
      },
    );
    expect(signals).toEqual([
      [-10, 'SIGKILL'],
      [-12, 'SIGKILL'],
    ]);
  });

  it('runs taskkill /T /F per root on Windows, and one failure does not stop the rest', () => {
    const runs: string[][] = [];
    killOnExit(
      [
        { marker: 'a', pid: 10 },
        { marker: 'b', pid: 11 },
      ],
      'win32',
      {
        signal: () => {
          throw new Error('not on Windows');
        },
        runSync: (file, args) => {
          runs.push([file, ...args]);
          if (args.includes('10')) throw new Error('already gone');
        },
      },
    );
    expect(runs).toEqual([
      ['taskkill', '/T', '/F', '/PID', '10'],
      ['taskkill', '/T', '/F', '/PID', '11'],
    ]);
  });
});

describe('runWatchdogLoop', () => {
  it('kills what is still watched when the link closes', async () => {
    const input = new PassThrough();
    const kill = recordingKill();
    let loads = 0;
    const done = runWatchdogLoop({
      input,
      platform: 'linux',
      graceMs: 100,
      loadEffects: async () => {
        loads += 1;
        return { killTree: kill.killTree, carriers: async () => [] };
      },
    });
    // readline closes on the input's end, before this listener hears it.
    const ended = new Promise<void>((resolve) => input.once('end', resolve));
    input.write('+ a 0\n+ a 7\n+ b 8\n- b\ngarbage\n');
    input.end();
    await Promise.race([ended, done]);
    // The kill begins as the link closes.
    expect(loads).toBe(1);
    expect(await done).toEqual([]);
    expect(kill.calls).toEqual([{ pid: 7, graceMs: 100, marker: 'a' }]);
  });

  it('kills nothing, and loads nothing, after bye', async () => {
    const input = new PassThrough();
    let loaded = false;
    const done = runWatchdogLoop({
      input,
      platform: 'linux',
      graceMs: 100,
      loadEffects: async () => {
        loaded = true;
        return { killTree: recordingKill().killTree, carriers: async () => [] };
      },
    });
    input.end('+ a 7\nbye\n');
    expect(await done).toEqual([]);
    expect(loaded).toBe(false);
  });
});

describe('runWatchdogLoop: an imperfect link', () => {
  it('reads lines with spaces around them', async () => {
    const input = new PassThrough();
    const kill = recordingKill();
    const done = runWatchdogLoop({
      input,
      platform: 'linux',
      graceMs: 0,
      loadEffects: async () => ({ killTree: kill.killTree, carriers: async () => [] }),
    });
    input.end('  + a 7 \r\n');
    expect(await done).toEqual([]);
    expect(kill.calls.map((c) => c.pid)).toEqual([7]);
  });

  it('kills once when the link fails and then closes', async () => {
    const input = new PassThrough();
    const kill = recordingKill();
    let loads = 0;
    const done = runWatchdogLoop({
      input,
      platform: 'linux',
      graceMs: 0,
      loadEffects: async () => {
        loads += 1;
        return { killTree: kill.killTree, carriers: async () => [] };
      },
    });
    // readline closes on the input's end, before this listener hears it.
    const ended = new Promise<void>((resolve) => input.once('end', resolve));
    input.write('+ a 7\n');
    await new Promise<void>((resolve) => setImmediate(resolve));
    input.emit('error', new Error('EPIPE'));
    // The kill begins on the failure, whether or not an end follows.
    expect(loads).toBe(1);
    input.end();
    expect(await done).toEqual([]);
    await ended;
    expect(loads).toBe(1);
    expect(kill.calls.map((c) => c.pid)).toEqual([7]);
  });
});

class FakeChild extends EventEmitter {
  readonly stdin = Object.assign(new PassThrough(), { unref: () => (this.stdinUnrefs += 1) });
  readonly pid = 999;
  exitCode: number | null = null;
  signalCode: string | null = null;
  kills: string[] = [];
  unrefs = 0;
  stdinUnrefs = 0;
  written = '';
  /** Chunks written: each one wakes the real watchdog. */
  writes = 0;
  constructor() {
    super();
    this.stdin.on('data', (chunk: Buffer) => {
      this.written += chunk.toString();
      this.writes += 1;
    });
  }
  unref(): void {
    this.unrefs += 1;
  }
  ref(): void {
    this.unrefs -= 1;
  }
  kill(signal: string): void {
    this.kills.push(signal);
  }
}

function fakeHost() {
  const host = new EventEmitter();
  return host as EventEmitter & Pick<NodeJS.Process, 'on' | 'off'>;
}

describe('HostWatchdog', () => {
  function setup() {
    const children: FakeChild[] = [];
    const spawned: { file: string; args: string[]; env: Record<string, string> }[] = [];
    const spawnWatchdog: WatchdogSpawner = (file, args, env) => {
      spawned.push({ file, args, env });
      const child = new FakeChild();
      children.push(child);
      return child as unknown as ReturnType<WatchdogSpawner>;
    };
    const host = fakeHost();
    const { logger, warnings } = recordingLogger();
    const watchdog = new HostWatchdog({ platform: 'linux', graceMs: 1500, logger, spawnWatchdog, host });
    return { watchdog, children, spawned, host, warnings };
  }
  const flush = () => new Promise((resolve) => setImmediate(resolve));

  it("tells a tree's pid without repeating its cgroups and dirs, one write per call", async () => {
    const { watchdog, children } = setup();
    // Before the spawn, then with the pid, as the supervisor does; then a second tree, and the end.
    watchdog.watch('a', 0, ['/cg/procmux-a', '/cg/memory/procmux-a'], ['/tmp/procmux-a']);
    watchdog.watch('a', 42, ['/cg/procmux-a', '/cg/memory/procmux-a'], ['/tmp/procmux-a']);
    watchdog.watch('b', 0, ['/cg/procmux-b']);
    watchdog.watch('b', 43, ['/cg/procmux-b', '/cg/pids/procmux-b']);
    watchdog.unwatch('a');
    await flush();
    expect(children[0]!.written).toBe(
      [
        '+ a 0',
        'c a /cg/procmux-a',
        'c a /cg/memory/procmux-a',
        'd a /tmp/procmux-a',
        '+ a 42',
        '+ b 0',
        'c b /cg/procmux-b',
        '+ b 43',
        'c b /cg/pids/procmux-b',
        '- a',
        '',
      ].join('\n'),
    );
    expect(children[0]!.writes).toBe(5);
    const disposed = watchdog.dispose();
    children[0]!.emit('exit', 0, null);
    await disposed;
  });

  it('starts nothing until the first tree, then one process that keeps no event loop alive', async () => {
    const { watchdog, children, spawned } = setup();
    expect(spawned).toHaveLength(0);
    watchdog.watch('m1');
    watchdog.watch('m1', 101);
    watchdog.watch('m2', 102);
    await flush();
    expect(spawned).toHaveLength(1);
    // Started through the descriptor-closing wrapper, with the grace it should use.
    expect(spawned[0]!.file).toBe('bash');
    expect(spawned[0]!.args).toContain('--grace-ms');
    expect(spawned[0]!.args).toContain('1500');
    expect(spawned[0]!.env.BASH_ENV).toMatch(/close-inherited-fds\.bash$/);
    expect(children[0]!.unrefs).toBe(1);
    expect(children[0]!.stdinUnrefs).toBe(1);
    expect(children[0]!.written).toBe('+ m1 0\n+ m1 101\n+ m2 102\n');
    watchdog.unwatch('m1');
    watchdog.unwatch('unknown');
    await flush();
    expect(children[0]!.written.endsWith('- m1\n')).toBe(true);
    expect(children[0]!.written.match(/^- /gm)).toHaveLength(1);
  });

  it('hands every tree to a new watchdog when the first one died', async () => {
    const { watchdog, children } = setup();
    watchdog.watch('a', 1);
    children[0]!.emit('exit', 1, null);
    watchdog.watch('b', 2);
    await flush();
    expect(children).toHaveLength(2);
    expect(children[1]!.written).toBe('+ a 1\n+ b 2\n');
  });

  it('says bye and ends the link on dispose, and watches nothing afterwards', async () => {
    const { watchdog, children, host } = setup();
    watchdog.watch('a', 1);
    expect(host.listenerCount('exit')).toBe(1);
    let gone = false;
    const disposed = watchdog.dispose().then(() => {
      gone = true;
    });
    expect(watchdog.dispose()).toBeInstanceOf(Promise);
    watchdog.watch('b', 2);
    await flush();
    // dispose() resolves once the watchdog process has exited, not before, and the host
    // stays up for it meanwhile (the process is referenced again).
    expect(gone).toBe(false);
    expect(children[0]!.unrefs).toBe(0);
    children[0]!.emit('exit', 0, null);
    await disposed;
    expect(children[0]!.kills).toEqual([]);
    expect(children).toHaveLength(1);
    expect(children[0]!.written).toBe('+ a 1\nbye\n');
    expect(children[0]!.stdin.writableEnded).toBe(true);
    expect(host.listenerCount('exit')).toBe(0);
  });

  it('SIGKILLs every watched tree at once when the host process exits', async () => {
    const { watchdog, host, children } = setup();
    const sleeper = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    trackPid(sleeper.pid);
    // Its own process group exists once it has spawned (setsid runs before exec).
    await new Promise((resolve) => sleeper.once('spawn', resolve));
    const exited = new Promise<string | null>((resolve) =>
      sleeper.once('exit', (_code, signal) => resolve(signal)),
    );
    watchdog.watch('m-exit', sleeper.pid!);
    host.emit('exit', 0);
    expect(await exited).toBe('SIGKILL');
    const disposed = watchdog.dispose();
    children[0]!.emit('exit', 0, null);
    await disposed;
  });

  it('logs a watchdog that cannot start, and sessions go on', () => {
    const { logger, warnings } = recordingLogger();
    const watchdog = new HostWatchdog({
      platform: 'linux',
      graceMs: 0,
      logger,
      host: fakeHost(),
      spawnWatchdog: () => {
        throw new Error('EMFILE');
      },
    });
    watchdog.watch('a', 1);
    expect(watchdog.pid).toBeUndefined();
    expect(warnings[0]!.message).toMatch(/watchdog could not run/);
  });
});

describe('ProcessSupervisor({ watchdog: true })', () => {
  it('registers each run by marker before the spawn, by pid after, and forgets it when it ends', async () => {
    const children: FakeChild[] = [];
    const seen: { treeMarker?: string }[] = [];
    const supervisor = new ProcessSupervisor({
      watchdog: true,
      logger: recordingLogger().logger,
      spawnWatchdog: () => {
        const child = new FakeChild();
        children.push(child);
        return child as unknown as ReturnType<WatchdogSpawner>;
      },
      ptyFactory: async (options) => {
        seen.push(options);
        // A pipe child standing in for a PTY: only the marker plumbing is under test here.
        const child = await ChildAdapter.create({ command: 'true', treeMarker: options.treeMarker });
        return Object.assign(child, {
          stdioMode: 'pty' as const,
          resize: () => {},
        }) as unknown as PtyProcessAdapter;
      },
    });
    expect(children).toHaveLength(0);
    const run = await supervisor.spawn({ command: 'true', mode: 'pty' });
    await run.wait();
    await forgotten(children);
    const marker = seen[0]!.treeMarker!;
    expect(marker).toMatch(new RegExp(`^${process.pid}-`));
    expect(children).toHaveLength(1);
    expect(children[0]!.written).toBe(`+ ${marker} 0\n+ ${marker} ${run.pid}\n- ${marker}\n`);
    const disposed = supervisor.dispose();
    children[0]!.emit('exit', 0, null);
    await disposed;
    expect(children[0]!.written.endsWith('bye\n')).toBe(true);
  });

  it('forgets a tree whose spawn failed, and gives adapter factories no watchdog', async () => {
    const children: FakeChild[] = [];
    const supervisor = new ProcessSupervisor({
      watchdog: true,
      logger: recordingLogger().logger,
      spawnWatchdog: () => {
        const child = new FakeChild();
        children.push(child);
        return child as unknown as ReturnType<WatchdogSpawner>;
      },
    });
    await expect(supervisor.spawn({ file: 'no-such-program-procmux' })).rejects.toThrow(/command not found/);
    // A host backend's process is the backend's to end: not registered.
    const hosted = await supervisor.spawn({ adapterFactory: () => ChildAdapter.create({ command: 'true' }) });
    await hosted.wait();
    await forgotten(children);
    const lines = children[0]!.written.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(lines[0]!.replace(/^\+ (\S+) 0$/, '- $1'));
    expect(() => new ProcessSupervisor({ watchdog: 'yes' as unknown as boolean })).toThrow(
      /watchdog must be true or false/,
    );
    const disposed = supervisor.dispose();
    children[0]!.emit('exit', 0, null);
    await disposed;
  });

  it("hands a run's privateDir to the watchdog with its tree, and refuses one it could not safely remove", async () => {
    const children: FakeChild[] = [];
    const supervisor = new ProcessSupervisor({
      watchdog: true,
      logger: recordingLogger().logger,
      spawnWatchdog: () => {
        const child = new FakeChild();
        children.push(child);
        return child as unknown as ReturnType<WatchdogSpawner>;
      },
    });
    const run = await supervisor.spawn({ command: 'true', privateDir: '/tmp/procmux-sandbox-Xy1' });
    await run.wait();
    await forgotten(children);
    const lines = children[0]!.written.trim().split('\n');
    expect(lines[0]).toMatch(/^\+ \S+ 0$/);
    expect(lines[1]).toBe(lines[0]!.replace(/^\+ (\S+) 0$/, 'd $1 /tmp/procmux-sandbox-Xy1'));
    for (const privateDir of ['/tmp', 'relative/procmux-x', '/tmp/../procmux-x', 7]) {
      await expect(supervisor.spawn({ command: 'true', privateDir: privateDir as string })).rejects.toThrow(
        /privateDir must be an absolute path whose last part starts with "procmux-"/,
      );
    }
    const disposed = supervisor.dispose();
    children[0]!.emit('exit', 0, null);
    await disposed;
  });
});

/** Waits for the watchdog to be told a tree ended (a `- marker` or `d marker dir` line). */
async function forgotten(children: FakeChild[]): Promise<void> {
  await expect.poll(() => children[0]?.written ?? '', { timeout: 10_000 }).toMatch(/^[-d] \S+/m);
}
