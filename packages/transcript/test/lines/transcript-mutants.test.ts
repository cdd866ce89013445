// The transcript's pure edges, pinned exactly: the log window's bounds, the plain chunks of a
// pipe session's history and the paging of a transcript. Kept apart from the suites on real
// sessions so it moves with the transcript files (stryker.config.mjs runs it).

import { isProcmuxError } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { logWindow, pageTranscript, transcriptChunks } from '../../src/lines/transcript.js';
import { type Checkpoint, walkTranscript } from '../../src/lines/transcript-walk.js';
import { OutputLog } from '../../src/log/output-log.js';

function refusedBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    return error as Error;
  }
  throw new Error('expected a refusal');
}

async function collect(chunks: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

async function* from(...chunks: string[]): AsyncIterable<string> {
  yield* chunks;
}

describe('logWindow', () => {
  it('takes the last 200 lines by default; null counts as absent', () => {
    expect(logWindow({})).toEqual({ limit: 200, offset: undefined });
    expect(logWindow({ limit: null as never, offset: undefined })).toEqual({ limit: 200, offset: undefined });
    expect(logWindow({ offset: null as never })).toEqual({ limit: 200, offset: 0 });
  });

  it('takes a limit of 1 to 100,000 and an offset from 0, naming the bounds it refuses', () => {
    expect(logWindow({ limit: 1, offset: 0 })).toEqual({ limit: 1, offset: 0 });
    expect(logWindow({ limit: 100_000, offset: Number.MAX_SAFE_INTEGER })).toEqual({
      limit: 100_000,
      offset: Number.MAX_SAFE_INTEGER,
    });
    expect(refusedBy(() => logWindow({ limit: 0 })).message).toMatch(
      /^limit must be an integer from 1 to 100000/,
    );
    expect(refusedBy(() => logWindow({ limit: 100_001 })).message).toMatch(/^limit /);
    expect(refusedBy(() => logWindow({ offset: -1 })).message).toMatch(
      /^offset must be an integer from 0 to /,
    );
    expect(refusedBy(() => logWindow({ offset: 1.5 })).message).toMatch(/^offset /);
  });
});

describe('transcriptChunks (a pipe session)', () => {
  it('strips the history page by page and yields no empty piece', async () => {
    const log = new OutputLog();
    log.append('stdout', 'one\n\x1b[31mtwo\x1b[0m\n');
    log.append('stderr', '\x1b[1m');
    log.append('stdout', 'three');
    const pieces = await collect(transcriptChunks(log, undefined, 4));
    expect(pieces.join('')).toBe('one\ntwo\nthree');
    expect(pieces.every((piece) => piece !== '')).toBe(true);
    expect(pieces.length).toBeGreaterThan(2);
  });

  it('gives what the stripper held back at the end of the history', async () => {
    const log = new OutputLog();
    log.append('stdout', 'done\x1b');
    expect((await collect(transcriptChunks(log, undefined, 1024))).join('')).toBe('done');
    const empty = new OutputLog();
    expect(await collect(transcriptChunks(empty, undefined, 1024))).toEqual([]);
  });

  it("is the screen's full render, and nothing else, when there is a screen", async () => {
    const log = new OutputLog();
    log.append('stdout', 'bytes the screen already holds');
    const screen = { renderFull: async () => 'rendered' } as never;
    expect(await collect(transcriptChunks(log, screen, 1024))).toEqual(['rendered']);
  });
});

describe('pageTranscript', () => {
  it('pages the last lines, counting an unfinished last line', async () => {
    expect(await pageTranscript(from('a\nb\n', 'c'), { limit: 2 })).toEqual({
      text: 'b\nc',
      offset: 1,
      lines: 2,
      totalLines: 3,
      cut: true,
      droppedLines: 0,
      droppedBytes: 0,
    });
  });

  it('keeps empty lines, and a window past the end is empty at the end', async () => {
    expect(await pageTranscript(from('a\n\n', '\nb\n'), { offset: 1, limit: 2 })).toMatchObject({
      text: '\n',
      offset: 1,
      lines: 2,
      totalLines: 4,
      cut: true,
    });
    expect(await pageTranscript(from('a\nb\n'), { offset: 5, limit: 2 })).toMatchObject({
      text: '',
      offset: 2,
      lines: 0,
      totalLines: 2,
      cut: true,
    });
  });

  it('is not cut when the window holds every line, from 0 or by default', async () => {
    expect(await pageTranscript(from('a\nb'), {})).toMatchObject({ text: 'a\nb', offset: 0, cut: false });
    expect(await pageTranscript(from('a\nb\n'), { offset: 0, limit: 2 })).toMatchObject({
      text: 'a\nb',
      lines: 2,
      cut: false,
    });
  });

  it('gives every line of a window larger than what is there, from an offset', async () => {
    expect(await pageTranscript(from('a\nb\n'), { offset: 0, limit: 3 })).toMatchObject({
      text: 'a\nb',
      lines: 2,
      totalLines: 2,
      cut: false,
    });
  });

  it('slides the tail over many lines in many pieces, one line per piece', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `line ${i}`);
    const page = await pageTranscript(from(...lines.map((line) => `${line}\n`)), { limit: 3 });
    expect(page).toMatchObject({
      text: 'line 997\nline 998\nline 999',
      offset: 997,
      lines: 3,
      totalLines: 1000,
    });
  });

  it('joins a line split across pieces, and starts the window at the offset exactly', async () => {
    const page = await pageTranscript(from('zero\non', 'e\ntw', 'o\nthree\n'), { offset: 1, limit: 2 });
    expect(page).toMatchObject({ text: 'one\ntwo', offset: 1, lines: 2, totalLines: 4, cut: true });
  });
});

