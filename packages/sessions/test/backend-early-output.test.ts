import { assertNoLeakedProcesses, makeWorkspace } from '@procmux/test-utils';
import { afterAll, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSandboxBackend } from '../src/index.js';

afterAll(async () => {
  await assertNoLeakedProcesses();
});

// A remote program can print before the backend's start call returns its handle.
it('keeps output a sandbox delivers before its handle is returned, in order', async () => {
  const sandbox: ProcessSandboxBackend = {
    async startProcess(request) {
      request.onStdout('early ');
      request.onStderr('warn ');
      await new Promise((resolve) => setTimeout(resolve, 20));
      request.onStdout('still early\n');
      return {
        write: () => {},
        signal: () => {},
        kill: () => {},
        wait: () => new Promise((resolve) => setTimeout(() => resolve({ exitCode: 0 }), 20)),
      };
    },
  };
  const sessions = createProcessSessions({ cwd: makeWorkspace(), sandbox });
  try {
    const s = await sessions.start({ command: 'anything' });
    expect(await s.wait({ timeoutMs: 5_000 })).toMatchObject({ exitCode: 0 });
    const out = await s.poll();
    expect(out.stdout).toBe('early still early\n');
    expect(out.stderr).toBe('warn ');
  } finally {
    await sessions.dispose();
  }
});
