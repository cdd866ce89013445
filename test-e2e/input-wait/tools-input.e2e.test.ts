import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSessions } from '@procmux/sessions';
import { assertNoLeakedProcesses, requireTool, testTmpdir } from '@procmux/test-utils';
import { createProcessTools } from '@procmux/tools';
import { afterAll, describe, expect, it } from 'vitest';

const linux = process.platform === 'linux';
const noGdb = linux ? requireTool('gdb') : 'not Linux';
const noSs = linux ? requireTool('ss') : 'not Linux';

// A prompt as prompt_toolkit's (IPython's) waits: asyncio's loop reads the terminal beside its
// own wake-up socket pair, and a task wakes every 500 ms to look at the terminal, printing nothing.
const ASYNCIO_PROMPT = `import asyncio, os, sys
async def main():
    n = 1
    lines = asyncio.Queue()
    asyncio.get_running_loop().add_reader(0, lambda: lines.put_nowait(os.read(0, 1000)))
    async def size():
        while True:
            await asyncio.sleep(0.5)
            os.get_terminal_size()
    asyncio.ensure_future(size())
    while True:
        sys.stdout.write(f"In [{n}]: "); sys.stdout.flush()
        line = (await lines.get()).decode().strip()
        print(f"Out: {line}")
        n += 1
asyncio.run(main())`;
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

  // Before, such a prompt was never seen waiting (its timer was due within 1 s, and the socket
  // pair's other end was not known for its own): wait_for input timed out at IPython's `In [1]:`.
  it.skipIf(noSs !== undefined)(
    "an asyncio prompt's wait (IPython's) is seen once quiet: wait_for input returns, and the state line quotes it",
    async () => {
      const started = await tools.exec.run({ command: `python3 -c '${ASYNCIO_PROMPT}'`, mode: 'session' });
      const id = started.data.session!.id;
      const run = (params: Record<string, unknown>) => tools.process.run({ session_id: id, ...params });
      const waitFor = (until: { input: true } | { pattern: string }) =>
        run({ action: 'wait_for', timeout: 20_000, ...until });
      const first = await waitFor({ input: true });
      expect(first.data.wait?.fired, first.text).toBe('input');
      expect(first.text).toContain('Process is waiting for input: "In [1]:".');
      expect(sessions.get(id).metadata().input?.confidence).toBe('kernel');
      await run({ action: 'paste', text: 'hello' });
      await run({ action: 'submit' });
      expect((await waitFor({ pattern: '^Out: hello$' })).data.wait?.fired).toBe('pattern');
      expect((await waitFor({ input: true })).text).toContain('Process is waiting for input: "In [2]:".');
      await run({ action: 'kill' });
    },
  );

  // gdb waits at its prompt and its questions in poll, over the terminal and four pipes whose
  // both ends it holds: before, neither was ever seen, and wait_for input timed out at both.
  it.skipIf(noGdb !== undefined)(
    "gdb's prompt and its y-or-n question are seen; answering ends it",
    async () => {
      const started = await tools.exec.run({ command: 'gdb -q -nx --args sleep 60', mode: 'session' });
      const id = started.data.session!.id;
      const run = (params: Record<string, unknown>) => tools.process.run({ session_id: id, ...params });
      const waitFor = (until: { input: true } | { pattern: string }) =>
        run({ action: 'wait_for', timeout: 20_000, ...until });
      expect((await waitFor({ input: true })).text).toContain('Process is waiting for input: "(gdb)".');
      await run({ action: 'paste', text: 'print 6 * 7' });
      await run({ action: 'submit' });
      expect((await waitFor({ pattern: '^\\$1 = 42$' })).data.wait?.fired).toBe('pattern');
      expect((await waitFor({ input: true })).text).toContain('Process is waiting for input: "(gdb)".');
      // A program started under it, stopped at its first instruction: quitting asks first.
      await run({ action: 'paste', text: 'starti' });
      await run({ action: 'submit' });
      await waitFor({ pattern: 'Program stopped' });
      await run({ action: 'paste', text: 'quit' });
      await run({ action: 'submit' });
      expect((await waitFor({ input: true })).text).toMatch(/Process is waiting for input: ".*\(y or n\)"\./);
      await run({ action: 'paste', text: 'y' });
      await run({ action: 'submit' });
      const end = await run({ action: 'wait_for', exit: true, timeout: 20_000 });
      expect(end.text).toMatch(/Process exited with code 0\.$/);
    },
  );
});
