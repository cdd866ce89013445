// `signal` on a sandboxed session reaches the program inside, as it does unsandboxed: the
// host's pid is bwrap's, which ignores INT and QUIT and takes the sandbox down on others.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoLeakedProcesses, makeWorkspace, waitFor } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createProcessSessions } from '../src/index.js';

afterAll(async () => {
  await assertNoLeakedProcesses();
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

describe.skipIf(process.platform !== 'linux')('signal on a sandboxed session', () => {
  for (const pty of [false, true]) {
    const mode = pty ? 'a PTY' : 'pipes';
    it(`SIGINT reaches a python loop on ${mode}: KeyboardInterrupt, its own exit code`, async () => {
      const cwd = makeWorkspace();
      writeFileSync(join(cwd, 'loop.py'), LOOP);
      const sessions = createProcessSessions({ cwd, sandboxPolicy: true });
      try {
        const s = await sessions.start({ command: 'python3', args: ['-u', 'loop.py'], pty });
        let out = '';
        await waitFor(async () => (out += (await s.poll()).stdout).includes('ready'), 15_000, 'ready');
        await s.signal('SIGINT');
        expect(await s.wait({ timeoutMs: 15_000 })).toEqual({ exitCode: 7, signal: null, state: 'exited' });
        out += (await s.poll()).stdout;
        expect(out).toContain('KeyboardInterrupt');
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
        let out = '';
        await waitFor(async () => (out += (await handled.poll()).stdout).includes('ready'), 15_000, 'ready');
        await handled.signal('SIGTERM');
        expect(await handled.wait({ timeoutMs: 15_000 })).toEqual({
          exitCode: 9,
          signal: null,
          state: 'exited',
        });
        out += (await handled.poll()).stdout;
        expect(out).toContain('term caught');

        const plain = await sessions.start({
          command: 'python3',
          args: ['-u', '-c', 'import time; print("ready", flush=True); time.sleep(60)'],
          pty,
        });
        out = '';
        await waitFor(async () => (out += (await plain.poll()).stdout).includes('ready'), 15_000, 'ready');
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
