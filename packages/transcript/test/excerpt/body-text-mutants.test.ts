// Edges of the cut the mutation run (stryker.config.mjs, part lines) found untested: an error
// line read only up to where the kept part ends, and the page hint of a cut with no session.
import { describe, expect, it } from 'vitest';
import { stringBody } from '../../src/excerpt/body-text.js';
import { applyOutputBudget, logPageHint } from '../../src/excerpt/truncate.js';

describe('stringBody errorLines', () => {
  it('reads a line only up to `to`: an error word past it does not count', () => {
    const body = stringBody('ok then failed\nx\nfatal');
    expect([...body.errorLines(0, 7)]).toEqual([]);
    expect([...body.errorLines(0, 14)]).toEqual([{ text: 'ok then failed', index: 0 }]);
    expect([...body.errorLines(15, 20)]).toEqual([]);
    expect([...body.errorLines(15, 22)]).toEqual([{ text: 'fatal', index: 2 }]);
  });
});

describe('the default page hint', () => {
  it('names no session when the cut has none', () => {
    expect(logPageHint({ sessionId: undefined, offset: 5, limit: 9 })).toBe(
      'Read them with log({ offset: 5, limit: 9 })',
    );
    const body = Array.from({ length: 400 }, (_, i) => `line ${i + 1}`).join('\n');
    const { text } = applyOutputBudget({ body, budget: 1_000 });
    expect(text).toMatch(/Read them with log\(\{ offset: \d+, limit: \d+ \}\) \.\.\.\]/);
  });
});
