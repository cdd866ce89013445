import { propertyRuns } from '@procmux/test-utils';
import xterm from '@xterm/headless';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { readRows } from '../src/buffer-lines.js';
import { plainRows } from '../src/plain-rows.js';

// plainRows() against xterm.js itself, row by row (text and wrap flag, not only the render):
// a one-row terminal scrolls a fresh blank row in at every line feed, as plainRows assumes,
// and keeps every row (the scrollback is larger than any text here).
const text = fc.string({
  unit: fc.constantFrom('a', 'b', ' ', 'x', '\r', '\n', '\r\n', 'abcdefghijklm'),
  maxLength: 60,
});

async function xtermRows(input: string, cols: number) {
  const terminal = new xterm.Terminal({ cols, rows: 1, scrollback: 10_000, allowProposedApi: true });
  try {
    await new Promise<void>((resolve) => terminal.write(input, resolve));
    return readRows(terminal.buffer.normal, 0, terminal.buffer.normal.length);
  } finally {
    terminal.dispose();
  }
}

it('leaves the rows xterm.js leaves for plain text: wraps, CR rewrites, a line feed after the last column', async () => {
  await fc.assert(
    fc.asyncProperty(text, fc.integer({ min: 2, max: 12 }), async (input, cols) => {
      expect(plainRows(input, cols, Number.MAX_SAFE_INTEGER)).toEqual(await xtermRows(input, cols));
    }),
    { numRuns: propertyRuns(500) },
  );
});

it('keeps only the last `count` rows', () => {
  expect(plainRows('a\r\nb\r\nc', 4, 2)).toEqual([
    { text: 'b', wrapped: false },
    { text: 'c', wrapped: false },
  ]);
  expect(plainRows('a\r\nb', 4, 3)).toHaveLength(2);
});
