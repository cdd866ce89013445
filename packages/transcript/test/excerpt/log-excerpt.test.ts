import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_LINE_PATTERN, ERROR_WORD_LETTERS } from '../../src/excerpt/error-lines.js';
import { excerptLog } from '../../src/excerpt/log-excerpt.js';
import { BudgetSink, budgetTranscript } from '../../src/excerpt/transcript-excerpt.js';
import { applyOutputBudget } from '../../src/excerpt/truncate.js';
import { transcriptChunks } from '../../src/lines/transcript.js';
import { TranscriptIndex } from '../../src/lines/transcript-index.js';
import { OutputLog } from '../../src/log/output-log.js';
import { SessionTranscript } from '../../src/session-transcript.js';

const PAGE_BYTES = 8 * 1024;
const open: OutputLog[] = [];

afterEach(async () => {
  for (const log of open.splice(0)) {
    log.close();
    await log.flushed();
  }
});

/** A log that spills past 64 KiB, and the pipe index over it, fed `text` in `sizes` chunks. */
function logged(text: string, sizes: number[], maxRetainedBytes?: number) {
  const log = new OutputLog({ memoryBytes: 64 * 1024, ...(maxRetainedBytes ? { maxRetainedBytes } : {}) });
  open.push(log);
  const index = new TranscriptIndex();
  for (let at = 0, i = 0; at < text.length; i++) {
    let end = Math.min(text.length, at + sizes[i % sizes.length]!);
    // Adapters never split a character: nor does this.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end += 1;
    const chunk = text.slice(at, end);
    const before = log.totalBytes;
    index.add(chunk, before, log.append(i % 3 === 2 ? 'stderr' : 'stdout', chunk));
    at = end;
  }
  return { log, index };
}

/** What the transcript reads as, stripped page by page from the first retained byte. */
async function stripped(log: OutputLog): Promise<string> {
  let text = '';
  for await (const chunk of transcriptChunks(log, undefined, PAGE_BYTES)) text += chunk;
  return text;
}

// Lines a flood is made of: plain runs, error words in any case, and everything the stripper
// changes (colours, a word split by one, an OSC title holding one, \r rewrites, C1, tabs,
// rows past the soft wrap, lines longer than the index's checkpoint spacing).
const line = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 0, max: 200 }).map((n) => 'a'.repeat(n)) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'Error: boom',
      'FATAL disk',
      `${'b'.repeat(300)} panic ${'b'.repeat(600)}`,
      'TraceBack (most recent call last)',
      'tracebac\u212a',
      'eRRor',
      `x${'é'.repeat(450)} failed`,
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '\u001b[31mred\u001b[0m text',
      'err\u001b[1mor split by a colour',
      '\u001b]0;error in a title\u0007after the title',
      'progress 10%\rprogress 100%',
      'x\u009b31my',
      'abc\b\bX',
      'col1\tcol2',
      `${'é'.repeat(20)} ✓ 😀`,
      'w'.repeat(5_000),
    ),
  },
  { weight: 1, arbitrary: fc.constant('h'.repeat(40_000)) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map((s) => s.replace(/\n/g, ' ')) },
);

