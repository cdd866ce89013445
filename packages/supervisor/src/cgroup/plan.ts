// Which directories a session's cgroup is made of and which files give its limits and usage:
// a pure function of the host's layout, so every kind of host is planned in a unit test.
import { ProcmuxError } from '@procmux/core-types';
import type { CgroupLayout } from './layout.js';
import type { ResourceLimits } from './types.js';

/** A file procmux writes when it creates the cgroup (a limit). */
export interface CgroupWrite {
  file: string;
  value: string;
}

/** Where one usage counter is read, and how. */
export interface UsageSource {
  file: string;
  /** 'usec' / 'nsec': cpu.stat's usage_usec or cpuacct.usage; 'bytes' / 'count': the number. */
  kind: 'cpu.stat' | 'cpuacct' | 'number' | 'oom-events' | 'oom-control';
}

export interface CgroupPlan {
  /** Every directory to make, the membership one first; each beneath the host's own. */
  dirs: string[];
  /** The directory whose members are the session (v2, else a v1 one): killed through it. */
  membership: string;
  /** The cgroup.procs files the first process writes its pid into, before it execs. */
  procsFiles: string[];
  writes: CgroupWrite[];
  usage: { cpu?: UsageSource; memoryPeak?: UsageSource; pidsPeak?: UsageSource; oomKills?: UsageSource };
}

/** Prefix of every cgroup procmux makes: `procmux-<host pid>-<session>`; a leak check counts them. */
export const CGROUP_PREFIX = 'procmux-';

const CPU_PERIOD_US = 100_000;

/**
 * Plans a session's cgroup: its directory in v2 (membership, kill) and, for each limit or
 * counter v2 lacks here (its controller not in `v2SubtreeControl`, the host cgroup's
 * `cgroup.subtree_control`), the same name in the v1 hierarchy that has it. A limit no
 * hierarchy can enforce is ERR_PROCESS_UNSUPPORTED naming why; a missing counter is only
 * left out (usage reads null).
 */
export function planCgroup(
  layout: CgroupLayout,
  name: string,
  limits: ResourceLimits,
  v2SubtreeControl: readonly string[],
): CgroupPlan {
  if (!/^[A-Za-z0-9._-]{1,200}$/.test(name) || name === '.' || name === '..')
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `cgroup name must be 1 to 200 of A-Z a-z 0-9 . _ - (got ${name})`,
    );
  const v1 = layout.v1;
  const membershipParent = layout.unified ?? v1.freezer ?? v1.pids ?? v1.memory ?? v1.cpu ?? v1.cpuacct;
  if (membershipParent === undefined)
    throw unsupported('no cgroup hierarchy is mounted where the host can see its own cgroup');
  const dirs = new Set<string>([`${membershipParent}/${name}`]);
  const plan: CgroupPlan = {
    dirs: [],
    membership: `${membershipParent}/${name}`,
    procsFiles: [],
    writes: [],
    usage: {},
  };
  const v2Has = (controller: string) => layout.unified !== undefined && v2SubtreeControl.includes(controller);
  const dirIn = (parent: string) => {
    const dir = `${parent}/${name}`;
    dirs.add(dir);
    return dir;
  };

  if (v2Has('memory')) {
    const dir = dirIn(layout.unified!);
    if (limits.memoryBytes !== undefined)
      plan.writes.push({ file: `${dir}/memory.max`, value: String(limits.memoryBytes) });
    plan.usage.memoryPeak = { file: `${dir}/memory.peak`, kind: 'number' };
    plan.usage.oomKills = { file: `${dir}/memory.events`, kind: 'oom-events' };
  } else if (v1.memory !== undefined) {
    const dir = dirIn(v1.memory);
    if (limits.memoryBytes !== undefined)
      plan.writes.push({ file: `${dir}/memory.limit_in_bytes`, value: String(limits.memoryBytes) });
    plan.usage.memoryPeak = { file: `${dir}/memory.max_usage_in_bytes`, kind: 'number' };
    plan.usage.oomKills = { file: `${dir}/memory.oom_control`, kind: 'oom-control' };
  } else if (limits.memoryBytes !== undefined) {
    throw unsupported(missingController('memory', 'memoryBytes', layout));
  }

  if (v2Has('pids')) {
    const dir = dirIn(layout.unified!);
    if (limits.pids !== undefined) plan.writes.push({ file: `${dir}/pids.max`, value: String(limits.pids) });
    plan.usage.pidsPeak = { file: `${dir}/pids.peak`, kind: 'number' };
  } else if (v1.pids !== undefined) {
    const dir = dirIn(v1.pids);
    if (limits.pids !== undefined) plan.writes.push({ file: `${dir}/pids.max`, value: String(limits.pids) });
    plan.usage.pidsPeak = { file: `${dir}/pids.peak`, kind: 'number' };
  } else if (limits.pids !== undefined) {
    throw unsupported(missingController('pids', 'pids', layout));
  }

  const quota =
    limits.cpuPercent === undefined ? undefined : Math.round((limits.cpuPercent * CPU_PERIOD_US) / 100);
  if (quota !== undefined) {
    if (v2Has('cpu')) {
      plan.writes.push({ file: `${dirIn(layout.unified!)}/cpu.max`, value: `${quota} ${CPU_PERIOD_US}` });
    } else if (v1.cpu !== undefined) {
      const dir = dirIn(v1.cpu);
      plan.writes.push({ file: `${dir}/cpu.cfs_period_us`, value: String(CPU_PERIOD_US) });
      plan.writes.push({ file: `${dir}/cpu.cfs_quota_us`, value: String(quota) });
    } else {
      throw unsupported(missingController('cpu', 'cpuPercent', layout));
    }
  }
  // v2's cpu.stat counts usage in every cgroup, with or without the cpu controller.
  if (layout.unified !== undefined)
    plan.usage.cpu = { file: `${plan.membership}/cpu.stat`, kind: 'cpu.stat' };
  else if (v1.cpuacct !== undefined)
    plan.usage.cpu = { file: `${dirIn(v1.cpuacct)}/cpuacct.usage`, kind: 'cpuacct' };

  plan.dirs = [...dirs];
  plan.procsFiles = plan.dirs.map((dir) => `${dir}/cgroup.procs`);
  return plan;
}

function missingController(controller: string, option: string, layout: CgroupLayout): string {
  const where =
    layout.unified === undefined
      ? 'no cgroup v2 hierarchy'
      : `not enabled in ${layout.unified}/cgroup.subtree_control (a cgroup that holds processes cannot enable it for its children; start the host in a cgroup delegated with it)`;
  return `${option} cannot be enforced: the ${controller} controller is ${where}, and no cgroup v1 ${controller} hierarchy holds the host`;
}

function unsupported(reason: string): ProcmuxError {
  return new ProcmuxError('ERR_PROCESS_UNSUPPORTED', reason);
}
