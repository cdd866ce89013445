// A session's cgroup: made before its first process starts (which joins it before it execs
// the command), killed in one write, read for usage, removed when the session ends.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { ProcmuxError } from '@procmux/core-types';
import { type CgroupEffects, killAndRemove, killCgroup, members } from './kill.js';
import { type CgroupLayout, discoverLayout, isBeneath } from './layout.js';
import { CGROUP_PREFIX, type CgroupPlan, planCgroup, type UsageSource } from './plan.js';
import type { ResourceLimits, ResourceUsage } from './types.js';

/** The real effects: cgroupfs through synchronous fs calls, signals through process.kill. */
export const nodeCgroupEffects: CgroupEffects = {
  mkdir: (dir) => mkdirSync(dir),
  rmdir: (dir) => rmdirSync(dir),
  write: (file, value) => writeFileSync(file, value),
  read: (file) => readFileSync(file, 'utf8'),
  exists: (file) => existsSync(file),
  kill: (pid, signal) => process.kill(pid, signal),
};

/** Reads this process's cgroup layout (Linux); undefined where there is none to read. */
export function hostCgroupLayout(
  read: (file: string) => string = (f) => readFileSync(f, 'utf8'),
): CgroupLayout | undefined {
  try {
    return discoverLayout(read('/proc/self/cgroup'), read('/proc/self/mountinfo'));
  } catch {
    return undefined;
  }
}

export interface SessionCgroupOptions {
  layout: CgroupLayout;
  /** Unique per host: the cgroup is `procmux-<host pid>-<id>` in every hierarchy. */
  id: string;
  limits?: ResourceLimits;
  hostPid?: number;
  effects?: CgroupEffects;
}

/**
 * One session's cgroup. `create()` makes every directory (beneath the host's own cgroup
 * only) and writes the limits; the session's first process joins through `procsFiles`;
 * `kill()` ends every member; `close()` kills what is left, keeps the usage and removes it.
 *
 * @example
 * const cgroup = SessionCgroup.create({ layout: hostCgroupLayout()!, id: 's1', limits: { pids: 64 } });
 * // spawn with PROCMUX_CGROUP_JOIN=cgroup.procsFiles.join(':') …
 * await cgroup.close(); // { cpuMs: 12, memoryPeakBytes: 3_211_264, pidsPeak: 3, oomKills: 0 }
 */
export class SessionCgroup {
  #closed: Promise<ResourceUsage> | undefined;
  #final: ResourceUsage | undefined;

  private constructor(
    readonly plan: CgroupPlan,
    private readonly effects: CgroupEffects,
  ) {}

  /**
   * Makes the cgroup. ERR_PROCESS_UNSUPPORTED when it cannot be made (no hierarchy, no
   * permission) or a limit cannot be enforced, naming why; nothing is left behind then.
   */
  static create(options: SessionCgroupOptions): SessionCgroup {
    const effects = options.effects ?? nodeCgroupEffects;
    const { layout } = options;
    const name = `${CGROUP_PREFIX}${options.hostPid ?? process.pid}-${options.id}`;
    const subtree =
      layout.unified === undefined
        ? []
        : readControllers(`${layout.unified}/cgroup.subtree_control`, effects);
    const plan = planCgroup(layout, name, options.limits ?? {}, subtree);
    const parents = [layout.unified, ...Object.values(layout.v1)].filter((d): d is string => d !== undefined);
    for (const dir of plan.dirs) {
      // Never anywhere but beneath the host's own cgroup (a bug here must not write above it).
      if (!parents.some((parent) => isBeneath(dir, parent) && dir !== parent))
        throw new ProcmuxError(
          'ERR_PROCESS_UNSUPPORTED',
          `refusing to make ${dir}: not beneath the host's own cgroup`,
        );
    }
    const made: string[] = [];
    try {
      for (const dir of plan.dirs) {
        effects.mkdir(dir);
        made.push(dir);
      }
      if (
        layout.unified !== undefined &&
        !effects.exists(`${plan.membership}/cgroup.kill`) &&
        plan.membership.startsWith(layout.unified)
      )
        throw new Error(
          'cgroup.kill is missing (Linux before 5.14); a v2 cgroup could not be killed in one write',
        );
      for (const { file, value } of plan.writes) effects.write(file, value);
    } catch (error) {
      for (const dir of made.reverse()) {
        try {
          effects.rmdir(dir);
        } catch {
          // Left for the leak check to report; nothing joined it.
        }
      }
      const reason = error instanceof Error ? error.message : String(error);
      throw new ProcmuxError(
        'ERR_PROCESS_UNSUPPORTED',
        `a cgroup for the session could not be made: ${reason}`,
        {
          cause: error,
        },
      );
    }
    return new SessionCgroup(plan, effects);
  }

