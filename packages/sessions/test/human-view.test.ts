// What a person watching or taking over a session relies on: the control lease is enforced on
// every model input path, what they type is never kept, and recordings replay what happened.
import type { ProcessEvent } from '@procmux/core-types';
import { TerminalScreen } from '@procmux/screen';
import { disposeAfterEach, makeWorkspace } from '@procmux/test-utils';
import { OutputTimeline } from '@procmux/transcript';
import { describe, expect, it } from 'vitest';
import {
  createProcessSessions,
  type ProcessSession,
  type ProcessSessions,
  type SessionWatchEvent,
} from '../src/index.js';

const track = disposeAfterEach<ProcessSessions>();

async function screenUntil(session: ProcessSession, pattern: RegExp, deadlineMs = 20_000): Promise<string> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const text = await session.screen();
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`never saw ${pattern} in:\n${text}`);
    await session.poll({ timeoutMs: 1_000 });
  }
}

/** Parses an asciicast v2 file and plays its output into a headless screen of its size. */
async function replay(cast: string): Promise<{ text: string; header: Record<string, unknown> }> {
  const [head, ...lines] = cast.trimEnd().split('\n');
  const header = JSON.parse(head!) as { width: number; height: number };
  const screen = new TerminalScreen({ cols: header.width, rows: header.height });
  let last = 0;
  for (const line of lines) {
    const [time, kind, data] = JSON.parse(line) as [number, string, string];
    expect(time).toBeGreaterThanOrEqual(last);
    last = time;
    if (kind === 'o') screen.feed(data);
    else if (kind === 'r') {
      const [cols, rows] = data.split('x').map(Number);
      screen.resize(cols!, rows!);
    } else throw new Error(`unexpected event kind ${kind}`);
  }
  const text = await screen.renderFull();
  screen.dispose();
  return { text, header };
}

describe('human control', () => {
  it('refuses every model input path while a person holds the keyboard, then gives it back', async () => {
    const events: ProcessEvent[] = [];
    const sessions = track(createProcessSessions({ cwd: makeWorkspace(), onEvent: (e) => events.push(e) }));
    const py = await sessions.start({ command: 'python3', args: ['-i', '-q'], pty: true });
    await screenUntil(py, />>>$/);
    const lease = await py.takeControl({ holder: 'tab 1' });
    expect(py.humanControl).toMatchObject({ holder: 'tab 1' });
    for (const attempt of [
      () => py.input('x'),
      () => py.paste('print(1)'),
      () => py.sendKeys(['C-c']),
      () => py.submit(),
      () => py.closeStdin(),
      () => py.resize!({ columns: 100, rows: 30 }),
    ]) {
      await expect(attempt()).rejects.toMatchObject({
        code: 'ERR_PROCESS_STATE',
        message: expect.stringMatching(/a person \(tab 1\) has control of session proc_/),
      });
    }
    await expect(py.takeControl({ holder: 'someone else' })).rejects.toMatchObject({
      code: 'ERR_PROCESS_STATE',
      message: expect.stringMatching(/tab 1 already has control/),
    });
    await lease.write('print(6*7)\r');
    await screenUntil(py, /^42$/m);
    lease.release();
    lease.release();
    expect(py.humanControl).toBeNull();
    await expect(lease.write('x')).rejects.toMatchObject({ code: 'ERR_PROCESS_STATE' });
    await py.paste('print(5*5)');
    await py.submit();
    await screenUntil(py, /^25$/m);
    const kinds = events.filter((e) => e.type.startsWith('human_')).map((e) => [e.type, e.sessionId]);
    expect(kinds).toEqual([
      ['human_control_started', py.id],
      ['human_control_ended', py.id],
    ]);
    await py.kill();
  });

  it('ends the lease when the session ends, and refuses a lease on an ended session', async () => {
    const events: ProcessEvent[] = [];
    const sessions = track(createProcessSessions({ cwd: makeWorkspace(), onEvent: (e) => events.push(e) }));
    const sh = await sessions.start({ command: 'sleep', args: ['30'], pty: true });
    const lease = await sh.takeControl({ holder: 'viewer' });
    await sh.kill();
    expect(lease.released).toBe(true);
    expect(events.find((e) => e.type === 'human_control_ended')?.reason).toBe('the session ended');
    await expect(sh.takeControl({ holder: 'viewer' })).rejects.toMatchObject({ code: 'ERR_PROCESS_STATE' });
    await expect(sh.takeControl({ holder: '' })).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
  });

  it('never stores, records or reports what a person types with echo off', async () => {
    const events: ProcessEvent[] = [];
    const sessions = track(createProcessSessions({ cwd: makeWorkspace(), onEvent: (e) => events.push(e) }));
    const secret = 'hunter2-s3cr3t';
    const sh = await sessions.start({
      command: 'python3',
      args: ['-q', '-c', 'import getpass; p = getpass.getpass("Password: "); print("length", len(p))'],
      pty: true,
    });
    await screenUntil(sh, /Password:$/);
    const watched: SessionWatchEvent[] = [];
    const stop = sh.watch((e) => watched.push(e));
    const lease = await sh.takeControl({ holder: 'viewer' });
    await lease.write(`${secret}\r`);
    await sh.wait({ timeoutMs: 20_000 });
    stop();
    const everything = [
      await sh.screen(),
      (await sh.log()).text,
      (await sh.output()).data,
      (await sh.poll()).stdout,
      await sh.asciicast(),
      JSON.stringify(events),
      JSON.stringify(watched),
      JSON.stringify(sh.metadata()),
    ].join('\n');
    expect(everything).toContain(`length ${secret.length}`);
    expect(everything).not.toContain(secret);
  });
});

