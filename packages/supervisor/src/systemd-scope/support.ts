// Whether a non-root host can get a delegated cgroup from its user's systemd manager
// (`systemd-run --user --scope -p Delegate=yes`): how a desktop or server login gets a cgroup
// subtree of its own without root. A pure function of injected effects, unit-tested here; it
// never runs on this VM (root in a container, no user manager).

export interface SystemdScopeEffects {
  platform: NodeJS.Platform;
  euid: number;
  env: Readonly<Record<string, string | undefined>>;
  which(name: string): boolean;
  exists(path: string): boolean;
  /** Runs a probe; resolves to its exit code (null when it could not start) and stderr. */
  run(file: string, args: readonly string[]): Promise<{ code: number | null; stderr: string }>;
}

export type SystemdScopeSupport = { ok: true } | { ok: false; reason: string };

/** The probe and the wrapper share these options: a scope the user's manager delegates. */
const SCOPE_OPTIONS = ['--user', '--scope', '--quiet', '--collect', '-p', 'Delegate=yes'] as const;

/**
 * Linux, not root (root makes cgroups beneath its own directly), `systemd-run` on PATH, the
 * user's manager reachable (`$XDG_RUNTIME_DIR/systemd/private`), and a probe scope that
 * starts and ends (`systemd-run --user --scope -p Delegate=yes true`). The reason says which
 * step failed.
 */
export async function systemdScopeSupport(fx: SystemdScopeEffects): Promise<SystemdScopeSupport> {
  if (fx.platform !== 'linux')
    return { ok: false, reason: `systemd is Linux only (this host: ${fx.platform})` };
  if (fx.euid === 0)
    return { ok: false, reason: 'root makes cgroups beneath its own; no user scope is needed' };
  if (!fx.which('systemd-run')) return { ok: false, reason: 'systemd-run is not on PATH' };
  const runtime = fx.env.XDG_RUNTIME_DIR;
  if (runtime === undefined || runtime === '')
    return { ok: false, reason: 'XDG_RUNTIME_DIR is not set (no login session with a user manager)' };
  if (!fx.exists(`${runtime}/systemd/private`))
    return { ok: false, reason: `no user systemd manager listens at ${runtime}/systemd/private` };
  const probe = await fx.run('systemd-run', [...SCOPE_OPTIONS, 'true']);
  if (probe.code === 0) return { ok: true };
  const said = probe.stderr.trim().split('\n')[0] ?? '';
  return { ok: false, reason: `systemd-run --user --scope failed (${said || `exit ${probe.code}`})` };
}

/**
 * The argv that starts `target` in a delegated scope named `unit` (systemd-run execs it in
 * place: same pid, same exit status); its cgroup is the scope's, which the user may write.
 *
 * @example
 * systemdScopeTarget({ file: 'sleep', args: ['5'] }, 'procmux-42-s1');
 * // { file: 'systemd-run', args: ['--user', '--scope', …, '--unit', 'procmux-42-s1', '--', 'sleep', '5'] }
 */
export function systemdScopeTarget(
  target: { file: string; args: readonly string[] },
  unit: string,
): { file: string; args: string[] } {
  if (!/^[A-Za-z0-9_.-]{1,200}$/.test(unit))
    throw new Error(`a scope unit name is 1 to 200 of A-Z a-z 0-9 _ . - (got ${unit})`);
  return { file: 'systemd-run', args: [...SCOPE_OPTIONS, '--unit', unit, '--', target.file, ...target.args] };
}
