// sandbox-launch, the host's side of a sandboxed start, run for real with a stand-in bwrap that
// reports what it was given: the cgroups joined first, nothing inherited kept, the filter on
// descriptor 9, the terminal bound as itself with INT and QUIT ignored; and the copy the host
// holds, which a rewrite of the package's file does not change.
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdLaunchFile, type LaunchFileEffects, nodeLaunchFileEffects } from '../src/launch-file.js';
import { builtNativeHelper } from '../src/native.js';
import { resolveSandboxPolicy } from '../src/policy.js';
import { openSessionSandbox } from '../src/session-sandbox.js';
import { sandboxGround } from './ground.js';

const linux = process.platform === 'linux';
const ground = sandboxGround('sbx-launch-', 'unused\n');
const { root } = ground;

/** A bwrap that prints its argv, its descriptors, SigIgn and descriptor 9's first bytes. */
function fakeBwrap(): string {
  const dir = join(root, 'fake');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'bwrap');
  writeFileSync(
    path,
    [
      '#!/bin/bash',
      'printf "argv:%s\\n" "$*"',
      // ls alone: a pipe or a command substitution would add descriptors of bash's own.
      'echo fds:; ls /proc/$$/fd; echo :fds',
      'grep SigIgn /proc/$$/status',
      'printf "fd9:%s\\n" "$(head -c 6 <&9)"',
      `printf "join:%s\\n" "\${PROCMUX_CGROUP_JOIN-unset}"`,
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}

async function run(
  file: string,
  args: string[],
  env: Record<string, string>,
  extraFds = 0,
): Promise<{ out: string; code: number | null }> {
  const stdio = ['ignore', 'pipe', 'pipe', ...Array<'pipe'>(extraFds).fill('pipe')] as const;
  const child = spawn(file, args, { env, stdio: [...stdio] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { out, code };
}

describe.skipIf(!linux)('sandbox-launch', () => {
  const launch = linux ? builtNativeHelper('sandbox-launch', process.arch) : undefined;

  it('is built with the package on this host', () => {
    expect(launch).toMatch(/\/dist\/native\/sandbox-launch-linux-(x64|arm64)$/);
  });

  it('joins every cgroup named, closes what it inherited, puts the filter on 9 and execs bwrap', async () => {
    const filter = join(root, 'filter.bpf');
    writeFileSync(filter, 'FILTER-bytes');
    // Regular files stand in for cgroup.procs: what is written there is the launcher's pid.
    const procs = [join(root, 'a.procs'), join(root, 'b.procs')];
    for (const p of procs) writeFileSync(p, '');
    const r = await run(
      launch!,
      [filter, fakeBwrap(), '--unshare-pid', '--', 'prog'],
      {
        PROCMUX_CGROUP_JOIN: procs.join(':'),
        PROCMUX_JOB_CONTROL: '1',
      },
      3,
    );
    expect(r.code).toBe(0);
    expect(r.out).toContain('argv:--ro-bind / / --dev /dev --unshare-pid -- prog\n');
    // Three inherited pipes (3-5) are gone; 9 is the filter (bash's own 255 aside).
    const fds = /fds:\n([\s\S]*?):fds/
      .exec(r.out)![1]!
      .trim()
      .split('\n')
      .map(Number)
      .sort((a, b) => a - b);
    expect(fds.filter((fd) => fd !== 255)).toEqual([0, 1, 2, 9]);
    expect(r.out).toContain('fd9:FILTER\n');
    expect(r.out).toContain('join:unset\n');
    const pids = procs.map((p) => readFileSync(p, 'utf8'));
    expect(pids[0]).toMatch(/^\d+\n$/);
    expect(pids[1]).toBe(pids[0]);
  });

  it('stops with 125 and names a cgroup it cannot join, before bwrap runs', async () => {
    const filter = join(root, 'filter.bpf');
    writeFileSync(filter, 'x');
    const missing = join(root, 'no-such-dir', 'cgroup.procs');
    const r = await run(launch!, [filter, fakeBwrap()], { PROCMUX_CGROUP_JOIN: missing });
    expect(r).toEqual({ code: 125, out: `procmux: could not join the session's cgroup (${missing})\n` });
  });

  it('binds the terminal as itself and ignores INT and QUIT under one', async () => {
    const filter = join(root, 'filter.bpf');
    writeFileSync(filter, 'x');
    const line = [launch!, filter, fakeBwrap(), '--', 'prog'].map((a) => `'${a}'`).join(' ');
    const r = await run('script', ['-qec', line, '/dev/null'], { PATH: process.env.PATH ?? '/usr/bin:/bin' });
    expect(r.out).toMatch(
      /argv:--ro-bind \/ \/ --dev \/dev --tmpfs \/dev\/pts --dev-bind (\/dev\/pts\/\d+) \1 -- prog/,
    );
    const ignored = BigInt(`0x${/SigIgn:\s*([0-9a-f]+)/.exec(r.out)![1]}`);
    expect(ignored & 0b110n).toBe(0b110n); // SIGINT (2) and SIGQUIT (3)
  });

  it('names a bwrap it cannot run, with the exit codes a shell gives', async () => {
    const filter = join(root, 'filter.bpf');
    writeFileSync(filter, 'x');
    expect(await run(launch!, [filter, '/no/such/bwrap'], {})).toEqual({
      code: 127,
      out: 'procmux sandbox: /no/such/bwrap: No such file or directory\n',
    });
  });
});

describe.skipIf(!linux)('the launcher the host holds', () => {
  it("is what wrap() spawns, but for a launch another process starts (a tmux pane's)", async () => {
    const ws = ground.ws;
    const policy = resolveSandboxPolicy({}, { workspace: ws, home: root });
    const box = await openSessionSandbox({ policy, cwd: ws, commandText: () => '' });
    try {
      const direct = box.wrap({ file: 'true', args: [] }, ws, {});
      expect(direct.file).toMatch(new RegExp(`^/proc/${process.pid}/fd/\\d+$`));
      expect(direct.args.slice(0, 2)).toEqual([
        join(box.dir, 'filter.bpf'),
        expect.stringMatching(/\/bwrap$/),
      ]);
      const pane = box.wrap({ file: 'true', args: [] }, ws, {}, { outerShell: true });
      expect(pane.file).toMatch(/\/(ba)?sh$/);
    } finally {
      await box.close();
    }
  });

  it('runs the bytes it held, whatever the package file becomes after', async () => {
    const copy = join(root, 'pkg-sandbox-launch');
    copyFileSync(builtNativeHelper('sandbox-launch', process.arch)!, copy);
    const path = holdLaunchFile({ ...nodeLaunchFileEffects, built: () => copy });
    expect(path).toMatch(new RegExp(`^/proc/${process.pid}/fd/\\d+$`));
    // A sandbox that can write the package's file rewrites it.
    const proof = join(root, 'rewritten-ran');
    writeFileSync(copy, `#!/bin/sh\necho ran > ${proof}\n`);
    const r = await run(path!, [], {});
    expect(r).toEqual({ code: 2, out: 'usage: sandbox-launch FILTER BWRAP [BWRAP_OPTION...]\n' });
    expect(() => readFileSync(proof)).toThrow();
  });

  it('holds nothing where it cannot be had, and closes what it opened', () => {
    const closed: number[] = [];
    const fx = (over: Partial<LaunchFileEffects>): LaunchFileEffects => ({
      built: () => '/pkg/sandbox-launch',
      read: () => Buffer.from('bytes'),
      create: () => 10,
      write: () => {},
      reopenReadOnly: () => 11,
      close: (fd) => closed.push(fd),
      probe: () => 2,
      pid: 42,
      ...over,
    });
    expect(holdLaunchFile(fx({ built: () => undefined }))).toBeUndefined();
    expect(
      holdLaunchFile(
        fx({
          create: () => {
            throw Object.assign(new Error('EOPNOTSUPP'), { code: 'EOPNOTSUPP' });
          },
        }),
      ),
    ).toBeUndefined();
    expect(closed).toEqual([]);
    // A temp dir mounted noexec: the probe does not run it.
    expect(holdLaunchFile(fx({ probe: () => null }))).toBeUndefined();
    expect(closed).toEqual([10, 11]);
    closed.length = 0;
    // The writable descriptor is closed before the probe runs the file (else ETXTBSY).
    let openAtProbe: number[] = [];
    const probe = () => {
      openAtProbe = [...closed];
      return 2;
    };
    expect(holdLaunchFile(fx({ probe }))).toBe('/proc/42/fd/11');
    expect(openAtProbe).toEqual([10]);
  });
});
