// A reply gathered from several polls of a terminal shows what the terminal shows: lines a
// program drew again in place (a progress display, top's next frame) stand in for the lines
// they drew over, instead of every state coming back one after another.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PollResult } from '@procmux/sessions';
import { describe, expect, it } from 'vitest';
import { OutputGatherer } from '../src/gather.js';
import { createProcessTools, type ToolSession, type ToolSessions } from '../src/index.js';
import { compilePattern } from '../src/pattern.js';
import { closingHarness, idOf, pollOf } from './helpers.js';

const harness = closingHarness();
const posix = process.platform !== 'win32';

// Numbered as a session numbers the polls that bring text; `read` sets the number (another
// call's polls between).
let reads = 0;
const poll = (stdout: string, redrawnLines?: number, currentLine = '', read?: number): PollResult => {
  if (stdout !== '') reads = read ?? reads + 1;
  return pollOf(stdout, {
    currentLine: { stdout: currentLine, stderr: '' },
    ...(redrawnLines ? { redrawnLines } : {}),
    ...(stdout !== '' ? { stdoutRead: reads } : {}),
  });
};

describe('OutputGatherer and lines drawn again in place', () => {
  it('drops the lines a poll draws over and appends its text', () => {
    const output = new OutputGatherer();
    output.add(poll('\na: 10%\nb: 20%'));
    output.add(poll('\na: 30%\nb: 40%', 2));
    output.add(poll('\nb: 50%\ndone', 1));
    expect(output.stdout).toBe('\na: 30%\nb: 50%\ndone');
  });

  it("keeps the earlier reply's lines: only this call's text is dropped", () => {
    const output = new OutputGatherer();
    output.add(poll('\nb: 20%'));
    // Three lines drawn over, one of them gathered here: the two before it were another reply's.
    output.add(poll('\na: 30%\nb: 40%\nc: 50%', 3));
    expect(output.stdout).toBe('\na: 30%\nb: 40%\nc: 50%');
  });

  it("drops nothing when the read before was another call's (two calls reading one session)", () => {
    const output = new OutputGatherer();
    output.add(poll('\nx\ny', undefined, '', 1));
    // Read 2 went to a poll racing this call: the line read 3 draws over is its, not 'y'.
    output.add(poll('\nz 2%', 1, '', 3));
    expect(output.stdout).toBe('\nx\ny\nz 2%');
    // Read 4 follows this call's read 3: its line is drawn over.
    output.add(poll('\nz 3%', 1, '', 4));
    expect(output.stdout).toBe('\nx\ny\nz 3%');
  });

  it('forgets the carried start of a line drawn over, so a pattern sees the line as drawn now', async () => {
    const output = new OutputGatherer();
    // An earlier reply ended on `$ ls`; this call brought ` -l`; then the line was drawn anew.
    output.carryLine(poll(' -l', undefined, '$ ls -l'));
    output.add(poll(' -l', undefined, '$ ls -l'));
    expect(output.searched).toBe('$ ls -l');
    output.add(poll('\n$ make', 1, '$ make'));
    expect(output.searched).toBe('\n$ make');
    expect(await output.search(compilePattern('^\\$ ls'))).toBeUndefined();
  });

  it('searches the text that replaced lines a pattern had already been tried on', async () => {
    const output = new OutputGatherer();
    // Longer than the overlap a search goes back over: the new status line is searched because
    // the text it stands in was dropped, not because it lies within the overlap.
    const wide = 'x'.repeat(5_000);
    output.add(poll(`\nstatus: running\n${wide}`));
    expect(await output.search(compilePattern('^status: (ok|failed)'))).toBeUndefined();
    output.add(poll(`\nstatus: failed\n${wide}`, 2));
    expect(await output.search(compilePattern('^status: (ok|failed)'))).toBe('status: failed');
  });
});

/** The sessions, with each poll's text reported: a test waits for the poll, not for time. */
function watchedPolls(sessions: ToolSessions, onPoll: (text: string) => void): ToolSessions {
  const watch = (session: ToolSession): ToolSession =>
    new Proxy(session, {
      get(target, key) {
        if (key === 'poll') {
          return async (options?: { timeoutMs?: number }) => {
            const result = await target.poll(options);
            onPoll(result.stdout);
            return result;
          };
        }
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return {
    cwd: sessions.cwd,
    start: async (request) => watch(await sessions.start(request)),
    get: (id, owner) => watch(sessions.get(id, owner)),
    list: (owner) => sessions.list(owner),
  };
}

// Draws step N once the file goN exists (the test creates it after a poll returned step N-1).
const STEPS = `
import os, sys, time
d, steps, clear = sys.argv[1], int(sys.argv[2]), sys.argv[3] == 'clear'
for step in range(steps):
    while not os.path.exists(os.path.join(d, 'go%d' % step)):
        time.sleep(0.005)
    if clear:
        sys.stdout.write('\\x1b[H\\x1b[2J\\x1b[3J' if step else '')
        sys.stdout.write('screen %d\\r\\n' % step)
    else:
        if step:
            sys.stdout.write('\\x1b[3A')
        for i, name in enumerate('abc'):
            sys.stdout.write('\\r\\x1b[2K%s: %d%%\\r\\n' % (name, step * 10 + i))
    sys.stdout.flush()
print('done')
`;

/** A session drawing `steps` steps, each after the poll that returned the one before. */
async function stepped(steps: number, mode: 'progress' | 'clear') {
  const h = harness();
  writeFileSync(join(h.root, 'steps.py'), STEPS);
  const seen: string[] = [];
  const waiters: Array<() => void> = [];
  const tools = createProcessTools(
    watchedPolls(h.sessions, (text) => {
      seen.push(text);
      for (const wake of waiters.splice(0)) wake();
    }),
    { startupWaitMs: 0 },
  );
  const polled = async (text: string) => {
    while (!seen.some((s) => s.includes(text))) await new Promise<void>((wake) => waiters.push(wake));
  };
  const command = `python3 -u steps.py . ${steps} ${mode}`;
  const id = idOf(await tools.exec.run({ command, mode: 'session' }));
  const go = (step: number) => writeFileSync(join(h.root, `go${step}`), '');
  return { h, tools, id, go, polled };
}

describe('a reply of a terminal session that redrew lines in place', () => {
  it.runIf(posix)('shows the last state of a progress display, and the log keeps every state', async () => {
    const { h, tools, id, go, polled } = await stepped(4, 'progress');
    const waiting = tools.process.run({ action: 'wait_for', session_id: id, pattern: '^done' });
    for (let step = 0; step < 4; step++) {
      go(step);
      await polled(`a: ${step * 10}%`);
    }
    const reply = await waiting;
    expect(reply.data.wait?.outcome).toBe('matched');
    expect(reply.text).toMatch(/^a: 30%\nb: 31%\nc: 32%\ndone\n/);
    expect(reply.text).not.toMatch(/a: [0-2]0%/);
    const log = await h.sessions.get(id).log({});
    for (let step = 0; step < 4; step++) expect(log.text).toContain(`a: ${step * 10}%`);
  });

  it.runIf(posix)('keeps what was on a screen that was cleared before the next lines came', async () => {
    const { tools, id, go, polled } = await stepped(2, 'clear');
    const waiting = tools.process.run({ action: 'wait_for', session_id: id, pattern: '^done' });
    go(0);
    await polled('screen 0');
    go(1);
    const reply = await waiting;
    expect(reply.text).toMatch(/^screen 0\nscreen 1\ndone\n/);
  });
});
