// wait_for matches whole lines: a prompt already on screen, or begun in an earlier reply, counts.
import { startBusyLoops, waitFor } from '@procmux/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolResult } from '../src/index.js';
import { closingHarness, type Harness, idOf } from './helpers.js';

const harness = closingHarness();
// Registered after closingHarness: after-hooks run in reverse, so the loops end before the leak check.
let busy: ReturnType<typeof startBusyLoops> | undefined;
beforeAll(() => {
  busy = startBusyLoops(2);
});
afterAll(async () => {
  await busy?.stop();
});

type Wiring = 'pty' | 'pipes';
// session mode opens a terminal; daemon mode runs on pipes (python writes its prompt to stderr there).
const MODE: Record<Wiring, string> = { pty: 'session', pipes: 'daemon' };

// Writes `>`, then `>> ` when sent SIGUSR1: one prompt in two writes, as a loaded REPL may deliver it.
const TWO_WRITES = [
  'import os, signal, sys',
  "signal.signal(signal.SIGUSR1, lambda *_: (sys.stdout.write('>> '), sys.stdout.flush()))",
  "sys.stdout.write('done\\n>'); sys.stdout.flush()",
  'while True: signal.pause()',
].join('\n');

// Writes `done` and `>>>`, then the prompt's blank when sent SIGUSR1: a read can end between them.
const BLANK_LATER = [
  'import signal, sys',
  "signal.signal(signal.SIGUSR1, lambda *_: (sys.stdout.write(' '), sys.stdout.flush()))",
  "sys.stdout.write('done\\n>>>'); sys.stdout.flush()",
  'while True: signal.pause()',
].join('\n');

/** Polls until the output returned so far (by exec's reply too) contains `wanted`. */
async function shown(h: Harness, id: string, first: ToolResult, wanted: string): Promise<void> {
  let text = first.data.output ?? '';
  await waitFor(
    async () => {
      if (!text.includes(wanted)) {
        text += (await h.proc({ action: 'poll', session_id: id, timeout: 1000 })).data.output ?? '';
      }
      return text.includes(wanted);
    },
    20_000,
    JSON.stringify(wanted),
  );
}

/** A python REPL started, its first prompt returned by a reply. */
async function replShowingPrompt(h: Harness, wiring: Wiring): Promise<string> {
  const started = await h.exec({ command: 'python3 -q -i', mode: MODE[wiring] });
  const id = idOf(started);
  await shown(h, id, started, '>>>');
  return id;
}

/** Enters a line at the REPL. On pipes it ends with \n (submit presses Enter: \r, which a terminal turns into \n). */
async function enterLine(h: Harness, id: string, wiring: Wiring, line: string): Promise<void> {
  if (wiring === 'pty') {
    await h.proc({ action: 'paste', session_id: id, text: line });
    await h.proc({ action: 'submit', session_id: id });
  } else {
    await h.proc({ action: 'write', session_id: id, data: `${line}\n` });
  }
}

