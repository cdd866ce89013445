// `signal` on a sandboxed session reaches the program inside, as it does unsandboxed: the
// host's pid is bwrap's, which ignores INT and QUIT and takes the sandbox down on others.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertNoLeakedProcesses,
  assertNoSandboxDirs,
  makeWorkspace,
  privateTmpdir,
  waitFor,
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

const LOOP = [
  'import signal, time',
  'signal.signal(signal.SIGTERM, lambda *_: (print("term caught", flush=True), exit(9)))',
  // "ready" inside the try: a SIGINT right after it is still caught.
  'try:',
  '    print("ready", flush=True)',
  '    while True: time.sleep(0.05)',
  'except KeyboardInterrupt:',
  '    print("KeyboardInterrupt", flush=True)',
  '    raise SystemExit(7)',
].join('\n');

/** Everything a session wrote so far (poll returns only what is new). */
function outputOf(s: { poll(): Promise<{ stdout: string }> }): () => Promise<string> {
  let out = '';
  return async () => {
    out += (await s.poll()).stdout;
    return out;
  };
}

describe.skipIf(process.platform !== 'linux')('signal on a sandboxed session', () => {
  for (const pty of [false, true]) {
    const mode = pty ? 'a PTY' : 'pipes';
    it(`SIGINT reaches a python loop on ${mode}: KeyboardInterrupt, its own exit code`, async () => {
      const cwd = makeWorkspace();
      writeFileSync(join(cwd, 'loop.py'), LOOP);
      const sessions = createProcessSessions({ cwd, sandboxPolicy: true });
      try {
        const s = await sessions.start({ command: 'python3', args: ['-u', 'loop.py'], pty });
        const sOutput = outputOf(s);
        await waitFor(async () => (await sOutput()).includes('ready'), 15_000, 'ready');
        await s.signal('SIGINT');
        expect(await s.wait({ timeoutMs: 15_000 })).toEqual({ exitCode: 7, signal: null, state: 'exited' });
        expect(await sOutput()).toContain('KeyboardInterrupt');
      } finally {
        await sessions.dispose();
      }
    });

    it(`SIGTERM reaches the program on ${mode}: its handler runs; uncaught, the session reports SIGTERM`, async () => {
      const cwd = makeWorkspace();
      writeFileSync(join(cwd, 'loop.py'), LOOP);
      const sessions = createProcessSessions({ cwd, sandboxPolicy: true });
      try {
        const handled = await sessions.start({ command: 'python3', args: ['-u', 'loop.py'], pty });
        const handledOutput = outputOf(handled);
        await waitFor(async () => (await handledOutput()).includes('ready'), 15_000, 'ready');
        await handled.signal('SIGTERM');
        expect(await handled.wait({ timeoutMs: 15_000 })).toEqual({
          exitCode: 9,
          signal: null,
          state: 'exited',
        });
        expect(await handledOutput()).toContain('term caught');

        const plain = await sessions.start({
          command: 'python3',
          args: ['-u', '-c', 'import time; print("ready", flush=True); time.sleep(60)'],
          pty,
        });
        const plainOutput = outputOf(plain);
        await waitFor(async () => (await plainOutput()).includes('ready'), 15_000, 'ready');
        await plain.signal('SIGTERM');
        expect(await plain.wait({ timeoutMs: 15_000 })).toEqual({
          exitCode: null,
          signal: 'SIGTERM',
          state: 'killed',
        });
      } finally {
        await sessions.dispose();
      }
    });
  }
});
