// The delegated user scope a non-root host could get from systemd, decided from injected
// effects (it never runs here: root, in a container, no user manager).
import { describe, expect, it } from 'vitest';
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
