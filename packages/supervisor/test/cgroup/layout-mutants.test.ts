// Where the host's cgroup is, at the edges the mutation run (stryker.config.mjs, part contain)
// found untested: hierarchy ids past 9, read-only and odd mountinfo lines, a mount that does
// not reach before one that does, and co-mounted controllers told apart.
import { describe, expect, it } from 'vitest';
import { discoverLayout, parseCgroupMounts, parseProcCgroup } from '../../src/cgroup/layout.js';

describe('parseProcCgroup', () => {
  it('reads hierarchy ids past 9 and skips a line that does not start with one', () => {
    expect(parseProcCgroup('12:memory:/a\nx4:pids:/b\n0::/c\n')).toEqual([
      { controllers: ['memory'], path: '/a' },
      { controllers: [], path: '/c' },
    ]);
  });
});

describe('parseCgroupMounts', () => {
  it('keeps only cgroup and cgroup2 mounts, v2 with no controllers, v1 without rw or ro', () => {
    const mounts = parseCgroupMounts(
      [
        '22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw,memory',
        '27 22 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate',
        '35 31 0:32 / /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup ro,memory',
        '36 31 0:33 / /sys/fs/cgroup/pids rw - cgroup cgroup',
      ].join('\n'),
    );
    expect(mounts).toEqual([
      { version: 2, root: '/', mountPoint: '/sys/fs/cgroup', controllers: [] },
      { version: 1, root: '/', mountPoint: '/sys/fs/cgroup/memory', controllers: ['memory'] },
      { version: 1, root: '/', mountPoint: '/sys/fs/cgroup/pids', controllers: [] },
    ]);
  });

  it('skips a line with no root or no mount point', () => {
    expect(parseCgroupMounts('27 22 0:26 - cgroup2 cgroup2 rw\n')).toEqual([]);
    expect(parseCgroupMounts('27 22 0:26 / - cgroup2 cgroup2 rw\n')).toEqual([]);
    expect(parseCgroupMounts('27 22 0:26  /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n')).toEqual([]);
  });
});

describe('discoverLayout, edges', () => {
  it('takes the v2 path from the 0:: line, whatever line comes first', () => {
    const layout = discoverLayout(
      '4:memory:/v1/path\n0::/v2/path\n',
      [
        '27 22 0:26 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw',
        '35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory',
      ].join('\n'),
    );
    expect(layout).toEqual({
      unified: '/sys/fs/cgroup/unified/v2/path',
      v1: { memory: '/sys/fs/cgroup/memory/v1/path' },
    });
  });

  it('reads a read-only v1 mount (as containers mount them)', () => {
    const layout = discoverLayout(
      '4:memory:/a\n',
      '35 31 0:32 / /sys/fs/cgroup/memory ro - cgroup cgroup ro,memory\n',
    );
    expect(layout.v1).toEqual({ memory: '/sys/fs/cgroup/memory/a' });
  });

  it('passes over a mount that does not reach the cgroup for a later one that does', () => {
    const layout = discoverLayout(
      '0::/host/app\n',
      [
        '600 590 0:26 /elsewhere /mnt/other rw - cgroup2 cgroup2 rw',
        '601 590 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw',
      ].join('\n'),
    );
    expect(layout.unified).toBe('/sys/fs/cgroup/host/app');
  });

  it('maps a cgroup that is the mount root itself, and roots and mount points written with a trailing slash', () => {
    expect(
      discoverLayout('0::/docker/abc\n', '600 590 0:26 /docker/abc /sys/fs/cgroup ro - cgroup2 cgroup ro\n')
        .unified,
    ).toBe('/sys/fs/cgroup');
    expect(
      discoverLayout(
        '0::/docker/abc/app\n',
        '600 590 0:26 /docker/abc/ /sys/fs/cgroup/ rw - cgroup2 cgroup rw\n',
      ).unified,
    ).toBe('/sys/fs/cgroup/app');
  });

  it('matches a v1 line to the mount with exactly its controllers', () => {
    const layout = discoverLayout(
      '3:cpu,cpuacct:/s\n',
      [
        '40 31 0:30 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu',
        '41 31 0:31 / /sys/fs/cgroup/cpu,pids rw - cgroup cgroup rw,cpu,pids',
        '42 31 0:32 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct',
      ].join('\n'),
    );
    expect(layout.v1).toEqual({
      cpu: '/sys/fs/cgroup/cpu,cpuacct/s',
      cpuacct: '/sys/fs/cgroup/cpu,cpuacct/s',
    });
  });
});
