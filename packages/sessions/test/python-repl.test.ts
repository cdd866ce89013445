import { assertNoLeakedProcesses, makeWorkspace, processTable, waitFor } from '@procmux/test-utils';
import { afterAll, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSession } from '../src/index.js';

afterAll(async () => {
  await assertNoLeakedProcesses();
});

/** Polls until `pattern` shows up in the concatenated deltas (generous deadline, no tick). */
async function pollUntil(session: ProcessSession, pattern: RegExp, deadlineMs = 20_000): Promise<string> {
  let seen = '';
  const deadline = Date.now() + deadlineMs;
  while (!pattern.test(seen)) {
    if (Date.now() > deadline) throw new Error(`never saw ${pattern} in:\n${seen}`);
    const result = await session.poll({ timeoutMs: 2_000 });
    seen += result.stdout;
    if (result.state !== 'running' && !pattern.test(seen))
      throw new Error(`session ${result.state}:\n${seen}`);
  }
  return seen;
}

it('drives python3 -i through the handle: paste, submit, interrupt, EOF', async () => {
  const sessions = createProcessSessions({ cwd: makeWorkspace() });
  try {
    const py = await sessions.start({ command: 'python3', args: ['-i', '-q'], pty: true });
    expect(py.metadata()).toMatchObject({ stdioMode: 'pty', emulated: true });
    await pollUntil(py, />>>\s*$/);

    // Python 3.11's REPL does not enable bracketed paste, so this pastes plain text.
    await py.paste('def twice(x):\n    return x * 2\n');
    await py.submit();
    // The paste's final newline plus the submit close the block: the prompt comes back.
    const defined = await pollUntil(py, />>>\s*$/);
    expect(defined).toContain('...     return x * 2');
    await py.paste('print(twice(21))');
    await py.submit();
    const result = await pollUntil(py, /^42$/m);
    // Deltas read as one stream: the prompt line only grew, so just the typed text comes back.
    expect(result).toContain(' print(twice(21))\n42');

    await py.paste('while True: pass');
    await py.submit();
    await py.submit();
    // Interrupt the loop itself, not the prompt before it: python on the CPU, not in a read.
    await waitFor(
      () => processTable().some((p) => p.pid === py.pid && p.state === 'R'),
      10_000,
      'the loop running',
    );
    await py.sendKeys(['C-c']);
    const interrupted = await pollUntil(py, /KeyboardInterrupt[\s\S]*>>>\s*$/);
    expect(interrupted).toMatch(/KeyboardInterrupt/);
    // CPython 3.11 exits by SIGINT at EOF if the last statement ended in KeyboardInterrupt
    // (measured here with os.waitpid); one more statement makes the exit an ordinary 0.
    await py.paste('print(twice(2))');
    await py.submit();
    await pollUntil(py, /^4\n>>>\s*$/m);

    await py.sendKeys(['C-d']);
    expect(await py.wait({ timeoutMs: 20_000 })).toEqual({ exitCode: 0, signal: null, state: 'exited' });
    const screen = await py.screen();
    expect(screen).toContain('>>> print(twice(21))\n42');
  } finally {
    await sessions.dispose();
  }
});
