// The real /proc effects on real processes and terminals (Linux): what the kernel detector, the
// stdin-polling check and the foreground program read where procmux runs.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { assertNoLeakedProcesses, requireTool, trackPid, waitFor, waitForSleep } from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { foregroundProgram } from '../../src/input-wait/foreground-program.js';
import { kernelWaiting } from '../../src/input-wait/kernel-detect.js';
import { linuxProcEffects } from '../../src/input-wait/node-effects.js';
import { pollsStdin } from '../../src/input-wait/polls-stdin.js';
import {
  defaultInputDetector,
  kernelInputDetection,
  promptFromTail,
} from '../../src/input-wait/session-input.js';

const skip = requireTool('python3');
const noSs = requireTool('ss');
// The interpreter itself, not a version manager's shim that runs helpers as children first.
const python = skip
  ? 'python3'
  : spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    // The terminal's session first (its leader leads the group), then the process that holds it.
    const session = childrenOf(child.pid!)[0];
    for (const target of [session === undefined ? undefined : -session, child.pid]) {
      try {
        if (target !== undefined) process.kill(target, 'SIGKILL');
      } catch {}
    }
  }
});
afterAll(async () => {
  await assertNoLeakedProcesses();
});

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** A process on pipes (stdin a pipe procmux would have given it). */
function onPipes(command: string, args: string[]): number {
  const child = spawn(command, args, { stdio: ['pipe', 'ignore', 'ignore'] });
  started.push(child);
  trackPid(child.pid);
  return child.pid!;
}