describe('excerptLog', () => {
  it('looks for error words by letters every one of them holds, in both cases', () => {
    for (const word of ERROR_LINE_PATTERN.source.split('|')) {
      for (const cased of [word.toLowerCase(), word.toUpperCase()]) {
        expect(ERROR_WORD_LETTERS.some((letter) => cased.includes(letter))).toBe(true);
      }
    }
  });

  // The reference is the cut of the whole transcript streamed past (budgetTranscript, itself
  // property-tested against applyOutputBudget): what a one-shot's reply was before.
  it('cuts a spilled log exactly as the whole stripped transcript streamed through the budget', async () => {
    let skipped = 0;
    const skip = vi.spyOn(BudgetSink.prototype, 'skip');
    await fc.assert(
      fc.asyncProperty(
        // Each line repeated a few times or a few hundred: long plain stretches the cut only counts.
        fc.array(
          fc.tuple(line, fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 100, max: 400 }))),
          {
            minLength: 1,
            maxLength: 40,
            size: 'max',
          },
        ),
        fc.boolean(),
        fc.array(fc.integer({ min: 200, max: 70_000 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 600, max: 6_000 }),
        fc.integer({ min: 0, max: 30_000 }),
        // Blocks of one stretch between line starts (16 KiB or more apart) or of several.
        fc.oneof(fc.integer({ min: 1, max: 16_384 }), fc.integer({ min: 16_384, max: 200_000 })),
        async (lines, trailing, sizes, budget, wholeExtra, blockBytes) => {
          const text =
            lines.flatMap(([l, n]) => Array<string>(n).fill(l)).join('\n') + (trailing ? '\n' : '');
          const { log, index } = logged(text, sizes);
          const request = {
            budget,
            status: 'Process exited with code 1.',
            sessionId: 'proc_x',
            empty: '(none)',
          };
          const wholeChars = budget + wholeExtra;
          const expected = await budgetTranscript(
            transcriptChunks(log, undefined, PAGE_BYTES),
            request,
            wholeChars,
          );
          const starts = (await index.lineStarts(log))!;
          skip.mockClear();
          const got = excerptLog(log, starts, request, PAGE_BYTES, { wholeChars, blockBytes });
          if (skip.mock.calls.length > 0) skipped += 1;
          expect(got).toEqual(expected);
        },
      ),
      { numRuns: propertyRuns(50) },
    );
    skip.mockRestore();
    // Many runs have a plain middle that is only counted.
    expect(skipped).toBeGreaterThan(propertyRuns(50) / 5);
  }, 120_000);

  // Under the history cap (the first retained stretch's mark covers bytes already dropped):
  // a stretch counted unread cuts as reading it does.
  it('under the history cap, counts word-free stretches unread exactly as reading them cuts', async () => {
    let unread = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(line, fc.integer({ min: 1, max: 300 })), { minLength: 1, maxLength: 30 }),
        fc.array(fc.integer({ min: 200, max: 70_000 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 30_000, max: 300_000 }),
        fc.integer({ min: 600, max: 6_000 }),
        async (lines, sizes, cap, budget) => {
          const text = lines.flatMap(([l, n]) => Array<string>(n).fill(l)).join('\n');
          const { log, index } = logged(text, sizes, cap);
          const starts = (await index.lineStarts(log))!;
          const request = { budget, status: 'Process exited with code 0.', sessionId: 'proc_c', empty: '' };
          const sizesSmall = { wholeChars: budget + 2_000 };
          const read = excerptLog(
            log,
            starts.map(({ wordFreeBefore: _, ...cp }) => cp),
            request,
            PAGE_BYTES,
            sizesSmall,
          );
          if (starts.some((cp) => cp.wordFreeBefore)) unread += 1;
          expect(excerptLog(log, starts, request, PAGE_BYTES, sizesSmall)).toEqual(read);
        },
      ),
      { numRuns: propertyRuns(40) },
    );
    expect(unread).toBeGreaterThan(propertyRuns(40) / 5);
  }, 120_000);

  it('keeps the error line in the middle of 8 MB, counts every line, and numbers them as log() does', async () => {
    const row = 'a'.repeat(99);
    const page = `${row}\n`.repeat(1_000);
    const pages = Array<string>(80).fill(page);
    // An error line in a plain stretch, a coloured one far from it.
    pages[20] = `${page}Traceback: in the middle\n`;
    pages[60] = `${page}\u001b[31mred\u001b[0m\n`;
    const text = pages.join('');
    const t = new SessionTranscript({ log: new OutputLog({ memoryBytes: 64 * 1024 }) });
    open.push(t.log);
    // Pipe-sized chunks: a line start recorded about every 16 KiB.
    for (let at = 0; at < text.length; at += 4_096) t.append('stdout', text.slice(at, at + 4_096));
    const request = { budget: 30_000, status: 'Process exited with code 0.', sessionId: 'proc_y', empty: '' };
    const r = await t.excerpt(request, 50 * 1024);
    expect(r).toEqual(applyOutputBudget({ ...request, body: await stripped(t.log) }));
    expect(r.text).toContain('[line 21,001] Traceback: in the middle');
    expect(r.cut).toMatchObject({ keptErrorLines: 1, lastOmittedLine: expect.any(Number) });
    expect((await t.page({}, 50 * 1024)).totalLines).toBe(80_002);
    expect((await t.page({ offset: 61_001, limit: 1 }, 50 * 1024)).text).toBe('red');
    expect(r.text.endsWith(`${row}\n\nProcess exited with code 0.`)).toBe(true);
  });

  it('counts the middle of a plain flood without decoding it, and decodes a stretch holding a letter of an error word', async () => {
    const row = `${'a'.repeat(99)}\n`;
    const text = `${row.repeat(20_000)}fatal: here\n${row.repeat(20_000)}`;
    // Pipe-sized chunks, each ending mid-row.
    const { log, index } = logged(text, [65_000]);
    const request = { budget: 10_000, status: 'Process exited with code 1.', sessionId: 'proc_f', empty: '' };
    const starts = (await index.lineStarts(log))!;
    const expected = applyOutputBudget({ ...request, body: await stripped(log) });
    const decode = vi.spyOn(Buffer.prototype, 'toString');
    try {
      // Held whole up to 20,000 characters, not the default's megabyte: the head is read up to there.
      const got = excerptLog(log, starts, request, PAGE_BYTES, { wholeChars: 20_000 });
      expect(got).toEqual(expected);
      expect(got.text).toContain('[line 20,001] fatal: here');
      // The head, the tail and the 128 KiB block around the error line: not the 4 MB between.
      const decoded = decode.mock.results.reduce((sum, r) => sum + String(r.value).length, 0);
      expect(decoded).toBeLessThan(400_000);
    } finally {
      decode.mockRestore();
    }
  });

  it('reads none of a middle without a letter of an error word (digits), and only the stretch around one', async () => {
    const digits = Array.from({ length: 300_000 }, (_, i) => String(i * 7919).padStart(12, '0')).join('\n');
    for (const [middle, blocksRead] of [
      ['', 0],
      ['000 pid 42 ok', 1],
    ] as const) {
      const half = digits.length / 2;
      const text = `${digits.slice(0, half)}${middle}${digits.slice(half)}\n`;
      const { log, index } = logged(text, [65_000, 4_096]);
      const request = {
        budget: 10_000,
        status: 'Process exited with code 0.',
        sessionId: 'proc_d',
        empty: '',
      };
      const starts = (await index.lineStarts(log))!;
      const expected = applyOutputBudget({ ...request, body: await stripped(log) });
      const between = vi.spyOn(log, 'bytesBetween');
      const reads = vi.spyOn(log, 'read');
      try {
        const got = excerptLog(log, starts, request, PAGE_BYTES, { wholeChars: 20_000 });
        expect(got).toEqual(expected);
        expect(got.cut!.lastOmittedLine! - got.cut!.firstOmittedLine!).toBeGreaterThan(290_000);
        // Of the 3.9 MB between the head and the tail: nothing read, or the one block around the letters.
        expect(between).toHaveBeenCalledTimes(blocksRead);
        const read = reads.mock.results.reduce(
          (sum, r) => sum + (r.value as { data: string }).data.length,
          0,
        );
        expect(read).toBeLessThan(200_000);
      } finally {
        between.mockRestore();
        reads.mockRestore();
      }
    }
  });

  it('numbers lines from the first one the history cap kept, as log() pages them', async () => {
    // seq-like lines; the cap keeps the last ~200 kB, from inside a line.
    const text = Array.from({ length: 100_000 }, (_, i) => String(i + 1)).join('\n');
    const t = new SessionTranscript({
      log: new OutputLog({ maxRetainedBytes: 200_000, memoryBytes: 64 * 1024 }),
    });
    open.push(t.log);
    for (let at = 0; at < text.length; at += 4_096) t.append('stdout', text.slice(at, at + 4_096));
    const r = await t.excerpt({ budget: 2_000, sessionId: 'proc_z', empty: '' }, 8 * 1024);
    const first = await t.page({ offset: 0, limit: 1 }, 8 * 1024);
    // The reply's first line is log()'s first line, and the cut's lines are log()'s lines.
    expect(r.text.split('\n')[0]).toBe(first.text);
    const offset = Number(/offset: (\d+)/.exec(r.text)![1]);
    const page = await t.page({ offset, limit: 1 }, 8 * 1024);
    expect(Number(page.text)).toBe(offset + 1);
    expect(r.cut!.firstOmittedLine).toBe(offset + 1);
  });
});
