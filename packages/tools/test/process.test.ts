import { isAlive, waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { closingHarness, type Harness, idOf, lastLine } from './helpers.js';

let h: Harness | undefined;
const harness = closingHarness(() => {
  h = undefined;
});

async function daemon(command: string): Promise<string> {
  return idOf(await h!.exec({ command, mode: 'daemon' }));
}

async function logHas(id: string, lines: number): Promise<void> {
  await waitFor(
    async () => (await h!.sessions.get(id).log({ limit: 1 })).totalLines >= lines,
    10_000,
    `${lines} lines`,
  );
}

describe('process list', () => {
  it('says there are no sessions, and how to start one', async () => {
    h = harness();
    const r = await h.proc({ action: 'list' });
    expect(r.text).toBe('No sessions. Start one with exec (mode session or daemon).');
    expect(r.data.sessions).toEqual([]);
  });

  it('lists every session with its state, pid, wiring and command', async () => {
    h = harness();
    await h.exec({ command: 'exit 2' });
    const id = await daemon('sleep 30');
    const r = await h.proc({ action: 'list' });
    const [title, first, second] = r.text.split('\n');
    expect(title).toBe('2 sessions:');
    expect(first).toMatch(/^- proc_\S+ {2}exited 2 {2}pid \d+ {2}pipes {2}ran \S+ m?s {2}exit 2$/);
    expect(second).toMatch(
      new RegExp(`^- ${id} {2}running {2}pid \\d+ {2}pipes {2}up \\S+ m?s {2}sleep 30$`),
    );
    expect(r.data.sessions?.map((s) => s.state)).toEqual(['exited', 'running']);
  });

  it("shows only the caller's sessions, and another owner's session is off limits", async () => {
    h = harness();
    const mine = idOf(await h.tools.exec.run({ command: 'sleep 30', mode: 'daemon' }, { owner: 'alice' }));
    const theirs = await h.tools.process.run({ action: 'list' }, { owner: 'bob' });
    expect(theirs.text).toContain('No sessions');
    const poll = await h.tools.process.run({ action: 'poll', session_id: mine }, { owner: 'bob' });
    expect(poll.isError).toBe(true);
    expect(poll.text).toMatch(/^Error \[ERR_PROCESS_OWNERSHIP\]: session proc_\S+ belongs to another owner$/);
    const own = await h.tools.process.run({ action: 'list' }, { owner: 'alice' });
    expect(own.text).toContain(mine);
  });
});

describe('process poll', () => {
  it('tells once that a session ended when its end was never shown, with its last lines marked as delivered', async () => {
    h = harness();
    const started = await h.exec({ command: 'seq 1 3; sleep 1', mode: 'daemon' });
    expect(started.text).toMatch(/^1\n2\n3$/m);
    expect(started.text).toMatch(/Process still running\.$/);
    const id = idOf(started);
    // It ends while the model is not looking.
    await h.sessions.get(id).wait({ timeoutMs: 10_000 });
    const first = await h.proc({ action: 'poll', session_id: id });
    expect(first.text).toBe(
      '(no new output: the process has ended. Its last 3 lines, already delivered by an earlier call, not new:)\n' +
        '1\n2\n3\n\nProcess exited with code 0.',
    );
    expect(first.data.alreadyDelivered).toEqual({ offset: 0, count: 3 });
    const again = await h.proc({ action: 'poll', session_id: id });
    expect(again.text).toBe('(no new output)\n\nProcess exited with code 0.');
    expect(again.data.alreadyDelivered).toBeUndefined();
  });

  it('a line shown twice is only ever shown again marked as delivered', async () => {
    h = harness({ startupWaitMs: 0 });
    const id = await daemon('sleep 0.3; echo last');
    const r = await h.proc({ action: 'poll', session_id: id, timeout: 10_000 });
    expect(r.text).toMatch(/^last$/m);
    if (!r.text.includes('exited')) {
      // It ended after this poll: the next one says so, the line marked as delivered before.
      const end = await h.proc({ action: 'poll', session_id: id, timeout: 10_000 });
      expect(end.data.alreadyDelivered).toEqual({ offset: 0, count: 1 });
    }
    const after = await h.proc({ action: 'poll', session_id: id });
    expect(after.text).toBe('(no new output)\n\nProcess exited with code 0.');
  });
  it('returns as soon as output arrives, long before the timeout', async () => {
    h = harness({ startupWaitMs: 0 });
    const id = await daemon('sleep 0.3; echo late; sleep 30');
    const r = await h.proc({ action: 'poll', session_id: id, timeout: 100_000 });
    expect(r.text).toBe('late\n\nProcess still running.');
  });

  it('returns as soon as the process exits', async () => {
    h = harness({ startupWaitMs: 0 });
    const id = await daemon('sleep 0.3; exit 4');
    const r = await h.proc({ action: 'poll', session_id: id, timeout: 100_000 });
    expect(r.text).toBe('(no new output)\n\nProcess exited with code 4.');
  });

  it('returns only what is new since the previous read, stderr under its own marker', async () => {
    h = harness({ startupWaitMs: 0 });
    const id = await daemon('sleep 0.2; echo one; sleep 1; echo two; echo bad >&2; sleep 30');
    const first = await h.proc({ action: 'poll', session_id: id, timeout: 10_000 });
    expect(first.text).toBe('one\n\nProcess still running.');
    const r = await h.proc({ action: 'poll', session_id: id, timeout: 10_000 });
    expect(r.text).toBe('two\n[stderr]\nbad\n\nProcess still running.');
    const again = await h.proc({ action: 'poll', session_id: id });
    expect(again.text).toBe('(no new output)\n\nProcess still running.');
  });

  it('clamps a timeout above 120000 ms and says so', async () => {
    h = harness({ startupWaitMs: 0 });
    const id = await daemon('sleep 0.2; echo done; sleep 30');
    const r = await h.proc({ action: 'poll', session_id: id, timeout: 500_000 });
    expect(r.text).toBe(
      'done\n\n(timeout 500000 ms is outside 0-120000 ms, so it was clamped: waited up to 120000 ms.)\nProcess still running.',
    );
    expect(r.data.timeout).toEqual({ requested: 500_000, used: 120_000 });
  });

  it('clamps a negative timeout to 0 and returns at once', async () => {
    h = harness();
    const id = await daemon('sleep 30');
    const r = await h.proc({ action: 'poll', session_id: id, timeout: -50 });
    expect(r.text).toContain(
      '(timeout -50 ms is outside 0-120000 ms, so it was clamped: waited up to 0 ms.)',
    );
    expect(r.data.timeout).toEqual({ requested: -50, used: 0 });
  });

  it('refuses a timeout that is not a number', async () => {
    h = harness();
    const id = await daemon('sleep 30');
    const r = await h.tools.process.run({ action: 'poll', session_id: id, timeout: '2s' });
    expect(r.isError).toBe(true);
    expect(r.text).toBe('Error [ERR_INVALID_OPTION]: timeout must be a number of milliseconds (got "2s")');
  });

  it('stops waiting when the caller aborts', async () => {
    h = harness();
    const id = await daemon('sleep 30');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const r = await h.tools.process.run(
      { action: 'poll', session_id: id, timeout: 100_000 },
      { signal: controller.signal },
    );
    expect(r.text).toBe('(no new output)\n\nCancelled while waiting.\nProcess still running.');
  });

  it('says how to page a cut poll from the log', async () => {
    h = harness({ outputBudget: 1_000, startupWaitMs: 0 });
    const id = await daemon('sleep 0.2; seq 1 3000; sleep 30');
    const r = await h.proc({ action: 'poll', session_id: id, timeout: 10_000 });
    expect(r.text.length).toBeLessThanOrEqual(1_000);
    const offset = Number(/offset=(\d+)/.exec(r.text)![1]);
    const page = await h.proc({ action: 'log', session_id: id, offset, limit: 1 });
    expect(page.text.split('\n')[0]).toBe(String(r.data.cut!.firstOmittedLine));
  });
});

describe('process log', () => {
  it('returns the last 200 lines by default and says how to see earlier ones', async () => {
    h = harness();
    const id = await daemon('seq 1 500; sleep 30');
    await logHas(id, 500);
    const r = await h.proc({ action: 'log', session_id: id });
    const lines = r.text.split('\n');
    expect(lines[0]).toBe('301');
    expect(lines[199]).toBe('500');
    expect(r.text).toContain(
      `(Showing the last 200 lines: lines 301-500 of 500. Earlier lines: process action=log session_id=${id} offset=100 limit=200; offset 0 is the first line.)`,
    );
    expect(r.data.lines).toEqual({ offset: 300, count: 200, total: 500, next: { offset: 100, limit: 200 } });
  });

  it('limit without offset is the last `limit` lines, as the schema says', async () => {
    h = harness();
    const id = await daemon('seq 1 500; sleep 30');
    await logHas(id, 500);
    const r = await h.proc({ action: 'log', session_id: id, limit: 3 });
    expect(r.text.split('\n').slice(0, 3)).toEqual(['498', '499', '500']);
    expect(r.text).toContain('offset=494 limit=3');
    const schema = h.tools.process.parameters as { properties: Record<string, { description: string }> };
    expect(schema.properties.offset!.description).toContain(
      'Without offset, log returns the last `limit` lines',
    );
  });

  it('never cuts a page inside: it is shortened to whole lines and the footer names them and the next call', async () => {
    h = harness({ outputBudget: 4_000 });
    const id = await daemon('seq 1 20000; sleep 30');
    await logHas(id, 20_000);
    const r = await h.proc({ action: 'log', session_id: id, offset: 12_585, limit: 5_000 });
    expect(r.text.length).toBeLessThanOrEqual(4_000);
    expect(r.text).not.toContain('left out');
    const { count, next } = r.data.lines!;
    const shown = r.text.split('\n').slice(0, count);
    expect(shown[0]).toBe('12586');
    expect(shown.at(-1)).toBe(String(12_585 + count));
    expect(r.text).toContain(`(Lines 12,586-${(12_585 + count).toLocaleString('en-US')} of 20,000.`);
    expect(r.text).toContain('The 5,000-line page was shortened');
    expect(next).toEqual({ offset: 12_585 + count, limit: count });
    expect(r.text).toContain(
      `Next: process action=log session_id=${id} offset=${next!.offset} limit=${next!.limit}.)`,
    );
    // Following the footer reads on with no line skipped.
    const following = await h.proc({ action: 'log', session_id: id, ...next });
    expect(following.text.split('\n')[0]).toBe(String(12_586 + count));
    expect(following.data.lines!.count).toBe(count);
  });

  it('pages by offset and limit, and says where an offset past the end is', async () => {
    h = harness();
    const id = await daemon('seq 1 500; sleep 30');
    await logHas(id, 500);
    const r = await h.proc({ action: 'log', session_id: id, offset: 0, limit: 3 });
    expect(r.text).toBe(
      `1\n2\n3\n\n(Lines 1-3 of 500. Next: process action=log session_id=${id} offset=3 limit=3.)\nProcess still running.`,
    );
    const end = await h.proc({ action: 'log', session_id: id, offset: 498 });
    expect(end.text).toBe(
      '499\n500\n\n(Lines 499-500 of 500. That is the end of the log.)\nProcess still running.',
    );
    const past = await h.proc({ action: 'log', session_id: id, offset: 900 });
    expect(past.text).toContain('(offset 900 is past the end: the log has 500 lines.)');
    const bad = await h.tools.process.run({ action: 'log', session_id: id, limit: 0 });
    expect(bad.text).toBe('Error [ERR_INVALID_OPTION]: limit must be an integer from 1 to 100000 (got 0)');
  });

  it('says exactly how many lines the history cap dropped, and pages from the oldest line kept', async () => {
    h = harness({}, { limits: { maxOutputBytes: 100_000 } });
    const id = await daemon('seq 1 100000; sleep 30');
    await logHas(id, 100_000);
    const r = await h.proc({ action: 'log', session_id: id, offset: 0, limit: 2 });
    const { offset } = r.data.lines!;
    expect(offset).toBeGreaterThan(0);
    expect(r.text).toContain(`(The history cap dropped the first ${offset.toLocaleString('en-US')} lines (`);
    expect(r.text).toContain(`line ${(offset + 1).toLocaleString('en-US')} is the oldest still kept.)`);
    expect(r.text.split('\n').slice(0, 2)).toEqual([String(offset + 1), String(offset + 2)]);
  });

  it('says when there is no output yet', async () => {
    h = harness();
    const id = await daemon('sleep 30');
    const r = await h.proc({ action: 'log', session_id: id });
    expect(r.text).toBe('(no output yet)\n\nProcess still running.');
  });
});

/** A live session's state line: running, or waiting for input. */
const LIVE = /^Process (still running|is waiting for input.*)\.?$/;

describe('process input', () => {
  it('writes raw data to a daemon and closes its stdin', async () => {
    h = harness();
    const id = await daemon('cat');
    const w = await h.proc({ action: 'write', session_id: id, data: 'hello\n' });
    // cat sits in a read of its stdin: the state line may already say so (Linux).
    expect(w.text.split('\n')[0]).toBe(`Wrote 6 bytes to ${id}.`);
    expect(lastLine(w.text)).toMatch(LIVE);
    const got = await h.proc({ action: 'wait_for', session_id: id, pattern: 'hello' });
    expect(got.text.startsWith('hello\n')).toBe(true);
    const c = await h.proc({ action: 'close_stdin', session_id: id });
    expect(c.text.split('\n')[0]).toBe(`Closed stdin of ${id}: it reads end of input now.`);
    const end = await h.proc({ action: 'wait_for', session_id: id, exit: true });
    expect(lastLine(end.text)).toBe('Process exited with code 0.');
  });

  it('pastes into a REPL, submits, and the result can be polled', async () => {
    h = harness();
    const id = idOf(await h.exec({ command: 'python3 -i', mode: 'session' }));
    const p = await h.proc({ action: 'paste', session_id: id, text: 'print(6 * 7)' });
    expect(p.text.split('\n')[0]).toBe(`Pasted 12 characters into ${id}; not submitted yet (use submit).`);
    // The REPL still sits at its prompt, reading: the state line may say so (Linux).
    expect(lastLine(p.text)).toMatch(LIVE);
    const s = await h.proc({ action: 'submit', session_id: id });
    expect(s.text).toBe(`Pressed Enter in ${id}.\nProcess still running.`);
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^42$' });
    expect(r.data.wait?.outcome).toBe('matched');
    expect(r.text).toContain('print(6 * 7)\n42\n');
  });

  it('refuses bracketed paste on a pipe session', async () => {
    h = harness();
    const id = await daemon('cat');
    const r = await h.tools.process.run({ action: 'paste', session_id: id, text: 'x', bracketed: true });
    expect(r.isError).toBe(true);
    expect(r.text.split('\n')[0]).toBe(
      'Error [ERR_INVALID_OPTION]: bracketed must be false or left out for a pipe session (bracketed paste needs a PTY) (got true)',
    );
    expect(lastLine(r.text)).toMatch(LIVE);
  });

  it('interrupts a terminal program with C-c', async () => {
    h = harness();
    const id = idOf(await h.exec({ command: 'sleep 30', mode: 'session' }));
    const r = await h.proc({ action: 'send_keys', session_id: id, keys: ['C-c'] });
    expect(r.text).toMatch(new RegExp(`^Sent C-c to ${id}\\.\n`));
    const end = await h.proc({ action: 'wait_for', session_id: id, exit: true });
    expect(lastLine(end.text)).toBe('Process killed by SIGINT.');
  });

  it('warns that C-c on pipes interrupts nothing', async () => {
    h = harness();
    const id = await daemon('sleep 30');
    const r = await h.proc({ action: 'send_keys', session_id: id, keys: 'C-c' });
    expect(r.text).toBe(
      `Sent C-c to ${id}.\n(${id} runs on pipes, not a terminal: C-c arrived as plain bytes and interrupts nothing. Use kill to stop it.)\nProcess still running.`,
    );
  });

  it('names an unknown key', async () => {
    h = harness();
    const id = idOf(await h.exec({ command: 'sleep 30', mode: 'session' }));
    const r = await h.tools.process.run({ action: 'send_keys', session_id: id, keys: ['Ctrl+C'] });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Error \[ERR_INVALID_KEY\]: .*Ctrl\+C/);
    expect(lastLine(r.text)).toBe('Process still running.');
  });

  it('refuses input to a session that ended, with its state', async () => {
    h = harness();
    const id = idOf(await h.exec({ command: 'echo x' }));
    const r = await h.tools.process.run({ action: 'write', session_id: id, data: 'y' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Error \[ERR_PROCESS_STATE\]: .*\n\nProcess exited with code 0\.$/);
    expect(r.data.session?.id).toBe(id);
  });
});

describe('process kill', () => {
  it('kills the whole tree', async () => {
    h = harness();
    const r = await h.exec({ command: 'sleep 30 & sleep 30 & echo started; wait', mode: 'daemon' });
    const id = idOf(r);
    const pid = r.data.session!.pid!;
    const k = await h.proc({ action: 'kill', session_id: id });
    expect(k.text).toMatch(
      new RegExp(`^Killed ${id} and every process it started\\.\nProcess killed by SIG[A-Z]+\\.$`),
    );
    expect(isAlive(pid)).toBe(false);
  });

  it('is not an error when the session already ended', async () => {
    h = harness();
    const id = idOf(await h.exec({ command: 'exit 1' }));
    const r = await h.proc({ action: 'kill', session_id: id });
    expect(r.text).toBe(`${id} had already ended; nothing to kill.\nProcess exited with code 1.`);
  });
});

describe('process states and errors', () => {
  it('tells a model how to recover from an unknown session id', async () => {
    h = harness();
    const r = await h.tools.process.run({ action: 'poll', session_id: 'proc_nope' });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'Error [ERR_PROCESS_NOT_FOUND]: no session with id proc_nope\nUse process action=list to see the sessions you can use.',
    );
  });

  it.each([
    [
      {},
      'action is required; one of: list, poll, log, write, paste, submit, send_keys, close_stdin, kill, wait_for',
    ],
    [{ action: 'read' }, 'action must be one of list, poll, log'],
    [{ action: 'poll' }, 'session_id is required'],
    [{ action: 'list', session_id: 'x' }, 'session_id does not apply to action list; it takes action'],
    [
      { action: 'submit', session_id: 'x', text: 'hi' },
      'text does not apply to action submit; it takes action, session_id (submit only presses Enter: type the line first with paste {session_id, text}, then submit)',
    ],
    [{ action: 'write', session_id: 'x' }, 'data is required'],
    [{ action: 'paste', session_id: 'x', text: 5 }, 'text must be a string (got 5)'],
    [
      { action: 'send_keys', session_id: 'x', keys: [] },
      'keys must be a non-empty array of non-empty strings',
    ],
    [
      { action: 'poll', session_id: 'x', sessionId: 'x' },
      'pass session_id or its old name sessionId, not both',
    ],
    [{ action: 'poll', session: 'x' }, 'unknown parameter "session" for process'],
  ])('refuses %o with an error text', async (params, message) => {
    h = harness();
    const r = await h.tools.process.run(params);
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`Error [ERR_INVALID_OPTION]: ${message}`);
  });

  it('reports a released session, which procmux no longer tracks', async () => {
    h = harness();
    const r = await h.exec({ command: 'sleep 30', mode: 'daemon' });
    const id = idOf(r);
    const pid = r.data.session!.pid!;
    await h.sessions.get(id).release();
    try {
      const list = await h.proc({ action: 'list' });
      expect(list.text).toContain(`${id}  released`);
      const poll = await h.tools.process.run({ action: 'poll', session_id: id });
      expect(poll.isError).toBe(true);
      expect(lastLine(poll.text)).toBe(
        'Process released: procmux no longer tracks it, and it may still be running.',
      );
    } finally {
      process.kill(-pid, 'SIGKILL');
      await waitFor(() => !isAlive(pid), 5_000, 'the released process to die');
    }
  });

  it('reports a session whose fate is unknown', async () => {
    h = harness();
    const id = await daemon('sleep 30');
    h.sessions.markUnknown(id);
    const r = await h.proc({ action: 'poll', session_id: id });
    expect(lastLine(r.text)).toBe(
      'Process state unknown: procmux lost track of it, so how it ended is not known.',
    );
  });

  it('reports a session that outlived its lifetime', async () => {
    h = harness();
    const session = await h.sessions.start({ shell: true, command: 'sleep 30', lifetimeMs: 100 });
    // Expired on the first access past its lifetime: poll until that one comes.
    let r = await h.proc({ action: 'poll', session_id: session.id });
    while (session.state === 'running') r = await h.proc({ action: 'poll', session_id: session.id });
    expect(lastLine(r.text)).toBe('Process expired: it reached its lifetime limit and was killed.');
  });

  it('turns an unexpected failure into an error text', async () => {
    const tools = (await import('../src/index.js')).createProcessTools({
      start: () => Promise.reject(new TypeError('backend exploded')),
      get: () => {
        throw 'not an Error';
      },
      list: () => [],
    });
    const r = await tools.exec.run({ command: 'ls' });
    expect(r).toMatchObject({ isError: true, text: 'Error [ERR_INTERNAL]: backend exploded' });
    const p = await tools.process.run({ action: 'kill', session_id: 'x' });
    expect(p.text).toBe('Error [ERR_INTERNAL]: not an Error');
    expect(p.data).toMatchObject({ tool: 'process', action: 'kill', error: { code: 'ERR_INTERNAL' } });
  });
});