describe('walkTranscript', () => {
  // before\n (0-7), an episode's bytes (7-19), a second one's (19-23), after\n (23-29)
  function history() {
    const log = new OutputLog();
    for (const chunk of ['before\n', '\x1b[?1049hXXXX', 'YYYY', 'after\n']) log.append('stdout', chunk);
    return log;
  }
  const episode = (start: number, end: number | undefined, lines: string[] | undefined) =>
    ({ start, end, lines }) as never;
  const walk = (log: OutputLog, from: Checkpoint, episodes: never[], live?: string[]) => [
    ...walkTranscript(log, from, { episodes, live, pageBytes: 4 }),
  ];

  it('puts each block in place of its bytes, back to back on lines of their own', () => {
    const pieces = walk(history(), { offset: 0, line: 0 }, [
      episode(7, 19, ['screen 1']),
      episode(19, 23, ['screen 2']),
    ]);
    expect(pieces.join('')).toBe('before\nscreen 1\nscreen 2\nafter\n');
  });

  it('adds no line for an empty block', () => {
    const pieces = walk(history(), { offset: 0, line: 0 }, [episode(7, 23, [])]);
    expect(pieces.join('')).toBe('before\nafter\n');
  });

  it('ends at the block of a program still on screen, whatever bytes follow', () => {
    const pieces = walk(history(), { offset: 0, line: 0 }, [episode(7, undefined, undefined)], ['live']);
    expect(pieces.join('')).toBe('before\nlive\n');
  });

  it('shows no block for a program on screen whose screen is not known yet', () => {
    const pieces = walk(history(), { offset: 0, line: 0 }, [episode(7, undefined, undefined)]);
    expect(pieces.join('')).toBe('before\n');
  });

  it('from a checkpoint after an episode, walks on from there only', () => {
    const pieces = walk(history(), { offset: 19, line: 2 }, [
      episode(7, 19, ['screen 1']),
      episode(19, 23, ['screen 2']),
    ]);
    expect(pieces.join('')).toBe('screen 2\nafter\n');
  });

  it('without episodes gives the stripped history and what the stripper held, no empty piece', () => {
    const log = new OutputLog();
    log.append('stdout', 'one\ntwo\x1b');
    const pieces = walk(log, { offset: 0, line: 0 }, []);
    expect(pieces.join('')).toBe('one\ntwo');
    expect(pieces).not.toContain('');
    const ended = new OutputLog();
    ended.append('stdout', 'one\n');
    expect(walk(ended, { offset: 0, line: 0 }, [])).toEqual(['one\n']);
  });
});
