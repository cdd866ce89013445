import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSessions } from '@procmux/sessions';
import { assertNoLeakedProcesses, testTmpdir } from '@procmux/test-utils';
import { createProcessTools } from '@procmux/tools';
import { afterAll, describe, expect, it } from 'vitest';

const linux = process.platform === 'linux';
const cwd = mkdtempSync(join(testTmpdir(), 'procmux-input-tools-'));
const sessions = createProcessSessions({ cwd });
const tools = createProcessTools(sessions);

afterAll(async () => {
  await sessions.dispose();
  await assertNoLeakedProcesses();
});

describe.skipIf(!linux)('the tools at a prompt', () => {
  it('one_shot read -s -p is stopped, says it waited for input, and leaves no process', async () => {
    const started = Date.now();
    const result = await tools.exec.run({ command: 'read -s -p "Password: " x; echo got $x' });
    const took = Date.now() - started;
    expect(result.isError).toBe(true);
    expect(result.text).toContain('it was waiting for input');
    expect(result.text).toContain('mode "session"');
    expect(result.text).not.toContain('got');
    expect(result.data.waitingInput?.confidence).toBe('kernel');
    const pid = result.data.session?.pid;
    expect(pid).toBeTypeOf('number');
    expect(() => process.kill(pid!, 0)).toThrow();
    // Generous: against a hang, not a speed claim (the bench measures latency).
    expect(took).toBeLessThan(20_000);
  });

  it('the state line of a session at a getpass prompt says so, and that input is not echoed', async () => {
    const started = await tools.exec.run({
      command: `python3 -c "import getpass; getpass.getpass('Secret: ')"`,
      mode: 'session',
    });
    const id = started.data.session!.id;
    const waited = await tools.process.run({
      action: 'wait_for',
      session_id: id,
      input: true,
      timeout: 20_000,
    });
    expect(waited.text).toContain(
      'Process is waiting for input: "Secret:". (input is not echoed: likely a password)',
    );
    await tools.process.run({ action: 'kill', session_id: id });
  });

  // Node's REPL reads its terminal from its event loop (epoll beside its own wake-ups): before,
  // it was never seen waiting, and wait_for input timed out at its prompt.
  it("the Node REPL's prompt is seen: wait_for input returns, and the state line quotes it", async () => {
    const started = await tools.exec.run({ command: process.execPath, mode: 'session' });
    const id = started.data.session!.id;
    const waitFor = (until: { input: true } | { pattern: string }) =>
      tools.process.run({ action: 'wait_for', session_id: id, timeout: 20_000, ...until });
    expect((await waitFor({ input: true })).text).toContain('Process is waiting for input: ">".');
    await tools.process.run({ action: 'paste', session_id: id, text: '6 * 7' });
    await tools.process.run({ action: 'submit', session_id: id });
    expect((await waitFor({ pattern: '^42$' })).data.wait?.fired).toBe('pattern');
    expect((await waitFor({ input: true })).text).toContain('Process is waiting for input: ">".');
    await tools.process.run({ action: 'kill', session_id: id });
  });
});
