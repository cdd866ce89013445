import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { OutputLog } from '../../src/log/output-log.js';
import { SessionTranscript } from '../../src/session-transcript.js';
import { expectPagesExact } from './small-cap-oracle.js';

// Plain text, a multi-byte letter, an astral character, a carriage return, colour sequences.
const piece = fc.constantFrom(
  'a',
  'b',
  ' ',
  '7',
  'é',
  '😀',
  '\r',
  '\u001b[31m',
  '\u001b[0m',
  '\u001b]0;t\u0007',
);
const line = fc.oneof(
  { weight: 8, arbitrary: fc.array(piece, { maxLength: 30 }).map((p) => p.join('')) },
  // Longer than some caps: the history may hold no line start at all.
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 3_500 }).map((n) => 'x'.repeat(n)) },
);

describe('log() under a small history cap (property)', () => {
  it('every page equals the retained whole lines of the full text, numbered as written', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 16, max: 3_000 }),
        fc.array(line, { minLength: 1, maxLength: 400 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom(4, 64, 1024),
        async (cap, lines, ends, sizes, limit, pageBytes) => {
          const text = lines.join('\n') + (ends ? '\n' : '');
          const t = new SessionTranscript({ log: new OutputLog({ maxRetainedBytes: cap }) });
          // Chunks of the given sizes in turn, cut between UTF-16 units of a pair as adapters never do.
          for (let at = 0, i = 0; at < text.length; i += 1) {
            let to = Math.min(text.length, at + sizes[i % sizes.length]!);
            if (to < text.length && /[\ud800-\udbff]/.test(text[to - 1]!)) to += 1;
            t.append('stdout', text.slice(at, to));
            at = to;
          }
          await expectPagesExact(t, text, limit, pageBytes);
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});