describe('live view plumbing', () => {
  it('a snapshot plus the output watched after it rebuild the screen exactly', async () => {
    const sessions = track(createProcessSessions({ cwd: makeWorkspace() }));
    const py = await sessions.start({
      command: 'python3',
      args: ['-q', '-i'],
      pty: true,
      terminal: { columns: 60, rows: 12 },
    });
    await screenUntil(py, />>>$/);
    await py.paste('for i in range(30): print("\\x1b[32mrow\\x1b[0m", i)');
    await py.submit();
    await py.submit();
    // Subscribe first, snapshot while output is still arriving: nothing lost, nothing twice.
    const events: SessionWatchEvent[] = [];
    const stop = py.watch((e) => events.push(e));
    const snap = await py.snapshot();
    expect(snap.emulated).toBe(true);
    await screenUntil(py, /row 29\n>>>$/);
    const copy = new TerminalScreen({ cols: 60, rows: 12 });
    copy.feed(snap.data);
    for (const e of events) if (e.type === 'output' && e.offset > snap.offset) copy.feed(e.data);
    expect(await copy.renderFull()).toBe(await py.screen());
    copy.dispose();

    await py.resize!({ columns: 70, rows: 14 });
    expect(py.terminalSize).toEqual({ columns: 70, rows: 14 });
    expect(events.at(-1)).toEqual({ type: 'resize', columns: 70, rows: 14 });
    await py.kill();
    expect(events.at(-1)).toEqual({ type: 'state', state: 'killed' });
    stop();
    await expect(Promise.resolve().then(() => py.watch(null as never))).rejects.toMatchObject({
      code: 'ERR_INVALID_OPTION',
    });
  });

  it('a pipe session snapshots its retained output and has no terminal size', async () => {
    const sessions = track(createProcessSessions({ cwd: makeWorkspace() }));
    const job = await sessions.start({ shell: true, command: 'printf "one\\ntwo\\n"' });
    await job.wait({ timeoutMs: 20_000 });
    expect(await job.snapshot()).toMatchObject({ data: 'one\ntwo\n', emulated: false, offset: 8 });
    expect(await job.snapshot({ maxBytes: 4 })).toMatchObject({ data: 'two\n', offset: 8 });
    await expect(job.snapshot({ maxBytes: 0 })).rejects.toMatchObject({ code: 'ERR_INVALID_OPTION' });
    expect(job.terminalSize).toBeUndefined();
  });
});

