import type { PollResult } from '@procmux/sessions';
import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DAEMON_SETTLE_MS, DAEMON_STARTUP, STARTUP_SETTLE } from '../src/exec-tool.js';
import {
  formatStreams,
  type GatherOptions,
  gather,
  MAX_GATHER_CHARS,
  OutputGatherer,
} from '../src/gather.js';
import { compilePattern } from '../src/pattern.js';
import { TypedEcho } from '../src/typed-echo.js';
import type { ToolSession } from '../src/types.js';

const poll = (stdout: string, stderr = '', droppedBytes = 0): PollResult => ({
  stdout,
  stderr,
  droppedBytes,
  state: 'running',
  exitCode: null,
  signal: null,
});

describe('OutputGatherer', () => {
  it('adds polls per stream and counts bytes the session dropped', async () => {
    const g = new OutputGatherer();
    expect(g.add(poll(''))).toBe(false);
    expect(g.add(poll('a', 'b', 7))).toBe(true);
    expect(g.add(poll('c', '', 3))).toBe(true);
    expect(g.stdout).toBe('ac');
    expect(g.stderr).toBe('b');
    expect(g.droppedBytes).toBe(10);
  });

  it('finds a match split across two chunks, and never the same text twice', async () => {
    const g = new OutputGatherer();
    g.add(poll('server listen'));
    expect(await g.search(compilePattern('listening on port \\d+'))).toBeUndefined();
    g.add(poll('ing on port 8080\n'));
    expect(await g.search(compilePattern('listening on port \\d+'))).toBe('listening on port 8080');
  });

  // A terminal's output comes without its rows' trailing blanks; the poll's current line keeps
  // those before the cursor. A pipe's text already ends with its whole line.
  it("matches the current line's blanks a terminal's text leaves out, and nowhere else", async () => {
    const line = (stdout: string, current: string): PollResult => ({
      ...poll(stdout),
      currentLine: { stdout: current, stderr: '' },
    });
    // What wait_for does with its first poll.
    const first = (gatherer: OutputGatherer, result: PollResult) => {
      gatherer.add(result);
      gatherer.carryLine(result);
    };
    const g = new OutputGatherer();
    first(g, line('>>', '>> '));
    expect(await g.find(compilePattern('^>> $'))).toEqual({ text: '>> ', shown: false });
    // The line began in an earlier reply (`>`), the rest came now: searched as one line.
    const split = new OutputGatherer();
    first(split, line('>', '>>> '));
    expect(await split.find(compilePattern('^>>> $'))).toEqual({ text: '>>> ', shown: false });
    // All of it shown before: matched as already shown.
    const shown = new OutputGatherer();
    first(shown, line('', '>>> '));
    expect(await shown.find(compilePattern('^>>> $'))).toEqual({ text: '>>> ', shown: true });
    // The text does not end with the line (the cursor is elsewhere): no blanks added.
    const elsewhere = new OutputGatherer();
    elsewhere.add(line('out\n>>>\nmore', '>>> '));
    expect(await elsewhere.find(compilePattern('>>> '))).toBeUndefined();
    // A pipe's: the text ends with the whole line, blanks and all, matched once.
    const pipe = new OutputGatherer();
    pipe.add(line('a\nname? ', 'name? '));
    expect(await pipe.find(compilePattern('name\\? $'))).toEqual({ text: 'name? ', shown: false });
    // Blanks move with the line: none once it ended and the cursor stands on an empty one.
    g.add(line('x\n', ''));
    expect(await g.find(compilePattern('^ $'))).toBeUndefined();
  });

  it('searches stderr too', async () => {
    const g = new OutputGatherer();
    g.add(poll('fine', 'Error: boom'));
    expect(await g.search(compilePattern('Error: \\w+'))).toBe('Error: boom');
  });

  it('keeps at most MAX_GATHER_CHARS per stream, dropping the oldest and counting it', async () => {
    const g = new OutputGatherer();
    g.add(poll('x'.repeat(MAX_GATHER_CHARS)));
    g.add(poll('é'.repeat(10)));
    expect(g.stdout.length).toBe(MAX_GATHER_CHARS);
    expect(g.stdout.endsWith('é'.repeat(10))).toBe(true);
    expect(g.trimmedBytes).toBe(10);
  });

  it('does not split a surrogate pair when it drops the oldest text', async () => {
    const g = new OutputGatherer();
    g.add(poll('😀'.repeat(MAX_GATHER_CHARS / 2)));
    g.add(poll('z'));
    expect(g.stdout.charCodeAt(0)).not.toBe(0xde00);
    expect(g.stdout.codePointAt(0)).toBe('😀'.codePointAt(0));
  });

  it('still finds a match after old text was dropped', async () => {
    const g = new OutputGatherer();
    g.add(poll('x'.repeat(MAX_GATHER_CHARS - 5)));
    expect(await g.search(compilePattern('ready'))).toBeUndefined();
    g.add(poll('abc ready\n'));
    expect(await g.search(compilePattern('ready'))).toBe('ready');
  });
});