describe.each(['pty', 'pipes'] as const)('wait_for on %s', (wiring) => {
  it('finds the prompt of a REPL just started, 30 times of 30 beside two busy loops', async () => {
    const h = harness();
    let found = 0;
    for (let run = 0; run < 30; run++) {
      const id = idOf(await h.exec({ command: 'python3 -q -i', mode: MODE[wiring] }));
      const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>>', timeout: 10_000 });
      if (r.data.wait?.outcome === 'matched') found++;
      await h.proc({ action: 'kill', session_id: id });
    }
    expect(found).toBe(30);
  }, 240_000);

  it('returns at once, saying so, for a REPL prompt a poll already returned', async () => {
    const h = harness();
    const id = await replShowingPrompt(h, wiring);
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>>', timeout: 10_000 });
    expect(r.data.wait).toMatchObject({ outcome: 'matched', match: '>>>', alreadyShown: true });
    expect(r.text).toMatch(/^\(no new output\)\n\nMatched \/\^>>>\/ on the current line \(already shown\)\./);
  }, 60_000);

  it('matches a prompt written in two writes as the whole line, then again at once as already shown', async () => {
    const h = harness();
    const started = await h.exec({ command: `python3 -c "${TWO_WRITES}"`, mode: MODE[wiring] });
    const id = idOf(started);
    // The first write, `>`, is returned by a reply before the second is sent.
    await shown(h, id, started, '>');
    process.kill(started.data.session!.pid!, 'SIGUSR1');
    const whole = await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>>', timeout: 10_000 });
    expect(whole.data.wait).toMatchObject({ outcome: 'matched', match: '>>>' });
    expect(whole.data.wait?.alreadyShown).toBeUndefined();

    const again = await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>>', timeout: 10_000 });
    expect(again.data.wait).toMatchObject({ outcome: 'matched', alreadyShown: true });
    expect(again.text).toContain('Matched /^>>>/ on the current line (already shown).');
  }, 60_000);

  it('after input, waits for the reply: the prompt just answered does not count', async () => {
    const h = harness();
    const started = await h.exec({ command: 'python3 -q -i', mode: MODE[wiring] });
    const id = idOf(started);
    await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>>', timeout: 10_000 });
    for (let run = 0; run < 5; run++) {
      await enterLine(h, id, wiring, `import time; time.sleep(0.2); print("done", ${run})`);
      const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>>', timeout: 10_000 });
      expect(r.data.wait, r.text).toMatchObject({ outcome: 'matched' });
      expect(r.data.wait?.alreadyShown).toBeUndefined();
      // The prompt matched is the one after the reply.
      expect(r.data.output).toContain(`done ${run}`);
    }
  }, 60_000);

  // A terminal's rows are read without their trailing blanks; the prompt's own blank (the
  // cursor after it) still counts, as it does on a pipe: a model writes `>>> ` as often as `>>>`.
  it('matches a prompt with its trailing blank, on screen already and after input', async () => {
    const h = harness();
    const id = await replShowingPrompt(h, wiring);
    const onScreen = await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>> $', timeout: 10_000 });
    expect(onScreen.data.wait, onScreen.text).toMatchObject({
      outcome: 'matched',
      match: '>>> ',
      alreadyShown: true,
    });
    await enterLine(h, id, wiring, 'import time; time.sleep(0.2); print("done")');
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>> $', timeout: 10_000 });
    expect(r.data.wait, r.text).toMatchObject({ outcome: 'matched', match: '>>> ' });
    expect(r.data.wait?.alreadyShown).toBeUndefined();
    expect(r.data.output).toContain('done');
  }, 60_000);

  it('matches a prompt whose trailing blank comes in a read after the rest of it', async () => {
    const h = harness();
    const started = await h.exec({ command: `python3 -c "${BLANK_LATER}"`, mode: MODE[wiring] });
    const id = idOf(started);
    await shown(h, id, started, '>>>');
    // The blank is sent once the wait has read the line without it.
    const session = h.sessions.get(id);
    const poll = session.poll.bind(session);
    let polls = 0;
    session.poll = async (options) => {
      const result = await poll(options);
      if (++polls === 1) process.kill(started.data.session!.pid!, 'SIGUSR1');
      return result;
    };
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^>>> $', timeout: 10_000 });
    expect(polls).toBeGreaterThan(1);
    expect(r.data.wait, r.text).toMatchObject({ outcome: 'matched', match: '>>> ' });
    expect(r.text).not.toContain('which an earlier reply returned');
  }, 60_000);

  it('does not match a completed line an earlier reply returned', async () => {
    const h = harness();
    const started = await h.exec({ command: `python3 -c "${TWO_WRITES}"`, mode: MODE[wiring] });
    const id = idOf(started);
    await shown(h, id, started, 'done');
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^done', timeout: 500 });
    expect(r.data.wait?.outcome).toBe('timeout');
  }, 60_000);
});

describe('a full-screen program', () => {
  // Its status row was on the screen exec's reply returned, away from the cursor: the screen
  // as it is now counts, as it does for a person looking at it.
  it('matches what its screen shows now, though an earlier reply showed it', async () => {
    const h = harness();
    const script =
      "printf '\\033[?1049h\\033[H\\033[2Jfirst row of the text\\033[24;1Hstatus: ready\\033[1;1H'; read -r x; printf '\\033[?1049l'";
    const started = await h.exec({ command: script, mode: 'session' });
    const id = idOf(started);
    await shown(h, id, started, 'status: ready');
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^status: \\w+$', timeout: 5_000 });
    expect(r.data.wait).toMatchObject({ outcome: 'matched', alreadyShown: true, match: 'status: ready' });
    expect(r.text).toContain('Matched /^status: \\w+$/ on the screen (already shown).');
    // Text that is nowhere on the screen is still waited for.
    const missing = await h.proc({ action: 'wait_for', session_id: id, pattern: 'not there', timeout: 300 });
    expect(missing.data.wait?.outcome).toBe('timeout');
    await h.proc({ action: 'submit', session_id: id });
    await h.proc({ action: 'wait_for', session_id: id, exit: true, timeout: 20_000 });
  }, 60_000);
});
