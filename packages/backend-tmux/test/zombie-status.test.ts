// A pane process tmux did not reap still tells its status through /proc/<pid>/stat.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { zombieStatus, zombieStatusOf } from '../src/zombie-status.js';

const stat = (state: string, exitCode: number) =>
  `123 (sh) ${state} ${Array.from({ length: 48 }, (_, i) => String(i + 4)).join(' ')} ${exitCode}\n`;

describe('zombieStatusOf', () => {
  it('reads a zombie exit code and a zombie signal, and nothing of a live process', () => {
    expect(zombieStatusOf(stat('Z', 4 << 8))).toEqual({ exitCode: 4, signal: null });
    expect(zombieStatusOf(stat('Z', 15))).toEqual({ exitCode: null, signal: 15 });
    expect(zombieStatusOf(stat('S', 0))).toBeUndefined();
    // A command name with ") " in it does not shift the fields.
    expect(zombieStatusOf(stat('Z', 7 << 8).replace('(sh)', '(a) Z b)'))).toEqual({
      exitCode: 7,
      signal: null,
    });
  });

  it('is undefined off Linux and when /proc cannot be read', () => {
    expect(zombieStatus(1, 'darwin', () => stat('Z', 0))).toBeUndefined();
    expect(
      zombieStatus(1, 'linux', () => {
        throw new Error('ENOENT');
      }),
    ).toBeUndefined();
  });
});

describe.skipIf(process.platform !== 'linux')('zombieStatus on a real unreaped child', () => {
  it('gives the exit code of a child that exited and was not waited for', async () => {
    // A child that exits 5 while its parent (sh) sleeps without waiting: a zombie for 2 s.
    const parent = spawn('sh', ['-c', 'sh -c "exit 5" & echo $!; exec sleep 2'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const pid = await new Promise<number>((resolve) =>
      parent.stdout.once('data', (d) => resolve(Number(String(d).trim()))),
    );
    await expect
      .poll(() => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0], { timeout: 5_000 })
      .toBe('Z');
    expect(zombieStatus(pid)).toEqual({ exitCode: 5, signal: null });
    parent.kill('SIGKILL');
    await new Promise((resolve) => parent.once('exit', resolve));
  });
});
