// A tmux start is reported only once the pane's process is in its cgroup (pane-joined.ts): the
// wait itself, with injected effects, and its sh form (a remote pane's) against real processes
// and a plain file standing in for cgroup.procs.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processTable, testTmpdir, waitFor } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { paneJoinedScript, processEnded, untilPaneJoined } from '../src/pane-joined.js';
import { teardown } from './helpers.js';

const started: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  await teardown();
});

function start(command: string, args: string[]): ChildProcess {
  const child = spawn(command, args, { stdio: 'ignore' });
  started.push(child);
  return child;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** The script has looked and not found its pid: its poll's sleep is running. */
async function polling(wait: ChildProcess): Promise<void> {
  await waitFor(
    () => processTable().some((p) => p.ppid === wait.pid && p.command.startsWith('sleep 0.01')),
    10_000,
    'the script to poll',
  );
}

/** A zombie: `sleep 0` exits under an `exec sleep 60` that never reaps it. */
async function zombie(): Promise<number> {
  const parent = start('sh', ['-c', 'sleep 0 & exec sleep 60']);
  const child = await waitFor(
    () => processTable().find((p) => p.ppid === parent.pid && p.state === 'Z')?.pid,
    10_000,
    'the unreaped child',
  );
  return child!;
}

describe('untilPaneJoined', () => {
  it('resolves only once the pid is a member, asking again while it is not', async () => {
    const seen: number[][] = [[], [7], [7, 9]];
    let polls = 0;
    const result = await untilPaneJoined(9, {
      members: () => seen[Math.min(polls, seen.length - 1)]!,
      ended: () => false,
      sleep: async () => {
        polls += 1;
      },
    });
    expect(result).toBe('joined');
    expect(polls).toBe(2);
  });

  it('resolves when the pane ended before it joined (a failed join ends it)', async () => {
    let polls = 0;
    const result = await untilPaneJoined(9, {
      members: () => [],
      ended: () => polls === 3,
      sleep: async () => {
        polls += 1;
      },
    });
    expect(result).toBe('ended');
    expect(polls).toBe(3);
  });
});

describe.skipIf(process.platform !== 'linux')('processEnded', () => {
  it('is false for a live process, true once it is gone or a zombie', async () => {
    const live = start('sleep', ['60']);
    expect(processEnded(live.pid!)).toBe(false);
    const gone = start('true', []);
    await exited(gone);
    expect(processEnded(gone.pid!)).toBe(true);
    expect(processEnded(await zombie())).toBe(true);
  });
});

describe.skipIf(process.platform === 'win32')('paneJoinedScript (a remote pane)', () => {
  // A plain file stands in for the cgroup's cgroup.procs.
  const procs = () => {
    const dir = mkdtempSync(join(testTmpdir(), 'pm-joined-'));
    dirs.push(dir);
    return join(dir, 'cgroup.procs');
  };

  it('waits while the pid is not listed, and ends once it is', async () => {
    const file = procs();
    writeFileSync(file, '1\n');
    const pane = start('sleep', ['60']);
    const wait = start('sh', ['-c', paneJoinedScript(pane.pid!, file)]);
    await polling(wait);
    expect(wait.exitCode).toBeNull();
    writeFileSync(file, `1\n${pane.pid}\n`);
    expect(await exited(wait)).toBe(0);
  });

  it('ends when the pid is gone or a zombie without ever being listed', async () => {
    const file = procs();
    writeFileSync(file, '');
    const gone = start('true', []);
    await exited(gone);
    expect(await exited(start('sh', ['-c', paneJoinedScript(gone.pid!, file)]))).toBe(0);
    expect(await exited(start('sh', ['-c', paneJoinedScript(await zombie(), file)]))).toBe(0);
  });

  it('does not take a pid that is only a prefix of a listed one', async () => {
    const file = procs();
    const pane = start('sleep', ['60']);
    writeFileSync(file, `${pane.pid}1\n`);
    const wait = start('sh', ['-c', paneJoinedScript(pane.pid!, file)]);
    await polling(wait);
    expect(wait.exitCode).toBeNull();
    pane.kill('SIGKILL');
    expect(await exited(wait)).toBe(0);
  });
});