describe('OutputGatherer over a flood (its text kept as pieces, searched in windows)', () => {
  const MARK = /MARK\d+/;
  const OVERLAP = 4_096;

  it('finds what a search of the whole kept text from where the last one stopped finds, past the cap too', async () => {
    const polls = fc.array(
      fc.record({
        size: fc.integer({ min: 1, max: 250_000 }),
        lines: fc.boolean(),
        mark: fc.option(fc.nat(), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 14 },
    );
    await fc.assert(
      fc.asyncProperty(polls, async (steps) => {
        const g = new OutputGatherer();
        for (const [index, step] of steps.entries()) {
          const filler = (step.lines ? 'ab\n' : 'x').repeat(step.size).slice(0, step.size);
          const at = (step.mark ?? 0) % step.size;
          const chunk =
            step.mark === undefined ? filler : `${filler.slice(0, at)}MARK${index}${filler.slice(at)}`;
          const before = g.searched.length;
          g.add(poll(chunk));
          const now = g.searched;
          const cut = before + chunk.length - now.length;
          const from = Math.max(0, before - cut - OVERLAP);
          const expected = MARK.exec(now.slice(from))?.[0];
          expect(await g.search(compilePattern(MARK.source))).toBe(expected);
          expect(now.length).toBeLessThanOrEqual(MAX_GATHER_CHARS);
        }
      }),
      { numRuns: propertyRuns(40) },
    );
  });

  it("keeps the echo of what was typed out of a match, found in the text's head or, unsettled there, in the whole", async () => {
    // Settled in the head: the echo line is complete; the program's own line with the same
    // text, a flood later, is found.
    const echo = new TypedEcho();
    echo.typed('print("x")\n');
    const g = new OutputGatherer(echo);
    const pattern = compilePattern('print\\("x"\\)');
    g.add(poll('>>> print("x")\r\n'));
    expect(await g.search(pattern)).toBeUndefined();
    for (let i = 0; i < 5; i++) {
      g.add(poll('filler line\n'.repeat(10_000)));
      expect(await g.search(pattern)).toBeUndefined();
    }
    g.add(poll('print("x")\n'));
    expect(await g.search(pattern)).toBe('print("x")');

    // Unsettled in the head: the second typed line's echo starts past the head's end.
    const two = new TypedEcho();
    two.typed('first\nsecond\n');
    const h = new OutputGatherer(two);
    h.add(poll(`$ first\n${'.'.repeat(70_000)}> second\nxsecond\n`));
    // Unmasked, the echo's ' second' would match first.
    expect((await h.find(compilePattern('.second')))?.text).toBe('xsecond');
  });
});

describe('formatStreams', () => {
  it('puts stderr after stdout under a marker, only when there is any', () => {
    expect(formatStreams('out\n', '')).toBe('out\n');
    expect(formatStreams('', 'err\n')).toBe('[stderr]\nerr\n');
    expect(formatStreams('out', 'err')).toBe('out\n[stderr]\nerr');
    expect(formatStreams('out\n', 'err')).toBe('out\n[stderr]\nerr');
  });
});

/**
 * What the program does at `at` ms: writes `text` ('' for output that draws nothing, which still
 * ends a poll), and with `waiting` is seen waiting for input from then on.
 */
interface Piece {
  at: number;
  text: string;
  waiting?: boolean;
}

/**
 * A session whose program writes `text` at `at` ms on the fake clock: a poll returns what was
 * written by its end, as soon as something was, else after its timeout.
 */
function scripted(pieces: Piece[], ask?: { waitsAfter: number }): ToolSession {
  const left = [...pieces];
  let input: { echo: boolean; prompt: string } | null = null;
  const session = {
    metadata: () => ({ input }),
    // A fresh check (checkInput) finds the program waiting once the clock passed `waitsAfter`.
    ...(ask && {
      checkInput: vi.fn(async () => {
        if (Date.now() >= ask.waitsAfter) input = { echo: true, prompt: '>>>' };
        return input;
      }),
    }),
    poll: ({ timeoutMs = 0 }: { timeoutMs?: number } = {}) =>
      new Promise<PollResult>((resolve) => {
        const next = left[0];
        const wait = next === undefined ? timeoutMs : Math.min(timeoutMs, Math.max(0, next.at - Date.now()));
        setTimeout(() => {
          let stdout = '';
          while (left.length > 0 && left[0]!.at <= Date.now()) {
            const piece = left.shift()!;
            stdout += piece.text;
            if (piece.waiting) input = { echo: true, prompt: piece.text.trimEnd() };
          }
          resolve(poll(stdout));
        }, wait);
      }),
  };
  return session as unknown as ToolSession;
}

/** gather() on the fake clock, to its end. */
async function gathered(pieces: Piece[], options: GatherOptions) {
  const result = gather(scripted(pieces), options);
  await vi.runAllTimersAsync();
  const got = await result;
  return { text: got.output.stdout, end: got.end, waitedMs: got.waitedMs };
}

// A daemon's start as exec gathers it, on a fake clock: what the settle decides depends on time
// alone, so a test of it on real processes fails whenever the machine is slow.
describe("gather: a daemon's start (exec's DAEMON_STARTUP)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const startup = { waitMs: 10_000, ...DAEMON_STARTUP };

  it('a silent daemon returns once quiet for DAEMON_SETTLE_MS, not after the whole startup wait', async () => {
    expect(await gathered([], startup)).toEqual({ text: '', end: 'quiet', waitedMs: DAEMON_SETTLE_MS });
  });

  // After output, the daemon's quiet (shorter than the startup settle's) is what ends the call.
  it('early output shows, and the call returns once it paused for DAEMON_SETTLE_MS', async () => {
    const got = await gathered([{ at: DAEMON_SETTLE_MS - 50, text: 'listening on 8080\n' }], startup);
    expect(got).toEqual({
      text: 'listening on 8080\n',
      end: 'settled',
      waitedMs: DAEMON_SETTLE_MS - 50 + DAEMON_SETTLE_MS,
    });
  });

  it('a burst is read whole: pieces closer than DAEMON_SETTLE_MS come back together', async () => {
    const pieces = [
      { at: 10, text: 'a\n' },
      { at: 10 + DAEMON_SETTLE_MS - 1, text: 'b\n' },
      { at: 10 + 2 * DAEMON_SETTLE_MS - 2, text: 'c\n' },
    ];
    expect((await gathered(pieces, startup)).text).toBe('a\nb\nc\n');
  });

  it('a pause as long as DAEMON_SETTLE_MS ends the call; what comes later is left for the next read', async () => {
    const pieces = [
      { at: 10, text: 'a\n' },
      { at: 10 + DAEMON_SETTLE_MS + 1, text: 'b\n' },
    ];
    expect(await gathered(pieces, startup)).toEqual({
      text: 'a\n',
      end: 'settled',
      waitedMs: 10 + DAEMON_SETTLE_MS,
    });
  });

  it('a daemon that never pauses returns STARTUP_SETTLE.maxMs after its first output', async () => {
    const pieces = Array.from({ length: 100 }, (_, i) => ({ at: 5 + i * 100, text: `${i}\n` }));
    const got = await gathered(pieces, startup);
    expect(got.end).toBe('settled');
    expect(got.waitedMs).toBe(5 + STARTUP_SETTLE.maxMs);
    expect(got.text.split('\n')).toHaveLength(STARTUP_SETTLE.maxMs / 100 + 2);
  });

  it('nothing comes and the wait is shorter than the quiet: the wait ends it', async () => {
    expect(await gathered([], { ...startup, waitMs: DAEMON_SETTLE_MS - 100 })).toEqual({
      text: '',
      end: 'timeout',
      waitedMs: DAEMON_SETTLE_MS - 100,
    });
  });
});

// A REPL's start as exec gathers it (STARTUP_SETTLE), and a poll's burst: a poll that ends with
// nothing to show is not the pause the settle waits for; a program waiting for input is.
describe("gather: an interactive program's burst (exec's STARTUP_SETTLE)", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  const startup = { waitMs: 10_000, settle: STARTUP_SETTLE };

  it('output that draws nothing does not end the call: the rest of the burst comes with it', async () => {
    const pieces = [
      { at: 100, text: 'Python 3\n' },
      { at: 110, text: '' },
      { at: 300, text: '>>> ' },
    ];
    expect(await gathered(pieces, startup)).toEqual({
      text: 'Python 3\n>>> ',
      end: 'settled',
      waitedMs: 300 + STARTUP_SETTLE.quietMs,
    });
  });

  it('a program seen waiting for input ends the call then, without the quiet period', async () => {
    const pieces = [
      { at: 100, text: 'Python 3\n>>> ' },
      { at: 130, text: '', waiting: true },
    ];
    expect(await gathered(pieces, startup)).toEqual({
      text: 'Python 3\n>>> ',
      end: 'settled',
      waitedMs: 130,
    });
  });

  it("a burst that ends by its pause asks the input state afresh, for the reply's state line", async () => {
    const session = scripted([{ at: 100, text: 'Python 3\n>>> ' }], { waitsAfter: 150 });
    const result = gather(session, startup);
    await vi.runAllTimersAsync();
    const got = await result;
    expect(got).toMatchObject({ end: 'settled', waitedMs: 100 + STARTUP_SETTLE.quietMs });
    expect(session.checkInput).toHaveBeenCalledTimes(1);
    expect(session.metadata().input).toEqual({ echo: true, prompt: '>>>' });
    // Ended by the input state itself, or by the caller's wait: no extra check.
    const seen = scripted(
      [
        { at: 100, text: '>>> ' },
        { at: 120, text: '', waiting: true },
      ],
      { waitsAfter: 0 },
    );
    const early = gather(seen, startup);
    await vi.runAllTimersAsync();
    expect((await early).end).toBe('settled');
    expect(seen.checkInput).not.toHaveBeenCalled();
    const silent = scripted([], { waitsAfter: 0 });
    const timedOut = gather(silent, { ...startup, waitMs: 300 });
    await vi.runAllTimersAsync();
    expect((await timedOut).end).toBe('timeout');
    expect(silent.checkInput).not.toHaveBeenCalled();
  });

  it('a program still writing when first seen waiting is read on until it pauses', async () => {
    // The state is from before the last output: the call goes on until a poll brings nothing.
    const pieces = [
      { at: 100, text: 'a\n', waiting: true },
      { at: 150, text: 'b\n' },
    ];
    expect(await gathered(pieces, startup)).toEqual({
      text: 'a\nb\n',
      end: 'settled',
      waitedMs: 150 + STARTUP_SETTLE.quietMs,
    });
  });
});