/** `sh -c script` as the leader of a new terminal (python's pty.spawn holds the master); its pid. */
async function onTerminal(script: string): Promise<number> {
  const child = spawn(python, ['-c', 'import pty, sys; pty.spawn(sys.argv[1:])', 'sh', '-c', script], {
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  started.push(child);
  trackPid(child.pid);
  const leader = await waitFor(() => childrenOf(child.pid!)[0] ?? 0, 20_000, 'the terminal session to start');
  trackPid(leader);
  return leader;
}

const ptyTarget = (rootPid: number) => ({ rootPid, kind: 'pty' as const, arch: process.arch });
const pipeTarget = (rootPid: number) => ({ rootPid, kind: 'pipe' as const, arch: process.arch });
// Blocking calls by number, per architecture (the machines CI runs on).
const CALLS: Record<string, { read: number[]; pselect6: number[]; epoll: number[]; poll: number[] }> = {
  x64: { read: [0], pselect6: [270], epoll: [232, 281, 441], poll: [7, 271] },
  arm64: { read: [63], pselect6: [72], epoll: [22, 441], poll: [73] },
};

/**
 * Waits until `pid` sleeps in one of `calls` (its /proc syscall line), so what the test then
 * asks once is the state it asserts, not a race with the program's start.
 */
function blockedIn(pid: number, call: 'read' | 'pselect6' | 'epoll' | 'poll'): Promise<boolean> {
  const numbers = CALLS[process.arch]?.[call] ?? [];
  return waitFor(
    () => {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
        const nr = Number(readFileSync(`/proc/${pid}/syscall`, 'utf8').split(' ')[0]);
        return state === 'S' && numbers.includes(nr);
      } catch {
        return false;
      }
    },
    20_000,
    `process ${pid} blocked in ${call}`,
  );
}

/** A pid that was a process and is no more. */
function goneProcess(): number {
  const child = spawnSync('sh', ['-c', 'echo $$']);
  return Number(child.stdout.toString().trim());
}

describe.skipIf(skip !== undefined)('on real terminals', () => {
  it('names the program in the foreground: sleep run by sh, not sh', async () => {
    const sh = await onTerminal('sleep 30; true');
    const sleep = await waitFor(() => childrenOf(sh)[0] ?? 0, 20_000, 'sleep to start');
    await waitForSleep(sleep);
    expect(foregroundProgram(sh)).toEqual({ group: sh, name: 'sleep' });
    expect(foregroundProgram(goneProcess())).toBeUndefined();
  });

  it('read -s (echo off) on the terminal is waiting, and echo is read off the terminal', async () => {
    const sh = await onTerminal('stty -echo; read x');
    await blockedIn(sh, 'read');
    expect(await kernelWaiting(ptyTarget(sh), linuxProcEffects)).toEqual({ waiting: true, echo: false });
  });

  it('read with echo on is waiting with echo', async () => {
    const sh = await onTerminal('read x');
    await blockedIn(sh, 'read');
    expect(await kernelWaiting(ptyTarget(sh), linuxProcEffects)).toEqual({ waiting: true, echo: true });
  });

  it('bash at its prompt waits in pselect6: the set is read out of its memory', async () => {
    const sh = await onTerminal('exec bash --norc --noprofile -i');
    await blockedIn(sh, 'pselect6');
    expect(await kernelWaiting(ptyTarget(sh), linuxProcEffects)).toEqual({ waiting: true, echo: true });
  });

  // Node's REPL reads its terminal through epoll, beside its own eventfd and signal pipe.
  it('Node reading its terminal from its event loop is waiting; with a timer due soon it is not', async () => {
    const node = await onTerminal(`exec ${process.execPath} -e "process.stdin.resume()"`);
    await blockedIn(node, 'epoll');
    expect(await kernelWaiting(ptyTarget(node), linuxProcEffects)).toEqual({ waiting: true, echo: true });
    const ticking = await onTerminal(
      `exec ${process.execPath} -e "process.stdin.resume(); setInterval(() => {}, 200)"`,
    );
    await blockedIn(ticking, 'epoll');
    expect(await kernelWaiting(ptyTarget(ticking), linuxProcEffects)).toEqual({
      waiting: false,
      pollsInput: true,
    });
  });

  // An asyncio prompt (prompt_toolkit's, IPython's) reads its terminal in epoll beside the loop's
  // wake-up socket pair, with a short timer of its own that prints nothing.
  it.skipIf(noSs !== undefined)(
    'asyncio reading its terminal beside its own socket pair on a 200 ms timer: waiting once quiet 1 s',
    async () => {
      const asyncio = await onTerminal(
        `exec ${python} -c 'import asyncio, os
async def main():
    asyncio.get_running_loop().add_reader(0, lambda: os.read(0, 100))
    while True: await asyncio.sleep(0.2)
asyncio.run(main())'`,
      );
      await blockedIn(asyncio, 'epoll');
      const target = { ...ptyTarget(asyncio), quietMs: 1_000 };
      expect(await kernelWaiting(target, linuxProcEffects)).toEqual({ waiting: true, echo: true });
      // Output a moment ago: the timer may be the program at work.
      expect(await kernelWaiting({ ...target, quietMs: 100 }, linuxProcEffects)).toEqual({
        waiting: false,
        pollsInput: true,
      });
    },
  );

  // gdb waits at its prompt in poll over the terminal and pipes whose both ends it holds.
  it('a poll over the terminal and its own pipe is waiting; with a timer due soon it is not', async () => {
    const polling = (timeout: string) =>
      onTerminal(
        `exec ${python} -c 'import os, select; r, w = os.pipe(); p = select.poll(); p.register(0, select.POLLIN); p.register(r, select.POLLIN)
while True: p.poll(${timeout})'`,
      );
    const waiting = await polling('');
    await blockedIn(waiting, 'poll');
    expect(await kernelWaiting(ptyTarget(waiting), linuxProcEffects)).toEqual({ waiting: true, echo: true });
    const ticking = await polling('200');
    await blockedIn(ticking, 'poll');
    expect(await kernelWaiting(ptyTarget(ticking), linuxProcEffects)).toEqual({
      waiting: false,
      pollsInput: true,
    });
  });

  it('stty cannot read the echo flag of what is no terminal', async () => {
    expect(await linuxProcEffects.terminalEcho('/dev/null')).toBeUndefined();
  });
});

describe.skipIf(skip !== undefined)('on pipes', () => {
  it('an event loop polling stdin among other descriptors (Node) polls stdin', async () => {
    const pid = onPipes(process.execPath, [
      '-e',
      "process.stdin.on('data', () => {}); setInterval(() => {}, 1e6)",
    ]);
    await blockedIn(pid, 'epoll');
    expect(await pollsStdin(pid)).toBe(true);
    // Off Linux the kernel is not asked.
    expect(await pollsStdin(pid, 'darwin')).toBeNull();
  });

  it('a read of stdin is waiting, not polling; the default detector says so from the kernel', async () => {
    const pid = onPipes(python, ['-c', 'input()']);
    await blockedIn(pid, 'read');
    expect(await kernelWaiting(pipeTarget(pid), linuxProcEffects)).toEqual({ waiting: true, echo: true });
    expect(await pollsStdin(pid)).toBe(false);
    expect(await defaultInputDetector()({ rootPid: pid, kind: 'pipe', quietMs: 0, prompt: '' })).toEqual({
      waiting: true,
      echo: true,
      confidence: 'kernel',
    });
  });

  it('a program that reads nothing (sleep) neither waits nor polls', async () => {
    const pid = onPipes('sleep', ['30']);
    await waitForSleep(pid);
    expect(await pollsStdin(pid)).toBe(false);
  });

  it('a process gone is no answer', async () => {
    expect(await pollsStdin(goneProcess())).toBeNull();
  });
});

describe('this host', () => {
  it('Linux answers from the kernel; other platforms do not', () => {
    expect(kernelInputDetection()).toBe(true);
    expect(kernelInputDetection('linux')).toBe(true);
    expect(kernelInputDetection('darwin')).toBe(false);
  });

  it('the prompt of a tail is its unfinished line without colours', () => {
    expect(promptFromTail('log\n\x1b[1;32mname?\x1b[0m ')).toBe('name?');
  });
});

describe('reading /proc', () => {
  it('a file or link that is not there is undefined; one that is, its text', async () => {
    expect(await linuxProcEffects.readFile('/proc/self/no-such-file')).toBeUndefined();
    expect(await linuxProcEffects.readlink('/proc/self/no-such-link')).toBeUndefined();
    expect(await linuxProcEffects.readFile(`/proc/${process.pid}/comm`)).toMatch(/\n$/);
    expect(await linuxProcEffects.readlink(`/proc/${process.pid}/exe`)).toBe(readlinkOf(process.pid));
  });

  it("reads a live process's memory: the ELF header where its program is mapped", async () => {
    const pid = onPipes('sleep', ['30']);
    await waitForSleep(pid);
    const first = readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')[0]!;
    const start = BigInt(`0x${first.split('-')[0]}`);
    expect(await linuxProcEffects.readMemory(pid, start, 4)).toEqual(Uint8Array.of(0x7f, 0x45, 0x4c, 0x46));
  });

  it('memory that is not mapped, or only partly, is undefined; so is a gone process', async () => {
    const pid = onPipes('sleep', ['30']);
    await waitForSleep(pid);
    expect(await linuxProcEffects.readMemory(pid, 0n, 4)).toBeUndefined();
    // The end of a mapping with a gap after it: 4 bytes mapped, 4 not.
    const ranges = readFileSync(`/proc/${pid}/maps`, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(
        (line) =>
          line
            .split(' ')[0]!
            .split('-')
            .map((hex) => BigInt(`0x${hex}`)) as [bigint, bigint],
      );
    const gapAfter = ranges.find(([, end], i) => ranges[i + 1] !== undefined && ranges[i + 1]![0] > end);
    expect(gapAfter).toBeDefined();
    expect(await linuxProcEffects.readMemory(pid, gapAfter![1] - 4n, 8)).toBeUndefined();
    expect(await linuxProcEffects.readMemory(goneProcess(), 0x400000n, 4)).toBeUndefined();
  });

  it('leaves no descriptor open, however often it reads', async () => {
    const pid = onPipes('sleep', ['30']);
    await waitForSleep(pid);
    const first = readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n')[0]!;
    const start = BigInt(`0x${first.split('-')[0]}`);
    for (let i = 0; i < 50; i++) {
      await linuxProcEffects.readMemory(pid, start, 4);
      await linuxProcEffects.readMemory(pid, 0n, 4);
    }
    // Other work in this process opens and closes descriptors too: look for ours only.
    const open = readdirSync('/proc/self/fd').map((fd) => linkOf(`/proc/self/fd/${fd}`));
    expect(open.filter((link) => link === `/proc/${pid}/mem`)).toEqual([]);
  });
});

function linkOf(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

function readlinkOf(pid: number): string {
  return spawnSync('readlink', [`/proc/${pid}/exe`], { encoding: 'utf8' }).stdout.trim();
}
