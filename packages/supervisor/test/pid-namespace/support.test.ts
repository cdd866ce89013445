// Which hosts get a pid namespace, decided from injected effects: every kind of host here.
import { describe, expect, it } from 'vitest';
import { type PidNamespaceEffects, pidNamespaceSupport } from '../../src/pid-namespace/support.js';

function host(over: Partial<PidNamespaceEffects> = {}): PidNamespaceEffects & { probes: string[][] } {
  const probes: string[][] = [];
  return {
    platform: 'linux',
    euid: 0,
    which: () => true,
    run: async (file, args) => {
      probes.push([file, ...args]);
      return { code: 0, stderr: '' };
    },
    ...over,
    probes,
  };
}

describe('pidNamespaceSupport', () => {
  it('root: made directly, no user namespace', async () => {
    const fx = host();
    expect(await pidNamespaceSupport(fx)).toEqual({ ok: true, spec: { userNamespace: false } });
    expect(fx.probes).toEqual([['unshare', '--pid', '--fork', 'true']]);
  });

  it('a non-root user where user namespaces are allowed: through one, mapped to the same uid', async () => {
    const fx = host({ euid: 1000 });
    expect(await pidNamespaceSupport(fx)).toEqual({ ok: true, spec: { userNamespace: true } });
    expect(fx.probes).toEqual([['unshare', '--user', '--map-current-user', '--pid', '--fork', 'true']]);
  });

  it('a non-root user where they are refused (a container, a hardened kernel): no, and why', async () => {
    const fx = host({
      euid: 1000,
      run: async () => ({ code: 1, stderr: 'unshare: unshare failed: Operation not permitted\n' }),
    });
    expect(await pidNamespaceSupport(fx)).toEqual({
      ok: false,
      reason:
        'a non-root user cannot make a pid namespace here: unprivileged user namespaces are refused (unshare: unshare failed: Operation not permitted)',
    });
  });

  it('root in a container without CAP_SYS_ADMIN: no, with the exit code when nothing was said', async () => {
    const fx = host({ run: async () => ({ code: 1, stderr: '' }) });
    expect(await pidNamespaceSupport(fx)).toEqual({
      ok: false,
      reason: 'a pid namespace could not be made (exit 1)',
    });
  });

  it('without util-linux tools, or off Linux: no probe is run', async () => {
    for (const [over, reason] of [
      [{ which: (name: string) => name !== 'setpriv' }, 'setpriv (util-linux) is not on PATH'],
      [{ which: () => false }, 'unshare (util-linux) is not on PATH'],
      [{ platform: 'darwin' as const }, 'pid namespaces are Linux only (this host: darwin)'],
      [{ platform: 'win32' as const }, 'pid namespaces are Linux only (this host: win32)'],
    ] as const) {
      const fx = host(over);
      expect(await pidNamespaceSupport(fx)).toEqual({ ok: false, reason });
      expect(fx.probes).toEqual([]);
    }
  });
});