describe('asciicast recordings', () => {
  it('replays a REPL session to the same final screen, with its timing and resizes', async () => {
    const sessions = track(createProcessSessions({ cwd: makeWorkspace() }));
    const py = await sessions.start({
      command: 'python3',
      args: ['-q', '-i'],
      pty: true,
      terminal: { columns: 80, rows: 10 },
    });
    await screenUntil(py, />>>$/);
    // When each tick reached the host: the recording marks a chunk's time as the chunk arrives,
    // before the session tells its watchers, in the same callback. So the time it records lies
    // between the clock read by the last event-loop turn before that callback (a turn-by-turn
    // reader below) and the clock the watcher reads in it — however long a loaded machine
    // stretches either, and tight on an idle one.
    let lastTurn = Date.now();
    let spinning = true;
    const spin = () => {
      lastTurn = Date.now();
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    let watched = '';
    const arrived: number[] = [];
    const turnBefore: number[] = [];
    const stopWatch = py.watch((event) => {
      if (event.type !== 'output') return;
      watched += event.data;
      if (arrived.length < 2 && watched.includes(`tick ${arrived.length + 1}\r\n`)) {
        arrived.push(Date.now());
        turnBefore.push(lastTurn);
      }
    });
    await py.paste('import time');
    await py.submit();
    await py.paste('for i in range(3): print("tick", i); time.sleep(0.5)');
    await py.submit();
    await py.submit();
    await screenUntil(py, /tick 2\n>>>$/);
    await py.resize!({ columns: 90, rows: 12 });
    await py.paste('print("after resize")');
    await py.submit();
    const final = await screenUntil(py, /^after resize\n>>>$/m);
    const cast = await py.asciicast();
    const { text, header } = await replay(cast);
    expect(header).toMatchObject({ version: 2, width: 80, height: 10, title: py.id });
    expect(text).toBe(final);
    expect(cast).toMatch(/"r","90x12"\]/);
    stopWatch();
    spinning = false;
    // Python may write "tick" and " 1" apart: time each tick by the event that completes it.
    let seen = '';
    const times: number[] = [];
    for (const line of cast.trimEnd().split('\n').slice(1)) {
      const [at, kind, data] = JSON.parse(line) as [number, string, string];
      if (kind !== 'o') continue;
      seen += data;
      if (times.length < 2 && seen.includes(`tick ${times.length + 1}\r\n`)) times.push(at);
    }
    expect(times).toHaveLength(2);
    expect(arrived).toHaveLength(2);
    // The ticks were printed 500 ms apart; each one's recorded time (seconds from the start,
    // to the microsecond) brackets as above. A chunk within 1 ms of the previous mark shares it.
    const recorded = times.map((seconds) => py.startedAt + Math.round(seconds * 1000));
    for (const k of [0, 1]) {
      expect(recorded[k]).toBeGreaterThanOrEqual(turnBefore[k]! - 1);
      expect(recorded[k]).toBeLessThanOrEqual(arrived[k]!);
    }
    await py.kill();
  });

  it('records a pipe session with CR LF so it replays in a terminal', async () => {
    const sessions = track(createProcessSessions({ cwd: makeWorkspace() }));
    const job = await sessions.start({ shell: true, command: 'echo first; sleep 0.2; echo second >&2' });
    await job.wait({ timeoutMs: 20_000 });
    const cast = await job.asciicast();
    const { text, header } = await replay(cast);
    expect(header).toMatchObject({ width: 80, height: 24 });
    expect(text).toBe('first\nsecond');
  });

  it('keeps only output the log still holds when history is capped', async () => {
    const sessions = track(
      createProcessSessions({
        cwd: makeWorkspace(),
        limits: { maxOutputBytes: 1024, maxUndrainedBytes: 1024 },
      }),
    );
    const job = await sessions.start({
      shell: true,
      command: 'for i in $(seq 1 400); do echo "line $i"; done',
    });
    await job.wait({ timeoutMs: 20_000 });
    const cast = await job.asciicast();
    const { text } = await replay(cast);
    expect(text.endsWith('line 400')).toBe(true);
    expect(text).not.toContain('line 1\n');
    expect(Buffer.byteLength(cast)).toBeLessThan(4096);
  });
});

describe('OutputTimeline', () => {
  it('coalesces marks within a millisecond, prunes by offset, and caps the count', () => {
    const t = new OutputTimeline(3);
    t.mark(0, 1000);
    t.mark(5, 1000);
    t.mark(10, 1002);
    t.mark(20, 1004);
    t.mark(30, 1006);
    expect(t.marks()).toEqual([
      [10, 1002],
      [20, 1004],
      [30, 1006],
    ]);
    t.prune(25);
    expect(t.marks()).toEqual([
      [20, 1004],
      [30, 1006],
    ]);
    for (let i = 0; i < 20_000; i++) t.mark(100 + i, 2000 + i);
    expect(t.marks()).toHaveLength(3);
    for (let i = 0; i < 10_005; i++) t.resized(i, 80, 24);
    expect(t.resizes).toHaveLength(10_000);
  });
});
