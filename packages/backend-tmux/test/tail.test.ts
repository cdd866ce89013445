// The tail at exit is complete: 100 runs of `seq 1 100000; echo __END__` on the tmux backend,
// each log checked from its first line to __END__ (the bar native PTYs meet).
import { createProcessSessions, type ProcessSession } from '@procmux/sessions';
import { afterAll, describe, expect, it } from 'vitest';
import { createTmuxBackend } from '../src/index.js';
import { stateDir, teardown } from './helpers.js';

const RUNS = 100;
const CONCURRENCY = 4;

const EXPECTED = `${Array.from({ length: 100_000 }, (_, i) => i + 1).join('\n')}\n__END__\n`;

afterAll(teardown);

/** The whole raw output, every page from byte 0. */
async function everything(s: ProcessSession): Promise<string> {
  let text = '';
  let cursor = 0;
  for (;;) {
    const page = await s.output({ cursor });
    text += page.data;
    cursor = page.cursor;
    if (page.eof) return text;
  }
}

describe.skipIf(process.platform === 'win32')('tail at exit', () => {
  it(`${RUNS} runs of seq 1 100000; echo __END__ lose no tail`, { timeout: 1_500_000 }, async () => {
    const tmux = createTmuxBackend({ dir: stateDir() });
    const sessions = createProcessSessions({
      cwd: process.cwd(),
      ptyBackend: tmux,
      limits: { maxOutputBytes: 4 * 1024 * 1024 },
    });
    let lost = 0;
    let next = 0;
    const worker = async () => {
      while (next < RUNS) {
        next += 1;
        const s = await sessions.start({
          command: 'sh',
          args: ['-c', 'seq 1 100000; echo __END__'],
          pty: true,
        });
        const exit = await s.wait({ timeoutMs: 120_000 });
        const text = (await everything(s)).replaceAll('\r\n', '\n');
        const ok = exit.exitCode === 0 && text === EXPECTED;
        if (!ok)
          console.info(
            `[backend-tmux] run ${next}: exit ${exit.exitCode}, ${text.length} of ${EXPECTED.length} chars, ends ${JSON.stringify(text.slice(-20))}`,
          );
        if (!ok) lost += 1;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    console.info(`[backend-tmux] tail lost in ${lost} of ${RUNS} runs`);
    await sessions.dispose();
    await tmux.killServer();
    expect(lost).toBe(0);
  });
});
