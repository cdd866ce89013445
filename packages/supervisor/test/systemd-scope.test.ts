// The delegated user scope a non-root host could get from systemd, decided from injected
// effects (it never runs here: root, in a container, no user manager).
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProcessAdapter, WaitResult } from '@procmux/core-types';
import { assertNoLeakedProcesses } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { normalizeSpawnOptions } from '../src/spawn-options.js';
import { ProcessSupervisor } from '../src/supervisor.js';
import { endScopeAfterExit, killScopeArgv } from '../src/systemd-scope/end-scope.js';
import {
  type SystemdScopeEffects,
  systemdScopeSupport,
  systemdScopeTarget,
} from '../src/systemd-scope/support.js';

function host(over: Partial<SystemdScopeEffects> = {}): SystemdScopeEffects & { probes: string[][] } {
  const probes: string[][] = [];
  return {
    platform: 'linux',
    euid: 1000,
    env: { XDG_RUNTIME_DIR: '/run/user/1000' },
    which: () => true,
    exists: (path) => path === '/run/user/1000/systemd/private',
    run: async (file, args) => {
      probes.push([file, ...args]);
      return { code: 0, stderr: '' };
    },
    ...over,
    probes,
  };
}

describe('systemdScopeSupport', () => {
  it('a desktop or server login with a user manager: yes, after one probe scope', async () => {
    const fx = host();
    expect(await systemdScopeSupport(fx)).toEqual({ ok: true });
    expect(fx.probes).toEqual([
      ['systemd-run', '--user', '--scope', '--quiet', '--collect', '-p', 'Delegate=yes', 'true'],
    ]);
  });

  it('says which step failed, and probes only when everything before it holds', async () => {
    for (const [over, reason, probed] of [
      [{ platform: 'darwin' }, 'systemd is Linux only (this host: darwin)', false],
      [{ euid: 0 }, 'root makes cgroups beneath its own; no user scope is needed', false],
      [{ which: () => false }, 'systemd-run is not on PATH', false],
      [{ env: {} }, 'XDG_RUNTIME_DIR is not set (no login session with a user manager)', false],
      [{ exists: () => false }, 'no user systemd manager listens at /run/user/1000/systemd/private', false],
      [
        { run: async () => ({ code: 1, stderr: 'Failed to connect to bus: No medium found\n' }) },
        'systemd-run --user --scope failed (Failed to connect to bus: No medium found)',
        true,
      ],
    ] as const) {
      const fx = host(over as Partial<SystemdScopeEffects>);
      expect(await systemdScopeSupport(fx)).toEqual({ ok: false, reason });
      if (!probed) expect(fx.probes).toEqual([]);
    }
  });
});

describe('systemdScopeTarget', () => {
  it('execs the program in place inside a named delegated scope', () => {
    expect(systemdScopeTarget({ file: 'sleep', args: ['5'] }, 'procmux-42-s1')).toEqual({
      file: 'systemd-run',
      args: [
        '--user',
        '--scope',
        '--quiet',
        '--collect',
        '-p',
        'Delegate=yes',
        '--unit',
        'procmux-42-s1',
        '--',
        'sleep',
        '5',
      ],
    });
  });

  it('refuses a unit name systemd would not take', () => {
    expect(() => systemdScopeTarget({ file: 'true', args: [] }, 'a/b')).toThrow('got a/b');
  });
});

