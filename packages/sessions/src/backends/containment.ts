// How a session's process tree is held: a cgroup of its own where this host can make one
// (Linux), else a delegated systemd user scope where a user manager gives one, else a pid
// namespace of its own where one can be made, else the marker sweep.
// Resource limits need the cgroup: asked for where none can be made, they are an error
// naming why, never silently dropped.
import { integerOption, invalidOption, isProcmuxError, knownKeys, ProcmuxError } from '@procmux/core-types';
import {
  CGROUP_PREFIX,
  type CgroupLayout,
  type Containment,
  hostCgroupLayout,
  hostPidNamespaceSupport,
  hostSystemdScopeSupport,
  type PidNamespaceSpec,
  type PidNamespaceSupport,
  type ResourceLimits,
  SessionCgroup,
  type SystemdScopeSupport,
} from '@procmux/supervisor';

/**
 * 'auto' (default): a cgroup where one can be made, else a delegated systemd user scope, else
 * a pid namespace, else the marker sweep; 'cgroup' and 'pid-namespace': that one is required
 * (a start fails naming why).
 */
export type ContainmentMode = 'auto' | 'cgroup' | 'pid-namespace' | 'marker';

export interface Contained {
  containment: Containment;
  cgroup: SessionCgroup | undefined;
  /** The namespace the supervisor wraps the run in; undefined for a sandbox (bwrap makes its own). */
  pidNamespace?: PidNamespaceSpec | undefined;
  /** The delegated user scope (systemd-run's `--unit`) the run starts in; containment 'cgroup'. */
  systemdScope?: { unit: string } | undefined;
  limits: ResourceLimits;
}

/** Below this a shell cannot even start; above it the kernel's own limit is the cap. */
const MIN_MEMORY_BYTES = 4 * 1024 * 1024;
const MAX_PIDS = 4_194_304;

/** Checks a `resourceLimits` object (registry or start): each field optional, integers only. */
export function checkResourceLimits(option: string, value: unknown): ResourceLimits {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalidOption(option, 'an object { memoryBytes?, pids?, cpuPercent? }', { value });
  knownKeys(option, value as Record<string, unknown>, ['memoryBytes', 'pids', 'cpuPercent']);
  const v = value as Record<string, unknown>;
  const out: ResourceLimits = {};
  const memoryBytes = integerOption(`${option}.memoryBytes`, v.memoryBytes, {
    min: MIN_MEMORY_BYTES,
    max: Number.MAX_SAFE_INTEGER,
  });
  const pids = integerOption(`${option}.pids`, v.pids, { min: 1, max: MAX_PIDS });
  const cpuPercent = integerOption(`${option}.cpuPercent`, v.cpuPercent, { min: 1, max: 100_000 });
  if (memoryBytes !== undefined) out.memoryBytes = memoryBytes;
  if (pids !== undefined) out.pids = pids;
  if (cpuPercent !== undefined) out.cpuPercent = cpuPercent;
  return out;
}

export interface ContainOptions {
  mode: ContainmentMode;
  /** The session's id: its cgroup is `procmux-<host pid>-<id>`. */
  id: string;
  limits: ResourceLimits;
  /** Whether the session runs on this host's own adapters (not a sandbox or a host PTY backend). */
  native: boolean;
  /** A native session in an OS sandbox (bubblewrap): already in a pid namespace of its own. */
  sandboxed?: boolean;
  /** Whether and how this host makes pid namespaces (default: probed once per process). */
  pidNamespaceSupport?: () => Promise<PidNamespaceSupport>;
  /** Whether a systemd user manager gives this host a delegated scope (default: asked once). */
  systemdScopeSupport?: () => Promise<SystemdScopeSupport>;
  /** This host's pid: a scope is `procmux-<host pid>-<id>` (default process.pid). */
  hostPid?: number;
  platform?: NodeJS.Platform;
  /** The host's cgroups (default: read from /proc/self once per call). */
  layout?: () => CgroupLayout | undefined;
  create?: typeof SessionCgroup.create;
}

/**
 * Chooses and makes a session's containment. A cgroup that cannot be made falls back, in
 * 'auto' mode, to a delegated systemd user scope, then a pid namespace, then the marker
 * sweep, unless limits were asked for (then, like in 'cgroup' mode, the start fails with
 * ERR_PROCESS_UNSUPPORTED naming why). Each step is asked only when the one before said no.
 */
