// Where the host's own cgroup is, for every kind of host: the texts of /proc/self/cgroup and
// /proc/self/mountinfo as each kind of machine writes them.
import { describe, expect, it } from 'vitest';
import { discoverLayout, isBeneath, parseCgroupMounts } from '../../src/cgroup/layout.js';

// This 2-core VM: v2 at /sys/fs/cgroup/unified without controllers, memory and pids in v1.
const HYBRID_CGROUP = `9:name=systemd:/
8:pids:/
6:freezer:/
4:memory:/process_api/f2f9
2:cpuacct:/
1:cpu:/
0::/
`;
const HYBRID_MOUNTS = `31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`;

describe('discoverLayout', () => {
  it('finds the v2 cgroup and each v1 controller on a hybrid host', () => {
    expect(discoverLayout(HYBRID_CGROUP, HYBRID_MOUNTS)).toEqual({
      unified: '/sys/fs/cgroup/unified',
      v1: {
        pids: '/sys/fs/cgroup/pids',
        freezer: '/sys/fs/cgroup/freezer',
        memory: '/sys/fs/cgroup/memory/process_api/f2f9',
        cpuacct: '/sys/fs/cgroup/cpuacct',
        cpu: '/sys/fs/cgroup/cpu',
      },
    });
  });

  it('finds a pure v2 host its own nested cgroup (a desktop user session)', () => {
    const layout = discoverLayout(
      '0::/user.slice/user-1000.slice/user@1000.service/app.slice/term.scope\n',
      '27 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n',
    );
    expect(layout).toEqual({
      unified: '/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/term.scope',
      v1: {},
    });
  });

  it('maps a container whose mount root is its own cgroup (cgroup namespace off)', () => {
    const layout = discoverLayout(
      '0::/docker/abc123/app\n',
      '600 590 0:26 /docker/abc123 /sys/fs/cgroup ro,nosuid - cgroup2 cgroup ro\n',
    );
    expect(layout.unified).toBe('/sys/fs/cgroup/app');
  });

  it('leaves out a hierarchy whose mount does not reach the host cgroup', () => {
    const layout = discoverLayout(
      '0::/elsewhere\n4:memory:/a/b\n',
      [
        '600 590 0:26 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw',
        '601 590 0:27 /a/bb /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory',
      ].join('\n'),
    );
    expect(layout).toEqual({ unified: undefined, v1: {} });
  });

  it('gives co-mounted controllers (cpu,cpuacct) the same directory', () => {
    const layout = discoverLayout(
      '3:cpu,cpuacct:/session\n',
      '40 31 0:30 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n',
    );
    expect(layout.v1).toEqual({
      cpu: '/sys/fs/cgroup/cpu,cpuacct/session',
      cpuacct: '/sys/fs/cgroup/cpu,cpuacct/session',
    });
  });

  it('reads escaped mount points and refuses a path climbing out with ..', () => {
    expect(parseCgroupMounts('1 2 0:1 / /mnt/my\\040cgroups rw - cgroup2 none rw\n')[0]?.mountPoint).toBe(
      '/mnt/my cgroups',
    );
    expect(
      discoverLayout('0::/a/../../etc\n', '1 2 0:1 / /sys/fs/cgroup rw - cgroup2 none rw\n').unified,
    ).toBeUndefined();
  });

  it('has no cgroup at all where nothing is mounted (macOS-like text, a chroot)', () => {
    expect(discoverLayout('', '')).toEqual({ unified: undefined, v1: {} });
  });
});

describe('isBeneath', () => {
  it('is true for the directory itself and below it, never for a sibling with the same prefix', () => {
    expect(isBeneath('/sys/fs/cgroup/a/b', '/sys/fs/cgroup/a')).toBe(true);
    expect(isBeneath('/sys/fs/cgroup/a', '/sys/fs/cgroup/a/')).toBe(true);
    expect(isBeneath('/sys/fs/cgroup/ab', '/sys/fs/cgroup/a')).toBe(false);
  });
});
