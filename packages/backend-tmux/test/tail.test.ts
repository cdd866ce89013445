// The tail at exit is complete: 100 runs of `seq 1 100000; echo __END__` on the tmux backend,
// each log checked from its first line to __END__ (the bar native PTYs meet).
import { createProcessSessions } from '@procmux/sessions';
import { afterAll, describe, expect, it } from 'vitest';
import { createTmuxBackend } from '../src/index.js';
import { stateDir, teardown } from './helpers.js';

const RUNS = 100;
const CONCURRENCY = 4;

afterAll(teardown);

describe.skipIf(process.platform === 'win32')('tail at exit', () => {
  it(`${RUNS} runs of seq 1 100000; echo __END__ lose no tail`, async () => {
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
        const s = await sessions.start({ command: 'sh', args: ['-c', 'seq 1 100000; echo __END__'], pty: true });
        const exit = await s.wait({ timeoutMs: 120_000 });
        const text = (await s.log({ limit: 10_000_000 })).text;
        const ok = exit.exitCode === 0 && text.startsWith('1\n') && text.trimEnd().endsWith('100000\n__END__');
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
