import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERROR_LINE_PATTERN, MAX_ERROR_LINE_CHARS } from '../../src/excerpt/truncate.js';
import { applyOutputBudget } from './process-words.js';

const numbered = (count: number, width = 40) =>
  Array.from({ length: count }, (_, i) => `line ${i + 1} ${'x'.repeat(width)}`).join('\n');

const STATUS = 'Process exited with code 1.';

function noticeOf(text: string): string {
  const notice = text.split('\n').find((line) => line.startsWith('[... ') && line.includes('left out'));
  if (!notice) throw new Error(`no cut notice in:\n${text}`);
  return notice;
}

describe('applyOutputBudget', () => {
  it('returns a body that fits unchanged, between header and status', () => {
    const result = applyOutputBudget({
      body: 'hello\nworld\n',
      budget: 1000,
      header: 'Started.',
      status: STATUS,
    });
    expect(result.text).toBe(`Started.\nhello\nworld\n\n${STATUS}`);
    expect(result.cut).toBeUndefined();
  });

  it('leaves out empty parts instead of printing blank lines', () => {
    expect(applyOutputBudget({ body: '', budget: 1000, status: STATUS }).text).toBe(STATUS);
    expect(applyOutputBudget({ body: 'x', budget: 1000 }).text).toBe('x');
    expect(applyOutputBudget({ body: '', budget: 1000, header: 'H', status: STATUS }).text).toBe(
      `H\n${STATUS}`,
    );
  });

  it('keeps the head, the tail and the status within the budget', () => {
    const body = numbered(3000);
    const { text, cut } = applyOutputBudget({
      body,
      budget: 5000,
      status: STATUS,
      sessionId: 'proc_a',
      firstLine: 0,
    });
    expect(text.length).toBeLessThanOrEqual(5000);
    expect(text.startsWith('line 1 x')).toBe(true);
    expect(text.endsWith(`line 3000 ${'x'.repeat(40)}\n\n${STATUS}`)).toBe(true);
    expect(cut).toBeDefined();
    // Every shown line is a whole line of the original, in order, apart from the notice.
    const shown = text.split('\n').filter((l) => l.startsWith('line '));
    const numbers = shown.map((l) => Number(l.split(' ')[1]));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(numbers[0]).toBe(1);
    expect(numbers.at(-1)).toBe(3000);
  });

  it('says exactly which lines and how many bytes were left out, and how to page them', () => {
    const body = numbered(3000);
    const { text, cut } = applyOutputBudget({
      body,
      budget: 5000,
      status: STATUS,
      sessionId: 'proc_a',
      firstLine: 0,
    });
    const shown = new Set(text.split('\n'));
    const lines = body.split('\n');
    const missing = lines.map((line, i) => ({ line, n: i + 1 })).filter(({ line }) => !shown.has(line));
    expect(cut!.firstOmittedLine).toBe(missing[0]!.n);
    expect(cut!.lastOmittedLine).toBe(missing.at(-1)!.n);
    // The missing lines form one block, and the byte count includes their line breaks.
    expect(missing.length).toBe(cut!.lastOmittedLine - cut!.firstOmittedLine + 1);
    const bytes = missing.reduce((sum, { line }) => sum + Buffer.byteLength(line) + 1, 0);
    expect(cut!.omittedBytes).toBe(bytes);
    const notice = noticeOf(text);
    expect(notice).toContain(`${bytes.toLocaleString('en-US')} bytes left out`);
    expect(notice).toContain(`lines ${cut!.firstOmittedLine.toLocaleString('en-US')}-`);
    expect(notice).toContain(
      `process action=log session_id=proc_a offset=${cut!.firstOmittedLine - 1} limit=`,
    );
    // The suggested page is the largest that fits this budget at these lines' length (~50
    // chars): not a fixed 200 that would be cut again, nor a token page.
    const limit = Number(/limit=(\d+)/.exec(notice)![1]);
    const page = lines.slice(cut!.firstOmittedLine - 1, cut!.firstOmittedLine - 1 + limit).join('\n');
    expect(page.length).toBeLessThanOrEqual(5000);
    expect(page.length).toBeGreaterThan(5000 / 2 - 420);
  });

  it('suggests a page of many short lines when the lines are short', () => {
    const body = Array.from({ length: 100_000 }, (_, i) => String(i + 1)).join('\n');
    const { text } = applyOutputBudget({
      body,
      budget: 30_000,
      status: STATUS,
      sessionId: 'p',
      firstLine: 0,
    });
    const notice = noticeOf(text);
    const limit = Number(/limit=(\d+)/.exec(notice)![1]);
    const offset = Number(/offset=(\d+)/.exec(notice)![1]);
    // ~6 characters a line: thousands of lines a page, so a 94k-line gap is tens of calls, not 474.
    expect(limit).toBeGreaterThan(3_000);
    expect(
      body
        .split('\n')
        .slice(offset, offset + limit)
        .join('\n').length,
    ).toBeLessThanOrEqual(30_000);
  });

  it('numbers lines from firstLine so the notice points into the session log', () => {
    const body = numbered(1000);
    const a = applyOutputBudget({ body, budget: 3000, firstLine: 0 });
    const b = applyOutputBudget({ body, budget: 3000, firstLine: 500 });
    expect(b.cut!.firstOmittedLine).toBe(a.cut!.firstOmittedLine + 500);
    expect(noticeOf(b.text)).toContain(`offset=${a.cut!.firstOmittedLine - 1 + 500}`);
  });

  it('keeps lines from the cut middle that look like errors, with their line numbers', () => {
    const lines = numbered(2000).split('\n');
    lines[999] = 'Traceback (most recent call last):';
    lines[1000] = '  File "x.py", line 3, in <module>';
    lines[1001] = 'ValueError: bad input';
    lines[1499] = 'FAILED tests/test_api.py::test_login';
    const { text, cut } = applyOutputBudget({ body: lines.join('\n'), budget: 6000, status: STATUS });
    expect(text).toContain('[line 1,000] Traceback (most recent call last):');
    expect(text).toContain('[line 1,002] ValueError: bad input');
    expect(text).toContain('[line 1,500] FAILED tests/test_api.py::test_login');
    expect(text).not.toContain('File "x.py"');
    expect(cut!.keptErrorLines).toBe(3);
    const one = numbered(2000).split('\n');
    one[1200] = 'panic: runtime error';
    expect(noticeOf(applyOutputBudget({ body: one.join('\n'), budget: 6000 }).text)).toContain(
      '1 line from it that looks like an error follows',
    );
    expect(noticeOf(text)).toContain('3 lines from it that look like errors follow');
    // The kept error lines come after the notice, in order, and before the tail.
    expect(text.indexOf('[line 1,000]')).toBeLessThan(text.indexOf('[line 1,500]'));
    expect(text.indexOf('[line 1,500]')).toBeLessThan(text.indexOf('end of the cut'));
    expect(text.indexOf('end of the cut')).toBeLessThan(text.indexOf('line 2000 '));
    expect(text.length).toBeLessThanOrEqual(6000);
  });

  it('does not count kept error lines as left out', () => {
    const lines = numbered(2000).split('\n');
    lines[1000] = 'fatal: repository not found';
    const body = lines.join('\n');
    const { text, cut } = applyOutputBudget({ body, budget: 6000 });
    const missing = lines.filter((line) => !text.split('\n').includes(line) && !text.includes(`] ${line}`));
    const bytes = missing.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    // The kept error line's own line break is still part of the cut.
    expect(cut!.omittedBytes).toBe(bytes + 1);
  });

  it('matches error words case-insensitively', () => {
    for (const word of ['ERROR', 'Exception', 'traceback', 'FATAL', 'Failed', 'panic']) {
      expect(ERROR_LINE_PATTERN.test(`something ${word} happened`)).toBe(true);
    }
    expect(ERROR_LINE_PATTERN.test('all 12 tests passed')).toBe(false);
  });

  it('keeps error lines only while they fit, and the result stays within budget', () => {
    const lines = numbered(3000)
      .split('\n')
      .map((line, i) => (i % 3 === 0 && i > 50 ? `error ${i}` : line));
    const { text, cut } = applyOutputBudget({ body: lines.join('\n'), budget: 4000, status: STATUS });
    expect(text.length).toBeLessThanOrEqual(4000);
    expect(cut!.keptErrorLines).toBeGreaterThan(0);
    expect(cut!.keptErrorLines).toBeLessThan(900);
  });

  it('shortens a very long error line and marks it', () => {
    const lines = numbered(2000).split('\n');
    lines[1000] = `Error: ${'y'.repeat(5000)}`;
    const { text } = applyOutputBudget({ body: lines.join('\n'), budget: 8000 });
    const kept = text.split('\n').find((line) => line.startsWith('[line 1,001]'))!;
    expect(kept).toBe(`[line 1,001] Error: ${'y'.repeat(MAX_ERROR_LINE_CHARS - 7)} [...]`);
  });

  it('gives the whole share to head and tail when the middle has no error lines', () => {
    const body = numbered(3000);
    const { text } = applyOutputBudget({ body, budget: 10_000 });
    const [head, tail] = text.split(noticeOf(text));
    expect(text).not.toContain('end of the cut');
    expect(tail!.length).toBeGreaterThan(head!.length);
    // Head and tail together use most of the budget, not just 80% of it.
    expect(head!.length + tail!.length).toBeGreaterThan(0.85 * (10_000 - 420));
  });

  it('cuts a single huge line inside the line, keeping its start and end', () => {
    const body = `BEGIN${'z'.repeat(100_000)}END`;
    const { text, cut } = applyOutputBudget({ body, budget: 2000, status: STATUS, sessionId: 's' });
    expect(text.length).toBeLessThanOrEqual(2000);
    expect(text.startsWith('BEGIN')).toBe(true);
    expect(text.endsWith(`END\n\n${STATUS}`)).toBe(true);
    expect(cut!.firstOmittedLine).toBe(1);
    expect(cut!.lastOmittedLine).toBe(1);
    expect(noticeOf(text)).toContain('(line 1)');
    const shownZ = (text.match(/z/g) ?? []).length;
    expect(cut!.omittedBytes).toBe(100_000 - shownZ);
  });

  it('never splits a surrogate pair and counts omitted bytes in UTF-8', () => {
    const body = '😀'.repeat(20_000);
    const { text, cut } = applyOutputBudget({ body, budget: 3001 });
    expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    const shown = (text.match(/😀/g) ?? []).length;
    expect(cut!.omittedBytes).toBe((20_000 - shown) * 4);
  });

  it('always keeps a long status and header whole', () => {
    const status = `note: ${'n'.repeat(800)}\n${STATUS}`;
    const { text } = applyOutputBudget({ body: numbered(500), budget: 1500, header: 'Header line.', status });
    expect(text.startsWith('Header line.\n')).toBe(true);
    expect(text.endsWith(status)).toBe(true);
  });

  it('says "line" for a one-line cut and limits the page to the omitted lines', () => {
    // Line 2 is cut whole, and a read of it alone fits the same budget.
    const body = `${'h'.repeat(200)}\n${'m'.repeat(700)}\n${'t'.repeat(460)}`;
    const { text } = applyOutputBudget({ body, budget: 1200, sessionId: 'p' });
    const notice = noticeOf(text);
    expect(notice).toMatch(/\(line 2\)/);
    expect(notice).toContain('offset=1 limit=1');
  });

  it('points no read at a line longer than a reply holds: it would be cut the same way', () => {
    const body = `short\n${'m'.repeat(5000)}\nshort end`;
    const { text } = applyOutputBudget({ body, budget: 1200, sessionId: 'p' });
    const notice = noticeOf(text);
    expect(notice).toMatch(/\(line 2\)/);
    expect(notice).toContain(
      'Line 2 alone is longer than a reply can show, so no read shows its middle; to look into it, run the command again through a filter (grep -o PATTERN, cut -c START-END, head -c N).',
    );
    expect(notice).not.toContain('offset=');
  });

  it('holds its promises for any output (property)', () => {
    const line = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.constantFrom('Error: boom', 'panic: nil map', 'ok', '', '😀😀 wide'),
      fc.string({ minLength: 500, maxLength: 3000 }),
    );
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 400 }),
        fc.integer({ min: 1000, max: 6000 }),
        fc.integer({ min: 0, max: 10_000 }),
        (lines, budget, firstLine) => {
          const body = lines.join('\n');
          const { text, cut } = applyOutputBudget({
            body,
            budget,
            status: STATUS,
            firstLine,
            sessionId: 'proc_x',
          });
          expect(text.endsWith(STATUS)).toBe(true);
          expect(text.length).toBeLessThanOrEqual(budget);
          const trimmed = body.endsWith('\n') ? body.slice(0, -1) : body;
          if (cut === undefined) {
            expect(text).toBe(trimmed === '' ? STATUS : `${trimmed}\n\n${STATUS}`);
            return;
          }
          const notice = noticeOf(text);
          const head = text.slice(0, text.indexOf(notice)).replace(/\n$/, '');
          expect(trimmed.startsWith(head)).toBe(true);
          expect(cut.omittedBytes).toBeGreaterThan(0);
          expect(cut.firstOmittedLine).toBeGreaterThan(firstLine);
          expect(cut.lastOmittedLine).toBeGreaterThanOrEqual(cut.firstOmittedLine);
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});
