// A session's cgroup plan at the edges the mutation run (stryker.config.mjs, part contain)
// found untested: the usage files of each kind of host, no limit written when none is asked,
// and the exact words of each refusal.
import { isProcmuxError } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import type { CgroupLayout } from '../../src/cgroup/layout.js';
import { CGROUP_PREFIX, planCgroup } from '../../src/cgroup/plan.js';

const V2: CgroupLayout = { unified: '/cg/host', v1: {} };
const V1: CgroupLayout = {
  unified: undefined,
  v1: {
    memory: '/cg/memory/h',
    pids: '/cg/pids/h',
    cpu: '/cg/cpu/h',
    cpuacct: '/cg/cpuacct/h',
    freezer: '/cg/freezer/h',
  },
};

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a refusal');
}

describe('planCgroup, edges', () => {
  it('names every cgroup procmux-…', () => {
    expect(CGROUP_PREFIX).toBe('procmux-');
  });

  it('writes no limit where none is asked, and reads the v2 usage files', () => {
    const plan = planCgroup(V2, 's', {}, ['memory', 'pids', 'cpu']);
    expect(plan.writes).toEqual([]);
    expect(plan.usage).toEqual({
      memoryPeak: { file: '/cg/host/s/memory.peak', kind: 'number' },
      oomKills: { file: '/cg/host/s/memory.events', kind: 'oom-events' },
      pidsPeak: { file: '/cg/host/s/pids.peak', kind: 'number' },
      cpu: { file: '/cg/host/s/cpu.stat', kind: 'cpu.stat' },
    });
  });

  it('on a v1-only host uses v1 whatever subtree control says, with the v1 usage files', () => {
    const plan = planCgroup(V1, 's', { memoryBytes: 1024, pids: 8 }, ['memory', 'pids', 'cpu']);
    expect(plan.membership).toBe('/cg/freezer/h/s');
    expect(plan.dirs).toEqual(['/cg/freezer/h/s', '/cg/memory/h/s', '/cg/pids/h/s', '/cg/cpuacct/h/s']);
    expect(plan.procsFiles).toEqual(plan.dirs.map((dir) => `${dir}/cgroup.procs`));
    expect(plan.writes).toEqual([
      { file: '/cg/memory/h/s/memory.limit_in_bytes', value: '1024' },
      { file: '/cg/pids/h/s/pids.max', value: '8' },
    ]);
    expect(plan.usage).toEqual({
      memoryPeak: { file: '/cg/memory/h/s/memory.max_usage_in_bytes', kind: 'number' },
      oomKills: { file: '/cg/memory/h/s/memory.oom_control', kind: 'oom-control' },
      pidsPeak: { file: '/cg/pids/h/s/pids.peak', kind: 'number' },
      cpu: { file: '/cg/cpuacct/h/s/cpuacct.usage', kind: 'cpuacct' },
    });
  });

  it('counts no cpu where neither v2 nor a v1 cpuacct holds the host', () => {
    expect(planCgroup({ unified: undefined, v1: { freezer: '/cg/freezer/h' } }, 's', {}, []).usage).toEqual(
      {},
    );
  });

  it('refuses the names . and .., and says what a name may be', () => {
    for (const name of ['.', '..', 'a/b']) {
      const error = thrown(() => planCgroup(V2, name, {}, []));
      expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
      expect(error.message).toBe(`cgroup name must be 1 to 200 of A-Z a-z 0-9 . _ - (got ${name})`);
    }
  });

  it('says why each limit cannot hold where there is no v2 hierarchy', () => {
    const none: CgroupLayout = { unified: undefined, v1: { freezer: '/cg/freezer/h' } };
    for (const [limits, option, controller] of [
      [{ memoryBytes: 1024 }, 'memoryBytes', 'memory'],
      [{ pids: 8 }, 'pids', 'pids'],
      [{ cpuPercent: 50 }, 'cpuPercent', 'cpu'],
    ] as const) {
      const error = thrown(() => planCgroup(none, 's', limits, []));
      expect(isProcmuxError(error, 'ERR_PROCESS_UNSUPPORTED')).toBe(true);
      expect(error.message).toBe(
        `${option} cannot be enforced: the ${controller} controller is no cgroup v2 hierarchy, and no cgroup v1 ${controller} hierarchy holds the host`,
      );
    }
    expect(thrown(() => planCgroup({ unified: undefined, v1: {} }, 's', {}, [])).message).toBe(
      'no cgroup hierarchy is mounted where the host can see its own cgroup',
    );
  });
});
