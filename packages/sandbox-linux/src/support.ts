// Whether this host can sandbox at all. Asked once; the answer is the truth bubblewrap gives
// (a probe run), not a guess from sysctls, and a "no" names what is missing.
import { ProcmuxError } from '@procmux/core-types';

export interface SupportEffects {
  platform: NodeJS.Platform;
  arch: string;
  /** The executable's path on PATH, or undefined. */
  which(name: string): string | undefined;
  /** The built sandbox-init helper (native.ts), or undefined: socat is needed then. */
  sandboxInit: string | undefined;
  /** Runs a probe; resolves to its exit code and stderr. */
  run(file: string, args: readonly string[]): Promise<{ code: number | null; stderr: string }>;
}

const PROBE = [
  '--unshare-user',
  '--unshare-pid',
  '--unshare-net',
  '--ro-bind',
  '/',
  '/',
  '--proc',
  '/proc',
  'true',
];

/**
 * Resolves when sandboxed sessions can run here; else rejects with ERR_PROCESS_UNSUPPORTED
 * naming what is missing (the OS, bwrap, the architecture, user namespaces, and socat where
 * the package's own forwarder was not built).
 */
export async function checkSandboxSupport(effects: SupportEffects): Promise<void> {
  if (effects.platform !== 'linux') {
    throw unsupported(
      `sandboxed sessions need Linux (bubblewrap); this host is ${effects.platform}, where no sandbox is implemented`,
      { platform: effects.platform },
    );
  }
  if (effects.arch !== 'x64' && effects.arch !== 'arm64') {
    throw unsupported(
      `the sandbox's seccomp filter is built for x64 and arm64 only (this host is ${effects.arch})`,
      {
        arch: effects.arch,
      },
    );
  }
  const needed = effects.sandboxInit === undefined ? ['bwrap', 'socat'] : ['bwrap'];
  const missing = needed.filter((name) => effects.which(name) === undefined);
  if (missing.length > 0) {
    const why = missing.includes('socat')
      ? ` (socat forwards to the proxy where this package's sandbox-init was not built, as here for ${effects.arch})`
      : '';
    throw unsupported(
      `sandboxed sessions need ${missing.join(' and ')} on PATH${why} (Debian/Ubuntu: apt-get install ${missing
        .map((m) => (m === 'bwrap' ? 'bubblewrap' : m))
        .join(' ')})`,
      { missing },
    );
  }
  const probe = await effects.run('bwrap', PROBE);
  if (probe.code !== 0) {
    const said = probe.stderr.trim().split('\n').slice(-1)[0] ?? '';
    throw unsupported(
      `bubblewrap cannot create user, pid and network namespaces here (${said || `exit ${probe.code}`}); ` +
        'the kernel or container must allow user namespaces (kernel.unprivileged_userns_clone, user.max_user_namespaces, seccomp/AppArmor profile)',
      { missing: ['user namespaces'] },
    );
  }
}

function unsupported(message: string, details: Record<string, unknown>): ProcmuxError {
  return new ProcmuxError('ERR_PROCESS_UNSUPPORTED', message, { details });
}
