import { describe, expect, it } from 'vitest';
import { adoptRefusal } from '../../src/cgroup/adopt.js';

const mountinfo = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
  '',
].join('\n');
const layout = { unified: '/sys/fs/cgroup/unified/host-b', v1: { memory: '/sys/fs/cgroup/memory/host-b' } };
const pane = (dir: string) => ({ dirs: [dir], id: 'pm-0123456789ab', mountinfo, layout });

describe('adoptRefusal (a recovering host ends and removes only the cgroup made for that session)', () => {
  it("adopts the session's own cgroup, also beneath another host's cgroup", () => {
    expect(adoptRefusal(pane('/sys/fs/cgroup/unified/host-a/procmux-42-pm-0123456789ab'))).toBeUndefined();
    expect(
      adoptRefusal({
        ...pane('/sys/fs/cgroup/unified/procmux-42-pm-0123456789ab'),
        dirs: [
          '/sys/fs/cgroup/unified/procmux-42-pm-0123456789ab',
          '/sys/fs/cgroup/memory/host-a/procmux-42-pm-0123456789ab',
        ],
      }),
    ).toBeUndefined();
  });

  it('refuses a cgroup made for another session, or not by procmux', () => {
    expect(adoptRefusal(pane('/sys/fs/cgroup/unified/procmux-42-pm-ffffffffffff'))).toMatch(
      /not the cgroup procmux made for session pm-0123456789ab/,
    );
    expect(adoptRefusal(pane('/sys/fs/cgroup/unified/user.slice'))).toMatch(/not the cgroup procmux made/);
    expect(adoptRefusal(pane('/sys/fs/cgroup/unified/procmux-x-pm-0123456789ab'))).toMatch(/not the cgroup/);
  });

  it('refuses a path off every cgroup mount, a relative path, or one with ..', () => {
    expect(adoptRefusal(pane('/tmp/procmux-42-pm-0123456789ab'))).toMatch(/not beneath a cgroup mount/);
    expect(adoptRefusal(pane('sys/fs/cgroup/unified/procmux-42-pm-0123456789ab'))).toMatch(/absolute/);
    expect(adoptRefusal(pane('/sys/fs/cgroup/unified/../procmux-42-pm-0123456789ab'))).toMatch(/\.\./);
    expect(adoptRefusal({ ...pane('/x'), dirs: [] })).toMatch(/names no cgroup/);
  });

  it('never adopts a cgroup that holds this host (its kill would kill the host)', () => {
    const dir = '/sys/fs/cgroup/unified/procmux-42-pm-0123456789ab';
    expect(adoptRefusal({ ...pane(dir), layout: { unified: `${dir}/inner`, v1: {} } })).toMatch(
      /holds this host itself/,
    );
    expect(adoptRefusal({ ...pane(dir), layout: { unified: dir, v1: {} } })).toMatch(
      /holds this host itself/,
    );
  });
});
