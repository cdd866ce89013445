// The output budget at its exact edges, which a mutation run showed unasserted: a text of
// exactly the budget, a cut landing inside a surrogate pair (at index 0, at either end of the
// low-surrogate range, going back for a head and forward for a tail), and an error line that
// fills the room left between head and tail to the character.
import { describe, expect, it } from 'vitest';
import { fitText } from '../../src/excerpt/truncate.js';
import { applyOutputBudget } from './process-words.js';

/** Lines of exactly 50 characters ("00001 xx…"), so a cut's arithmetic can be checked by hand. */
const fixedWidth = (count: number) =>
  Array.from({ length: count }, (_, i) => `${String(i + 1).padStart(5, '0')} ${'x'.repeat(44)}`).join('\n');

const numbered = (count: number, width = 40) =>
  Array.from({ length: count }, (_, i) => `line ${i + 1} ${'x'.repeat(width)}`).join('\n');

/** fitText's notice for a text of `length` characters (58 characters for 100). */
const fitNotice = (length: number) =>
  `\n[... ${length.toLocaleString('en-US')} characters in all; the middle was left out ...]\n`;

describe('fitText at its edges', () => {
  it('keeps a text of exactly the budget whole, and cuts one a character longer', () => {
    const text = 'x'.repeat(100);
    expect(fitText(text, 100)).toBe(text);
    const cut = fitText(text, 99);
    expect(cut).toContain(fitNotice(100));
    expect(cut.length).toBeLessThanOrEqual(99);
  });

  it('uses the budget less a small reserve, head and tail of the text around the notice', () => {
    const text = `${'s'.repeat(500)}${'e'.repeat(500)}`;
    for (const budget of [100, 101, 250, 999]) {
      const fitted = fitText(text, budget);
      const notice = fitNotice(1000);
      const [head, tail] = fitted.split(notice);
      expect(fitted.length).toBeLessThanOrEqual(budget);
      expect(fitted.length).toBeGreaterThanOrEqual(budget - 8);
      expect(text.startsWith(head!)).toBe(true);
      expect(text.endsWith(tail!)).toBe(true);
      // The start gets the larger share (60%).
      expect(head!.length).toBeGreaterThanOrEqual(tail!.length);
    }
  });

  it('backs a head cut off a pair and moves a tail cut past one, at both ends of the low range', () => {
    // 50 pairs, 100 units, notice 58: a budget of 72 leaves 6 units (head 3, tail 3), one of
    // 73 leaves 7 (head 4, tail 3). A cut inside a pair loses that pair rather than split it.
    for (const pair of ['😀', '\ud800\udc00', '\udbff\udfff']) {
      const text = pair.repeat(50);
      const notice = fitNotice(100);
      expect(fitText(text, 72)).toBe(`${pair}${notice}${pair.repeat(2)}`);
      expect(fitText(text, 73)).toBe(`${pair.repeat(2)}${notice}${pair}`);
    }
  });

  it('never takes a low surrogate at index 0 as the second half of a pair', () => {
    // A budget with no room beyond the notice: the head cut is at index 0, the tail at the end.
    const text = `\udc00${'x'.repeat(99)}`;
    expect(fitText(text, 58 + 8)).toBe(fitNotice(100));
    expect(fitText(text, 58 + 9)).toBe(`${fitNotice(100)}x`);
  });
});

