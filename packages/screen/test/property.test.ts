import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { TerminalScreen } from '../src/index.js';

// Output that only appends (text, wide characters, line breaks, lines longer than the screen is
// wide; no cursor movement): whenever renderNew() is called, the deltas concatenate to exactly
// what renderFull() shows, and to what one renderNew() at the end returns.
const piece = fc.oneof(
  fc.constantFrom('a', ' ', '你', '😀', '\r\n', '\r\n\r\n', '  \r\n'),
  fc.string({ unit: fc.constantFrom('x', 'y', ' ', '好'), minLength: 1, maxLength: 40 }),
);
const step = fc.tuple(
  fc.array(piece, { minLength: 1, maxLength: 8 }).map((pieces) => pieces.join('')),
  fc.boolean(),
);

it('concatenated renderNew() deltas equal renderFull() for output that only appends', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), async (steps) => {
      const polled = new TerminalScreen({ cols: 12, rows: 4, scrollback: 1_000 });
      const once = new TerminalScreen({ cols: 12, rows: 4, scrollback: 1_000 });
      try {
        let text = '';
        for (const [chunk, read] of steps) {
          polled.feed(chunk);
          once.feed(chunk);
          if (read) text += await polled.renderNew();
        }
        text += await polled.renderNew();
        const full = await polled.renderFull();
        expect(text).toBe(full);
        expect(await once.renderNew()).toBe(full);
      } finally {
        polled.dispose();
        once.dispose();
      }
    }),
    { numRuns: propertyRuns(150) },
  );
});