  /**
   * A cgroup an earlier host made for a session this host recovered (a tmux pane that
   * outlived it): killed and removed like one of its own; nothing is written but the kill.
   * Check the directories with adoptRefusal() first. Usage is the CPU time only (v2 cpu.stat).
   */
  static adopt(dirs: readonly string[], effects: CgroupEffects = nodeCgroupEffects): SessionCgroup {
    const membership = dirs[0];
    if (membership === undefined)
      throw new ProcmuxError('ERR_INVALID_OPTION', 'an adopted cgroup needs a directory');
    const plan: CgroupPlan = {
      dirs: [...dirs],
      membership,
      procsFiles: dirs.map((dir) => `${dir}/cgroup.procs`),
      writes: [],
      usage: { cpu: { file: `${membership}/cpu.stat`, kind: 'cpu.stat' } },
    };
    return new SessionCgroup(plan, effects);
  }

  /** Every directory of this cgroup (one per hierarchy used). */
  get dirs(): readonly string[] {
    return this.plan.dirs;
  }

  /** The cgroup.procs files the first process writes its own pid into before it execs. */
  get procsFiles(): readonly string[] {
    return this.plan.procsFiles;
  }

  /** The pids in the cgroup now. */
  members(): number[] {
    return members(this.plan.membership, this.effects);
  }

  /** SIGKILLs every member at once and resolves when none is left (or names who is). */
  kill(): Promise<{ signalled: number[]; survivors: number[] }> {
    return killCgroup(this.plan.membership, this.effects);
  }

  /** What the session used so far (the figures kept at close() once it is closed). */
  usage(): ResourceUsage {
    if (this.#final) return this.#final;
    const { usage } = this.plan;
    return {
      cpuMs: readUsage(usage.cpu, this.effects),
      memoryPeakBytes: readUsage(usage.memoryPeak, this.effects),
      pidsPeak: readUsage(usage.pidsPeak, this.effects),
      oomKills: readUsage(usage.oomKills, this.effects) ?? 0,
    };
  }

  /** Kills what is left, keeps the usage, removes every directory. Idempotent. */
  close(): Promise<ResourceUsage> {
    this.#closed ??= (async () => {
      const { survivors } = await killCgroup(this.plan.membership, this.effects);
      this.#final = this.usage();
      const { left } = await killAndRemove(this.plan.membership, this.plan.dirs, this.effects);
      if (survivors.length > 0 || left.length > 0) {
        throw new ProcmuxError(
          'ERR_PROCESS_UNSUPPORTED',
          `the session's cgroup could not be emptied and removed (left: ${[...survivors.map(String), ...left].join(', ')})`,
        );
      }
      return this.#final;
    })();
    return this.#closed;
  }
}

function readControllers(file: string, effects: CgroupEffects): string[] {
  try {
    return effects.read(file).trim().split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
}

function readUsage(source: UsageSource | undefined, effects: CgroupEffects): number | null {
  if (source === undefined) return null;
  let text: string;
  try {
    text = effects.read(source.file);
  } catch {
    return null;
  }
  const field = (name: string) => {
    const match = new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
    return match ? Number(match[1]) : null;
  };
  switch (source.kind) {
    case 'cpu.stat': {
      const usec = field('usage_usec');
      return usec === null ? null : Math.round(usec / 1000);
    }
    case 'cpuacct':
      return Math.round(Number(text.trim()) / 1e6);
    case 'oom-events':
    case 'oom-control':
      return field('oom_kill');
    case 'number': {
      const value = Number(text.trim());
      return Number.isFinite(value) ? value : null;
    }
  }
}
