/** Per-session resource limits, enforced by the session's cgroup (Linux). */
export interface ResourceLimits {
  /** The most memory the session's processes may hold together, in bytes (memory.max). */
  memoryBytes?: number;
  /** The most processes and threads alive at once in the session (pids.max). */
  pids?: number;
  /** CPU time as a percentage of one CPU: 50 is half a CPU, 200 two whole CPUs (cpu.max). */
  cpuPercent?: number;
}

/** What a session's processes used, from its cgroup; null where the host has no such counter. */
export interface ResourceUsage {
  cpuMs: number | null;
  memoryPeakBytes: number | null;
  pidsPeak: number | null;
  /** Processes the kernel killed because the memory limit was reached. */
  oomKills: number;
}

/** How a session's process tree is held together, and so what its kill can promise. */
export type Containment = 'cgroup' | 'pid-namespace' | 'marker';
