import { describe, expect, it, vi } from 'vitest';
import { closingHarness, type Harness, idOf } from './helpers.js';

// No PTY can be opened (as in a container without /dev/ptmx); the pipe runs are real.
vi.mock('@procmux/pty-posix', () => ({
  createPtyAdapter: () => Promise.reject(new Error('no /dev/ptmx in this container')),
}));

let h: Harness | undefined;
const harness = closingHarness(() => {
  h = undefined;
});

describe('exec mode=session without a terminal', () => {
  it('runs on pipes, says so, and shows the output as written (no stair-steps)', async () => {
    h = harness({}, { logger: { warn: () => {} } });
    const started = await h.exec({
      command: "printf 'hello\\nworld\\n'; echo err >&2; sleep 30",
      mode: 'session',
    });
    expect(started.text).toMatch(/: printf .*sleep 30\nNo terminal could be opened, so it runs on pipes/);
    expect(started.text).toMatch(/^hello\nworld$/m);
    expect(started.text).not.toMatch(/^ +world/m);
    expect(started.data.session).toMatchObject({ stdioMode: 'pipe', ptyFellBack: true });
    const list = await h.proc({ action: 'list' });
    expect(list.text).toContain('pipes (no terminal could be opened)');
    const log = await h.proc({ action: 'log', session_id: idOf(started), offset: 0 });
    expect(log.text).toMatch(/^hello\nworld\nerr$/m);
  });
});