describe('applyOutputBudget at its edges', () => {
  it('keeps an error line that fills the room between head and tail exactly, not one a character longer', () => {
    // 400 lines under a budget of 1,820: of the 1,400 the cut may show, the head takes 384 and
    // the tail's share 700 (its cut at a line start is a little shorter: not counted, so each
    // line is decided before the tail is known), leaving 316 characters for error lines.
    // "[line 201] Error: e…" is the line plus 11; with its line break, a 304-character line
    // takes all 316.
    const withError = (length: number) => {
      const lines = numbered(400).split('\n');
      lines[200] = `Error: ${'e'.repeat(length - 7)}`;
      return applyOutputBudget({ body: lines.join('\n'), budget: 1820 });
    };
    const fits = withError(304);
    expect(fits.cut!.keptErrorLines).toBe(1);
    const entry = `[line 201] Error: ${'e'.repeat(297)}`;
    expect(fits.text).toContain(`\n${entry}\n[... end of the cut`);
    // The room is what the head, the tail's share and the notice's reserve leave of the budget.
    const head = fits.text.slice(0, fits.text.indexOf('\n[... '));
    const tail = fits.text.slice(fits.text.indexOf('goes on below ...]\n') + 19);
    expect(entry.length + 1).toBe(1820 - 420 - (head.length + 1) - 700);
    expect(tail.length).toBeLessThan(700);

    const over = withError(305);
    expect(over.cut!.keptErrorLines).toBe(0);
    expect(over.text).not.toContain('[line 201]');
    expect(over.text).not.toContain('end of the cut');
  });

  it('keeps a later error line that still fits after an earlier one that does not', () => {
    const lines = numbered(400).split('\n');
    lines[150] = `Error: ${'e'.repeat(393)}`; // 411 with its label: more than the 316 of room
    lines[250] = 'fatal: short';
    const { text, cut } = applyOutputBudget({ body: lines.join('\n'), budget: 1820 });
    expect(cut!.keptErrorLines).toBe(1);
    expect(text).toContain('\n[line 251] fatal: short\n');
    expect(text).not.toContain('[line 151]');
  });

  it('cuts a one-line body of pairs on pair boundaries, head backing off and tail moving on', () => {
    // A budget of 1,004 leaves 584 units for head and tail: shares of 233 and 351, both odd,
    // so both cuts land inside a pair. The head backs off to 232 units, the tail moves on to
    // 350: 116 and 175 whole pairs.
    for (const pair of ['😀', '\ud800\udc00', '\udbff\udfff']) {
      const { text, cut } = applyOutputBudget({ body: pair.repeat(5_000), budget: 1004 });
      const notice = text.split('\n').find((line) => line.startsWith('[... '))!;
      expect(text).toBe(`${pair.repeat(116)}\n${notice}\n${pair.repeat(175)}`);
      expect(cut!.omittedBytes).toBe((5_000 - 116 - 175) * 4);
    }
  });

  it('keeps a body of exactly its room whole, and cuts one whose status leaves it less', () => {
    const body = 'b'.repeat(1000);
    expect(applyOutputBudget({ body, budget: 1000 })).toEqual({ text: body, body, cut: undefined });
    // "\n\n" and the status take 29 of a 1,000 budget: a 990-character body no longer fits.
    const status = 'Process exited with code 1.';
    const { text, cut } = applyOutputBudget({ body: 'b'.repeat(990), budget: 1000, status });
    expect(cut).toBeDefined();
    expect(text.length).toBeLessThanOrEqual(1000);
    expect(text.endsWith(`\n\n${status}`)).toBe(true);
  });

  it('says exactly what it left out, and no more, when there is no error line and no session', () => {
    // 60 lines of 51 bytes with their breaks, budget 3,000: a head of 20 lines (1,032 of room
    // less the 420 reserve, at 40%), a tail of 30, lines 21-30 left out: 510 bytes.
    const lines = fixedWidth(60).split('\n');
    const { text, cut } = applyOutputBudget({ body: lines.join('\n'), budget: 3000 });
    const notice =
      '[... 510 bytes left out here (lines 21-30). Read them with process action=log offset=20 limit=10 ...]';
    expect(text).toBe([...lines.slice(0, 20), notice, ...lines.slice(30)].join('\n'));
    expect(cut).toEqual({ omittedBytes: 510, firstOmittedLine: 21, lastOmittedLine: 30, keptErrorLines: 0 });
  });

  it('ends the head before a line that would reach its share, and suggests the largest page that fits', () => {
    // Budget 2,968: 2,548 for head and tail, a head share of 1,019 characters, exactly where
    // line 20 ends without its break: the head is 19 lines. 49 lines of 51 bytes fit in 2,548.
    const lines = fixedWidth(600).split('\n');
    const { text, cut } = applyOutputBudget({ body: lines.join('\n'), budget: 2968 });
    const notice =
      '[... 28,101 bytes left out here (lines 20-570). Read them with process action=log offset=19 limit=49 ...]';
    expect(text).toBe([...lines.slice(0, 19), notice, ...lines.slice(570)].join('\n'));
    expect(cut!.omittedBytes).toBe(551 * 51);
    // Budget 2,970: 2,550 of room is exactly 50 such lines, and the page suggested is 50.
    const exact = applyOutputBudget({ body: lines.join('\n'), budget: 2970 });
    expect(exact.text).toContain(
      '[... 28,050 bytes left out here (lines 21-570). Read them with process action=log offset=20 limit=50 ...]',
    );
  });

  it('starts the text with the notice when the head is only an empty line', () => {
    const { text } = applyOutputBudget({ body: `\n${'y'.repeat(5000)}\nend`, budget: 1000 });
    expect(text.startsWith('[... 5,001 bytes left out here (line 2).')).toBe(true);
    expect(text.endsWith('\nend')).toBe(true);
  });

  it('keeps the end of a long line followed by a blank last line', () => {
    // One newline is the body's own end and goes; the second is a blank last line, kept.
    const { text, cut } = applyOutputBudget({ body: `${'x'.repeat(5000)}\n\n`, budget: 1000 });
    expect(cut!.omittedBytes).toBe(4421);
    expect(text.endsWith(`${'x'.repeat(100)}\n`)).toBe(true);
    expect((text.match(/x/g) ?? []).length).toBe(5000 - 4421);
  });

  it('keeps a second error line only while both fit: 316 characters of room, to the character', () => {
    const withErrors = (second: number) => {
      const lines = numbered(400).split('\n');
      lines[150] = `Error: ${'a'.repeat(140)}`; // 147 characters, 158 with its label
      lines[250] = `Error: ${'b'.repeat(second - 7)}`;
      return applyOutputBudget({ body: lines.join('\n'), budget: 1820 });
    };
    // 158 + 1 + 156 + 1 = 316: both fit. One character more and the second is left out.
    expect(withErrors(145).cut!.keptErrorLines).toBe(2);
    const over = withErrors(146);
    expect(over.cut!.keptErrorLines).toBe(1);
    expect(over.text).toContain('[line 151] Error: a');
    expect(over.text).not.toContain('[line 251]');
  });
});

describe('fitText with characters at the top of the BMP', () => {
  it('cuts between fullwidth characters (U+FF58) as between any others, not as between a pair', () => {
    // Above the surrogate ranges: a 72 budget leaves 6 units, head 3 and tail 3.
    const text = '\uff58'.repeat(100);
    expect(fitText(text, 72)).toBe(`${'\uff58'.repeat(3)}${fitNotice(100)}${'\uff58'.repeat(3)}`);
  });
});
