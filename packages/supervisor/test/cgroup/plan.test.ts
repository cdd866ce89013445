// Which directories a session's cgroup is made of and which files carry its limits and
// usage, on a pure v2 host, on this hybrid one, and where a limit cannot hold.
import { isProcmuxError } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import type { CgroupLayout } from '../../src/cgroup/layout.js';
import { planCgroup } from '../../src/cgroup/plan.js';

const PURE_V2: CgroupLayout = { unified: '/sys/fs/cgroup/app.slice/host', v1: {} };
const HYBRID: CgroupLayout = {
  unified: '/sys/fs/cgroup/unified',
  v1: {
    memory: '/sys/fs/cgroup/memory/process_api/f2f9',
    pids: '/sys/fs/cgroup/pids',
    cpu: '/sys/fs/cgroup/cpu',
    cpuacct: '/sys/fs/cgroup/cpuacct',
    freezer: '/sys/fs/cgroup/freezer',
  },
};
const LIMITS = { memoryBytes: 256 * 1024 * 1024, pids: 64, cpuPercent: 50 };

function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('did not throw');
}

describe('planCgroup', () => {
  it('puts everything in one v2 directory where v2 has the controllers', () => {
    const plan = planCgroup(PURE_V2, 'procmux-1-s', LIMITS, ['cpu', 'memory', 'pids']);
    const dir = '/sys/fs/cgroup/app.slice/host/procmux-1-s';
    expect(plan.dirs).toEqual([dir]);
    expect(plan.membership).toBe(dir);
    expect(plan.procsFiles).toEqual([`${dir}/cgroup.procs`]);
    expect(plan.writes).toEqual([
      { file: `${dir}/memory.max`, value: '268435456' },
      { file: `${dir}/pids.max`, value: '64' },
      { file: `${dir}/cpu.max`, value: '50000 100000' },
    ]);
    expect(plan.usage).toEqual({
      memoryPeak: { file: `${dir}/memory.peak`, kind: 'number' },
      oomKills: { file: `${dir}/memory.events`, kind: 'oom-events' },
      pidsPeak: { file: `${dir}/pids.peak`, kind: 'number' },
      cpu: { file: `${dir}/cpu.stat`, kind: 'cpu.stat' },
    });
  });

  it('joins v2 for membership and the v1 hierarchies for limits on a hybrid host', () => {
    const plan = planCgroup(HYBRID, 'procmux-1-s', LIMITS, []);
    expect(plan.dirs).toEqual([
      '/sys/fs/cgroup/unified/procmux-1-s',
      '/sys/fs/cgroup/memory/process_api/f2f9/procmux-1-s',
      '/sys/fs/cgroup/pids/procmux-1-s',
      '/sys/fs/cgroup/cpu/procmux-1-s',
    ]);
    expect(plan.membership).toBe('/sys/fs/cgroup/unified/procmux-1-s');
    expect(plan.writes).toEqual([
      {
        file: '/sys/fs/cgroup/memory/process_api/f2f9/procmux-1-s/memory.limit_in_bytes',
        value: '268435456',
      },
      { file: '/sys/fs/cgroup/pids/procmux-1-s/pids.max', value: '64' },
      { file: '/sys/fs/cgroup/cpu/procmux-1-s/cpu.cfs_period_us', value: '100000' },
      { file: '/sys/fs/cgroup/cpu/procmux-1-s/cpu.cfs_quota_us', value: '50000' },
    ]);
    expect(plan.usage.oomKills?.kind).toBe('oom-control');
  });

  it('still counts memory and pids without limits, and makes no cpu directory then', () => {
    const plan = planCgroup(HYBRID, 'procmux-1-s', {}, []);
    expect(plan.dirs).toHaveLength(3);
    expect(plan.writes).toEqual([]);
    expect(plan.usage.memoryPeak?.file).toContain('/memory/');
  });

  it('refuses a limit no hierarchy can hold, naming the controller and why', () => {
    for (const [limits, controller] of [
      [{ memoryBytes: 1 << 30 }, 'memory'],
      [{ pids: 10 }, 'pids'],
      [{ cpuPercent: 100 }, 'cpu'],
    ] as const) {
      const error = thrown(() => planCgroup(PURE_V2, 'procmux-1-s', limits, []));
      expect(isProcmuxError(error, 'ERR_PROCESS_UNSUPPORTED')).toBe(true);
      expect(error.message).toContain(
        `the ${controller} controller is not enabled in /sys/fs/cgroup/app.slice/host/cgroup.subtree_control`,
      );
    }
  });

  it('plans membership without limits where v2 has no controllers (usage: cpu only)', () => {
    const plan = planCgroup(PURE_V2, 'procmux-1-s', {}, []);
    expect(plan.dirs).toEqual(['/sys/fs/cgroup/app.slice/host/procmux-1-s']);
    expect(plan.usage).toEqual({
      cpu: { file: '/sys/fs/cgroup/app.slice/host/procmux-1-s/cpu.stat', kind: 'cpu.stat' },
    });
  });

  it('uses a v1 freezer for membership on a v1-only host', () => {
    const { unified: _, ...v1Only } = { ...HYBRID, unified: undefined };
    const plan = planCgroup({ unified: undefined, v1: v1Only.v1 }, 'procmux-1-s', {}, []);
    expect(plan.membership).toBe('/sys/fs/cgroup/freezer/procmux-1-s');
    expect(plan.usage.cpu).toEqual({
      file: '/sys/fs/cgroup/cpuacct/procmux-1-s/cpuacct.usage',
      kind: 'cpuacct',
    });
  });

  it('never plans a directory outside the host cgroups, and refuses a name that could climb', () => {
    for (const layout of [PURE_V2, HYBRID]) {
      const plan = planCgroup(layout, 'procmux-1-s', {}, ['memory', 'pids', 'cpu']);
      const parents = [layout.unified, ...Object.values(layout.v1)];
      for (const dir of plan.dirs) expect(parents.some((p) => dir === `${p}/procmux-1-s`)).toBe(true);
    }
    for (const name of ['..', 'a/b', '', 'x y']) {
      expect(
        isProcmuxError(
          thrown(() => planCgroup(PURE_V2, name, {}, [])),
          'ERR_INVALID_OPTION',
        ),
      ).toBe(true);
    }
  });

  it('is ERR_PROCESS_UNSUPPORTED where no hierarchy holds the host', () => {
    expect(
      isProcmuxError(
        thrown(() => planCgroup({ unified: undefined, v1: {} }, 'procmux-1-s', {}, [])),
        'ERR_PROCESS_UNSUPPORTED',
      ),
    ).toBe(true);
  });
});