export async function containSession(options: ContainOptions): Promise<Contained> {
  if (options.mode === 'pid-namespace') {
    if (Object.keys(options.limits).length > 0)
      throw unsupported("resource limits need a cgroup; this registry's containment is 'pid-namespace'");
    const held = await inPidNamespace(options);
    if (typeof held === 'string') throw unsupported(held);
    return held;
  }
  const held = cgroupOrMarker(options);
  if (held.containment !== 'marker' || options.mode !== 'auto') return held;
  const scoped = await inSystemdScope(options);
  if (typeof scoped !== 'string') return scoped;
  const namespaced = await inPidNamespace(options);
  return typeof namespaced === 'string' ? held : namespaced;
}

// A delegated user scope for the session (a cgroup systemd makes for a non-root login), or
// the reason there is none. Not for a sandbox (bwrap holds it) or a host PTY backend.
async function inSystemdScope(options: ContainOptions): Promise<Contained | string> {
  if (!options.native || options.sandboxed) return 'a user scope is for sessions run on this host directly';
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') return `systemd is Linux only (this host: ${platform})`;
  const support = await (options.systemdScopeSupport ?? hostSystemdScopeSupport)();
  if (!support.ok) return support.reason;
  return {
    containment: 'cgroup',
    cgroup: undefined,
    systemdScope: { unit: `${CGROUP_PREFIX}${options.hostPid ?? process.pid}-${options.id}` },
    limits: options.limits,
  };
}

// A pid namespace for the session, or the reason there is none.
async function inPidNamespace(options: ContainOptions): Promise<Contained | string> {
  const held = { containment: 'pid-namespace' as const, cgroup: undefined, limits: options.limits };
  if (!options.native)
    return 'a pid namespace is for sessions on this host (not a sandbox backend or a host PTY backend)';
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') return `pid namespaces are Linux only (this host: ${platform})`;
  // bubblewrap runs the sandbox with --unshare-pid --die-with-parent: a namespace already.
  if (options.sandboxed) return held;
  const support = await (options.pidNamespaceSupport ?? hostPidNamespaceSupport)();
  return support.ok ? { ...held, pidNamespace: support.spec } : support.reason;
}

/** The cgroup part of containSession: a cgroup, the marker sweep, or an error naming why. */
export function cgroupOrMarker(options: ContainOptions): Contained {
  const { mode, limits } = options;
  const wantsLimits = Object.keys(limits).length > 0;
  const marker: Contained = { containment: 'marker', cgroup: undefined, limits };
  if (mode === 'marker' || mode === 'pid-namespace') {
    if (wantsLimits)
      throw unsupported(`resource limits need a cgroup; this registry's containment is '${mode}'`);
    return marker;
  }
  const required = mode === 'cgroup' || wantsLimits;
  if (!options.native) {
    if (required)
      throw unsupported(
        'resource limits and cgroup containment are for sessions on this host (not a sandbox or a host PTY backend)',
      );
    return marker;
  }
  if ((options.platform ?? process.platform) !== 'linux') {
    if (required)
      throw unsupported(`cgroups are Linux only (this host: ${options.platform ?? process.platform})`);
    return marker;
  }
  const layout = (options.layout ?? hostCgroupLayout)();
  try {
    if (layout === undefined) throw unsupported('the host cgroup could not be read from /proc/self/cgroup');
    const cgroup = (options.create ?? SessionCgroup.create.bind(SessionCgroup))({
      layout,
      id: options.id,
      limits,
    });
    return { containment: 'cgroup', cgroup, limits };
  } catch (error) {
    if (required || !isProcmuxError(error, 'ERR_PROCESS_UNSUPPORTED')) throw error;
    return marker;
  }
}

function unsupported(reason: string): ProcmuxError {
  return new ProcmuxError('ERR_PROCESS_UNSUPPORTED', reason);
}

/**
 * Registry-wide limits are checked when the registry is made, by making and removing one
 * cgroup: a host that cannot hold them fails at once, naming why, not at its first start.
 */
let probes = 0;

export function probeLimits(
  mode: ContainmentMode,
  limits: ResourceLimits,
  options: Omit<ContainOptions, 'mode' | 'id' | 'limits'>,
): void {
  if (Object.keys(limits).length === 0) return;
  probes += 1;
  const { cgroup } = cgroupOrMarker({ ...options, mode, id: `probe${probes}`, limits });
  void cgroup?.close().catch(() => {});
}