describe('a run in a user scope: the scope is emptied once the run ended', () => {
  function adapter(result: WaitResult): ProcessAdapter {
    return { wait: () => Promise.resolve(result) } as unknown as ProcessAdapter;
  }

  it("SIGKILLs every process left in the scope before wait() resolves, once, and keeps the run's exit", async () => {
    const ran: string[][] = [];
    const a = endScopeAfterExit(
      adapter({ code: null, signal: 'SIGTERM' }),
      'procmux-7-s',
      async (file, args) => {
        ran.push([file, ...args]);
        return { code: 0, stderr: '' };
      },
      () => {},
    );
    expect(await a.wait()).toEqual({ code: null, signal: 'SIGTERM' });
    expect(await a.wait()).toEqual({ code: null, signal: 'SIGTERM' });
    expect(ran).toEqual([
      ['systemctl', '--user', 'kill', '--kill-whom=all', '--signal=SIGKILL', 'procmux-7-s.scope'],
    ]);
    expect(killScopeArgv('u')).toEqual({
      file: 'systemctl',
      args: ['--user', 'kill', '--kill-whom=all', '--signal=SIGKILL', 'u.scope'],
    });
  });

  it('a scope already gone (emptied and collected) is no error; any other failure is reported', async () => {
    const said: string[] = [];
    const gone = endScopeAfterExit(
      adapter({ code: 0, signal: null }),
      'u',
      async () => ({ code: 5, stderr: 'Failed to kill unit u.scope: Unit u.scope not loaded.\n' }),
      (m) => said.push(m),
    );
    expect(await gone.wait()).toEqual({ code: 0, signal: null });
    const broken = endScopeAfterExit(
      adapter({ code: 0, signal: null }),
      'u',
      async () => ({ code: 1, stderr: 'Failed to connect to bus\n' }),
      (m) => said.push(m),
    );
    expect(await broken.wait()).toEqual({ code: 0, signal: null });
    expect(said).toEqual(['systemctl --user kill u.scope failed: Failed to connect to bus']);
  });

  it('the spawn option takes a unit name systemd accepts, and not beside cgroup or pidNamespace', () => {
    const base = { file: 'true' };
    expect(normalizeSpawnOptions({ ...base, systemdScope: { unit: 'procmux-7-s' } }).systemdScope).toEqual({
      unit: 'procmux-7-s',
    });
    for (const bad of [{ unit: 'a b' }, { unit: '' }, null, 'u'])
      expect(() => normalizeSpawnOptions({ ...base, systemdScope: bad as never })).toThrow(/systemdScope/);
    expect(() =>
      normalizeSpawnOptions({ ...base, systemdScope: { unit: 'u' }, pidNamespace: { userNamespace: false } }),
    ).toThrow(/left out with cgroup or pidNamespace/);
  });
});

// systemd-run and systemctl stand-ins on PATH (there is no user manager here): the argv the
// supervisor really starts, and the scope kill it really runs after the exit.
describe.skipIf(process.platform !== 'linux')('the supervisor starts a scope run through systemd-run', () => {
  it('execs the resolved program after `--`, reports its own exit, then kills the scope', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'procmux-fake-systemd-'));
    const log = join(bin, 'log');
    const fake = (name: string, then: string) => {
      writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s\\n' "${name} $*" >>"${log}"\n${then}\n`);
      chmodSync(join(bin, name), 0o755);
    };
    // systemd-run execs what follows `--`, as the real one does with --scope.
    fake('systemd-run', 'while [ "$1" != -- ]; do shift; done; shift; exec "$@"');
    fake('systemctl', 'exit 0');
    const path = process.env.PATH;
    process.env.PATH = `${bin}:${path}`;
    const supervisor = new ProcessSupervisor();
    try {
      const run = await supervisor.spawn({
        command: 'exit 7',
        mode: 'pipe',
        env: { ...process.env },
        systemdScope: { unit: 'procmux-1-s' },
      });
      expect(await run.wait()).toMatchObject({ reason: 'exit', exitCode: 7 });
      const lines = readFileSync(log, 'utf8').trim().split('\n');
      expect(lines[0]).toMatch(
        /^systemd-run --user --scope --quiet --collect -p Delegate=yes --unit procmux-1-s -- \S*sh (--norc )?-c exit 7$/,
      );
      expect(lines[1]).toBe('systemctl --user kill --kill-whom=all --signal=SIGKILL procmux-1-s.scope');
      expect(lines).toHaveLength(2);
    } finally {
      process.env.PATH = path;
      await supervisor.dispose();
      rmSync(bin, { recursive: true, force: true });
    }
    await assertNoLeakedProcesses();
  });
});
