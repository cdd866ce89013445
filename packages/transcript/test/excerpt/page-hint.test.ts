import { describe, expect, it } from 'vitest';
import { applyOutputBudget } from '../../src/excerpt/truncate.js';

const body = Array.from({ length: 400 }, (_, i) => `line ${i + 1}`).join('\n');

describe('the cut notice', () => {
  it("without a page hint says how to page with a session handle's log()", () => {
    const { text, cut } = applyOutputBudget({ body, budget: 1_000, sessionId: 'proc_a', firstLine: 10 });
    expect(cut).toBeDefined();
    expect(text).toContain(`Read them with log({ offset: ${cut!.firstOmittedLine - 1}, limit: `);
    expect(text).toMatch(/limit: \d+ \}\) on session proc_a \.\.\.\]/);
  });

  it('ends with the words the caller gives, fed the session, the 0-based offset and the page', () => {
    const pages: unknown[] = [];
    const { text, cut } = applyOutputBudget({
      body,
      budget: 1_000,
      sessionId: 'proc_b',
      pageHint: (page) => {
        pages.push(page);
        return 'Ask for the rest.';
      },
    });
    expect(text).toContain('left out here (lines ');
    expect(text).toContain('Ask for the rest. ...]');
    expect(pages).toEqual([
      expect.objectContaining({ sessionId: 'proc_b', offset: cut!.firstOmittedLine - 1 }),
    ]);
  });
});
