// A program that cannot run is the same error in the OS sandbox as outside it: ERR_PROCESS_SPAWN
// at start (the launcher would otherwise run and end with 127), looked up as the sandbox does:
// the start's cwd and PATH.
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertNoLeakedProcesses,
  assertNoSandboxDirs,
  makeWorkspace,
  privateTmpdir,
  sandboxDirs,
} from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessSessions } from '../src/index.js';

// Every sandbox of this file makes its private dir here: none may be left at the end.
const tmp = privateTmpdir();

afterAll(async () => {
  await assertNoLeakedProcesses();
  await assertNoSandboxDirs(tmp);
  rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('a program that cannot run, sandboxed and not', () => {
  for (const pty of [false, true]) {
    it(`is ERR_PROCESS_SPAWN either way on ${pty ? 'a PTY' : 'pipes'}, and no sandbox is made for it`, async () => {
      const workspace = makeWorkspace();
      writeFileSync(join(workspace, 'plain.txt'), 'not a program\n');
      const sessions = createProcessSessions({ cwd: workspace });
      try {
        const cases = [
          ['no-such-program-29', 'command not found: "no-such-program-29"'],
          ['./no-such-program', 'command not found: "./no-such-program"'],
          ['/nonexistent/bin/x', 'command not found: "/nonexistent/bin/x"'],
          ['./plain.txt', 'command is not executable: "./plain.txt"'],
        ] as const;
        for (const [command, message] of cases) {
          const failure = (sandbox: boolean) =>
            sessions.start({ command, args: ['a'], pty, sandbox }).then(
              () => undefined,
              (error: unknown) => error as { code?: string; message?: string },
            );
          const outside = await failure(false);
          const inside = await failure(true);
          expect(outside?.code, command).toBe('ERR_PROCESS_SPAWN');
          expect(inside, command).toMatchObject({ code: 'ERR_PROCESS_SPAWN', message });
          // Pipes say it in the supervisor's words; a native PTY (pty-posix) in its own.
          if (!pty) expect(inside?.message).toBe(outside?.message);
          else expect(outside?.message).toContain(command);
        }
        expect(sandboxDirs(tmp)).toEqual([]);
      } finally {
        await sessions.dispose();
      }
    });
  }

  it("finds the program as the sandbox does: on the start's PATH and relative to its cwd", async () => {
    const workspace = makeWorkspace();
    mkdirSync(join(workspace, 'bin'));
    const tool = join(workspace, 'bin', 'ws-tool-29');
    writeFileSync(tool, '#!/bin/sh\necho "tool ran in $(pwd) with $1"\n');
    chmodSync(tool, 0o755);
    const sessions = createProcessSessions({ cwd: workspace, sandboxPolicy: true });
    try {
      const env = { PATH: `${join(workspace, 'bin')}:${process.env.PATH}` };
      for (const command of ['ws-tool-29', './bin/ws-tool-29']) {
        const s = await sessions.start({ command, args: ['x'], env });
        expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ state: 'exited', exitCode: 0 });
        expect((await s.poll()).stdout).toBe(`tool ran in ${s.cwd} with x\n`);
        expect(s.metadata().sandbox).toBeDefined();
      }
      // Not on this start's PATH: not found, as it would not be inside.
      await expect(sessions.start({ command: 'ws-tool-29' })).rejects.toMatchObject({
        code: 'ERR_PROCESS_SPAWN',
        message: 'command not found: "ws-tool-29"',
      });
    } finally {
      await sessions.dispose();
    }
  });
});
