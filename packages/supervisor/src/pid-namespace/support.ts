// Whether this host can hold a session in a pid namespace: a pure function of injected
// effects (platform, euid, PATH lookups, one probe run), so every answer is unit-tested.
import type { PidNamespaceSpec } from './wrap.js';

export interface PidNamespaceEffects {
  platform: NodeJS.Platform;
  /** process.geteuid(): 0 makes the namespace directly, anyone else needs a user namespace. */
  euid: number;
  /** Whether an executable is on PATH. */
  which(name: string): boolean;
  /** Runs a probe; resolves to its exit code (null when it could not start) and stderr. */
  run(file: string, args: readonly string[]): Promise<{ code: number | null; stderr: string }>;
}

export type PidNamespaceSupport = { ok: true; spec: PidNamespaceSpec } | { ok: false; reason: string };

/**
 * Linux only; `unshare` and `setpriv` (util-linux) on PATH; and a probe that makes one
 * (`unshare [--user --map-current-user] --pid --fork true`) succeeds: root makes it directly,
 * another user only where unprivileged user namespaces are allowed (many containers and
 * hardened kernels refuse them). The reason names what was missing.
 */
export async function pidNamespaceSupport(fx: PidNamespaceEffects): Promise<PidNamespaceSupport> {
  if (fx.platform !== 'linux')
    return { ok: false, reason: `pid namespaces are Linux only (this host: ${fx.platform})` };
  for (const tool of ['unshare', 'setpriv'])
    if (!fx.which(tool)) return { ok: false, reason: `${tool} (util-linux) is not on PATH` };
  const spec: PidNamespaceSpec = { userNamespace: fx.euid !== 0 };
  const user = spec.userNamespace ? ['--user', '--map-current-user'] : [];
  const probe = await fx.run('unshare', [...user, '--pid', '--fork', 'true']);
  if (probe.code === 0) return { ok: true, spec };
  // split() always gives a first element: the first line said, or ''.
  const said = probe.stderr.trim().split('\n')[0]!;
  return {
    ok: false,
    reason: spec.userNamespace
      ? `a non-root user cannot make a pid namespace here: unprivileged user namespaces are refused (${said || `exit ${probe.code}`})`
      : `a pid namespace could not be made (${said || `exit ${probe.code}`})`,
  };
}
