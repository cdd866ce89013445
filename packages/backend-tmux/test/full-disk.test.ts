// The state directory's file system refuses the log: the session ends with an error that says
// so, its program (which ignores the hang-up tmux sends) does not run on unfollowed, and the
// host goes on. Two real limits: a file size limit on the tmux server (RLIMIT_FSIZE, the log
// writer dies of SIGXFSZ; any user) and a 64 KiB tmpfs (ENOSPC; needs root to mount).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import { isAlive, processTable, rejectsWith } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createTmuxBackend, locateTmux, type TmuxBackend } from '../src/index.js';
import { stateDir, teardown } from './helpers.js';

const root = process.getuid?.() === 0;
let sessions: ProcessSessions | undefined;
let tmux: TmuxBackend | undefined;
const mounts: string[] = [];

afterEach(async () => {
  await sessions?.dispose();
  await tmux?.killServer();
  sessions = undefined;
  tmux = undefined;
  for (const dir of mounts.splice(0)) execFileSync('umount', [dir]);
  await teardown();
});

// Prints its tree marker, ignores SIGHUP (kill-session alone would leave it running), then
// prints 4 KB lines without end.
const FLOOD = [
  '-c',
  `trap '' HUP; echo "m=$PROCMUX_TREE"; while :; do head -c 4000 /dev/zero | tr '\\0' x; echo; done`,
];

/** A tmux whose server, and the log writers it starts, may write files of 32 KiB at most. */
function sizeLimitedTmux(dir: string) {
  const real = locateTmux();
  const path = join(dir, 'tmux-fsize');
  writeFileSync(path, `#!/bin/sh\nulimit -f 64\nexec ${real.path} "$@"\n`);
  chmodSync(path, 0o755);
  return { path, version: real.version };
}

function tinyTmpfs(): string {
  const dir = stateDir();
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}

async function floodUntilTheLogFails(backend: TmuxBackend) {
  tmux = backend;
  sessions = createProcessSessions({ cwd: process.cwd(), ptyBackend: backend });
  const s = await sessions.start({ command: 'sh', args: FLOOD, pty: true });
  const pid = s.pid!;
  // A lost session's wait() rejects: the exit status is not known, never guessed.
  const lost = await s.wait({ timeoutMs: 30_000 }).then(
    () => undefined,
    (error: unknown) => error,
  );
  return { s, pid, lost };
}

async function expectTheLogFailure(run: Awaited<ReturnType<typeof floodUntilTheLogFails>>) {
  const { s, pid, lost } = run;
  expect(lost).toMatchObject({
    code: 'ERR_PROCESS_PTY_BACKEND',
    message: expect.stringMatching(/could not be written/),
  });
  expect(s.metadata()).toMatchObject({ state: 'unknown', exitCode: null, signal: null });
  expect(s.metadata().endReason).toMatch(
    /its log \S+\.log could not be written past byte \d+ \(the file system is full, or a quota or file size limit was reached\); the program was killed/,
  );
  // The program and everything bearing its marker are gone, not left running in tmux.
  const marker = /m=(\S+)/.exec((await s.log()).text)?.[1];
  expect(marker).toMatch(/^\d+-/);
  expect(isAlive(pid)).toBe(false);
  expect(processTable().filter((p) => p.state !== 'Z' && p.marker === marker)).toEqual([]);
}

describe.skipIf(process.platform === 'win32')('the tmux log on a file system that refuses it', () => {
  it('past a file size limit: the session ends with the reason, its program is killed, the host goes on', async () => {
    const dir = stateDir();
    const run = await floodUntilTheLogFails(createTmuxBackend({ dir, tmux: sizeLimitedTmux(dir) }));
    await expectTheLogFailure(run);
    // The host and the backend go on: a new session runs to its end.
    const next = await sessions!.start({ command: 'sh', args: ['-c', 'echo fine; exit 3'], pty: true });
    expect(await next.wait({ timeoutMs: 30_000 })).toEqual({ state: 'exited', exitCode: 3, signal: null });
    expect(await tmux!.listSessions()).toEqual([]);
  });

  it.skipIf(!root)(
    'on a full 64 KiB tmpfs (mounting needs root): the same, and a start on it is refused',
    async () => {
      const dir = tinyTmpfs();
      const run = await floodUntilTheLogFails(createTmuxBackend({ dir }));
      await expectTheLogFailure(run);
      // Fill what the ended session's log gave back: the next start cannot write its files.
      const filler = join(dir, 'filler');
      try {
        writeFileSync(filler, Buffer.alloc(128 * 1024));
      } catch {}
      await rejectsWith(
        sessions!.start({ command: 'sh', args: ['-c', 'echo never'], pty: true }),
        'ERR_PROCESS_PTY_BACKEND',
      );
      await expect(sessions!.start({ command: 'sh', args: ['-c', 'echo never'], pty: true })).rejects.toThrow(
        /could not write a session's files under \S+ \(ENOSPC: the file system is full\); no program was started/,
      );
      expect(await tmux!.listSessions()).toEqual([]);
      expect(readdirSync(join(dir, 'sessions'))).toEqual([]);
      expect(existsSync(filler)).toBe(true);
    },
  );
});
