// Ending a cgroup's members and removing it, through injected effects: the v2 write, the v1
// freeze-kill-thaw order, the signal loop without a freezer, and removal that waits out EBUSY.
import { describe, expect, it } from 'vitest';
import { type CgroupEffects, killAndRemove, killCgroup } from '../../src/cgroup/kill.js';

/** A fake cgroupfs: members per directory, files that exist, and every effect in order. */
function fakeFs(members: Record<string, number[]>, files: string[]) {
  const log: string[] = [];
  const busy = new Map<string, number>();
  const effects: CgroupEffects = {
    mkdir: (dir) => void log.push(`mkdir ${dir}`),
    rmdir: (dir) => {
      const left = busy.get(dir) ?? 0;
      if (left > 0) {
        busy.set(dir, left - 1);
        throw Object.assign(new Error('busy'), { code: 'EBUSY' });
      }
      log.push(`rmdir ${dir}`);
    },
    write: (file, value) => {
      log.push(`write ${file} ${value}`);
      const dir = file.slice(0, file.lastIndexOf('/'));
      if (file.endsWith('cgroup.kill')) members[dir] = [];
    },
    read: (file) => {
      const dir = file.slice(0, file.lastIndexOf('/'));
      if (file.endsWith('freezer.state')) return 'FROZEN\n';
      return (members[dir] ?? []).map((p) => `${p}\n`).join('');
    },
    exists: (file) => files.includes(file),
    kill: (pid) => {
      log.push(`kill ${pid}`);
      for (const dir of Object.keys(members)) members[dir] = members[dir]!.filter((p) => p !== pid);
    },
  };
  return { effects, log, busy };
}

describe('killCgroup', () => {
  it('writes cgroup.kill once on v2 and waits until no member is left', async () => {
    const fs = fakeFs({ '/cg/s': [10, 11, 12] }, ['/cg/s/cgroup.kill']);
    expect(await killCgroup('/cg/s', fs.effects)).toEqual({ signalled: [10, 11, 12], survivors: [] });
    expect(fs.log).toEqual(['write /cg/s/cgroup.kill 1']);
  });

  it('freezes a v1 cgroup, SIGKILLs every member, then thaws it (no fork in between)', async () => {
    const fs = fakeFs({ '/fz/s': [20, 21] }, ['/fz/s/freezer.state']);
    expect(await killCgroup('/fz/s', fs.effects)).toEqual({ signalled: [20, 21], survivors: [] });
    expect(fs.log).toEqual([
      'write /fz/s/freezer.state FROZEN',
      'kill 20',
      'kill 21',
      'write /fz/s/freezer.state THAWED',
    ]);
  });

  it('signals members until none is left where there is neither kill file nor freezer', async () => {
    const fs = fakeFs({ '/p/s': [30] }, []);
    expect(await killCgroup('/p/s', fs.effects)).toEqual({ signalled: [30], survivors: [] });
  });

  it('names the members that outlive the timeout', async () => {
    const fs = fakeFs({ '/p/s': [40] }, []);
    fs.effects.kill = () => {};
    expect(await killCgroup('/p/s', fs.effects, 20)).toEqual({ signalled: [40], survivors: [40] });
  });

  it('does nothing to an empty cgroup', async () => {
    const fs = fakeFs({}, ['/cg/s/cgroup.kill']);
    expect(await killCgroup('/cg/s', fs.effects)).toEqual({ signalled: [], survivors: [] });
    expect(fs.log).toEqual([]);
  });
});

describe('killAndRemove', () => {
  it('removes every directory, the deepest first, retrying while one is busy', async () => {
    const fs = fakeFs({ '/cg/s': [1] }, ['/cg/s/cgroup.kill']);
    fs.busy.set('/cg/s', 2);
    const result = await killAndRemove('/cg/s', ['/cg/s', '/v1/memory/host/s'], fs.effects);
    expect(result).toEqual({ survivors: [], left: [] });
    expect(fs.log).toEqual(['write /cg/s/cgroup.kill 1', 'rmdir /v1/memory/host/s', 'rmdir /cg/s']);
  });

  it('reports a directory that stays busy, and takes one already gone as removed', async () => {
    const fs = fakeFs({}, []);
    fs.busy.set('/cg/stuck', 1_000_000);
    fs.effects.rmdir = (dir) => {
      if (dir === '/cg/gone') throw Object.assign(new Error('gone'), { code: 'ENOENT' });
      throw Object.assign(new Error('busy'), { code: 'EBUSY' });
    };
    expect(await killAndRemove('/cg/stuck', ['/cg/stuck', '/cg/gone'], fs.effects, 20)).toEqual({
      survivors: [],
      left: ['/cg/stuck'],
    });
  });
});
