// What of a run's tree outlived its process: named from /proc (faked here), forks waited for.
import { describe, expect, it } from 'vitest';
import { listLeftovers, nameOf, startsBackgroundJob } from '../src/leftovers.js';

function procfs(files: Record<string, string>) {
  return (file: string) => files[file];
}

const stat = (pid: number, state: string) => `${pid} (x y) ${state} 1 1 1`;

describe('leftovers of a run', () => {
  it('names a process by its command line, else its comm, and skips zombies and the gone', () => {
    const read = procfs({
      '/proc/10/stat': stat(10, 'S'),
      '/proc/10/cmdline': 'sleep\u000030\u0000',
      '/proc/11/stat': stat(11, 'S'),
      '/proc/11/cmdline': '',
      '/proc/11/comm': 'kworker\n',
      '/proc/12/stat': stat(12, 'Z'),
      '/proc/12/comm': 'sleep\n',
    });
    expect(nameOf(10, { read })).toBe('sleep 30');
    expect(nameOf(11, { read })).toBe('kworker');
    expect(nameOf(12, { read })).toBeUndefined();
    expect(nameOf(13, { read })).toBeUndefined();
  });

  it('cuts a long command line at 200 characters', () => {
    const read = procfs({
      '/proc/10/stat': stat(10, 'R'),
      '/proc/10/cmdline': `node\u0000${'x'.repeat(300)}`,
    });
    expect(nameOf(10, { read })).toHaveLength(200);
  });

  it('lists the tree but its exited root, and waits for a fork of the root to exec', async () => {
    const files: Record<string, string> = {
      '/proc/20/stat': stat(20, 'S'),
      '/proc/20/cmdline': 'bash\u0000-c\u0000sleep 30 & echo started',
      '/proc/21/stat': stat(21, 'S'),
      '/proc/21/cmdline': 'npm\u0000run\u0000dev',
    };
    let sleeps = 0;
    const found = await listLeftovers(
      5,
      {
        pids: () => [21, 5, 20, 21],
        read: procfs(files),
        sleep: async () => {
          sleeps += 1;
          // The fork execs its program on the third look.
          if (sleeps === 2) files['/proc/20/cmdline'] = 'sleep\u000030';
        },
      },
      ['bash', '-c', 'sleep 30 & echo started'],
    );
    expect(found).toEqual([
      { pid: 20, command: 'sleep 30' },
      { pid: 21, command: 'npm run dev' },
    ]);
    expect(sleeps).toBe(2);
  });

  it('waits for a member caught inside its exec (command line still empty) to show its arguments', async () => {
    const files: Record<string, string> = {
      '/proc/30/stat': stat(30, 'S'),
      '/proc/30/cmdline': '',
      '/proc/30/comm': 'sleep\n',
    };
    let sleeps = 0;
    const found = await listLeftovers(5, {
      pids: () => [30],
      read: procfs(files),
      sleep: async () => {
        sleeps += 1;
        files['/proc/30/cmdline'] = 'sleep\u000030\u0000';
      },
    });
    expect(found).toEqual([{ pid: 30, command: 'sleep 30' }]);
    expect(sleeps).toBe(1);
  });

  it('tells a line that may start a background job from one that cannot', () => {
    for (const line of ['sleep 30 & echo started', 'npm run dev &', 'a&b', '(x) & wait']) {
      expect(startsBackgroundJob(line)).toBe(true);
    }
    for (const line of ['a && b', 'echo hi >&2', 'cmd &> log', 'cmd |& tee log', 'exec 3<&0', 'sleep 5']) {
      expect(startsBackgroundJob(line)).toBe(false);
    }
  });
});
