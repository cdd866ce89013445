// A stream's gathered text kept as pieces behaves as the one string it stands for, whatever the
// order of appends, trims and reads.
import { propertyRuns } from '@procmux/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GatheredText } from '../src/gathered-text.js';

type Op =
  | { kind: 'append'; text: string }
  | { kind: 'dropFront'; count: number }
  | { kind: 'truncate'; keep: number }
  | { kind: 'join' };

const chunk = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('a', '\n', 'é', '😀'), maxLength: 40 }),
  fc.integer({ min: 1, max: 9_000 }).map((n) => 'xy\n'.repeat(n).slice(0, n)),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: chunk.map((text) => ({ kind: 'append' as const, text })) },
  { weight: 1, arbitrary: fc.nat(12_000).map((count) => ({ kind: 'dropFront' as const, count })) },
  { weight: 1, arbitrary: fc.nat(12_000).map((keep) => ({ kind: 'truncate' as const, keep })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'join' as const }) },
);

describe('GatheredText', () => {
  it('reads as the string it stands for after any appends, drops and truncations', () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 40 }),
        fc.array(fc.nat(), { minLength: 4, maxLength: 4 }),
        (ops, at) => {
          const text = new GatheredText();
          let model = '';
          for (const step of ops) {
            if (step.kind === 'append') {
              text.append(step.text);
              model += step.text;
            } else if (step.kind === 'dropFront') {
              expect(text.dropFront(step.count)).toBe(model.slice(0, step.count));
              model = model.slice(step.count);
            } else if (step.kind === 'truncate') {
              text.truncate(step.keep);
              model = model.slice(0, step.keep);
            } else {
              expect(text.toString()).toBe(model);
            }
            expect(text.length).toBe(model.length);
            const [a = 0, b = 0, c = 0, d = 0] = at.map((n) => n % (model.length + 2));
            expect(text.from(a)).toBe(model.slice(a));
            expect(text.head(b)).toBe(model.slice(0, b));
            expect(text.lastIndexOf('\n', c)).toBe(c === 0 ? -1 : model.lastIndexOf('\n', c - 1));
            expect(text.charCodeAt(d)).toBe(model.charCodeAt(d));
            expect(text.endsWith(model.slice(a))).toBe(true);
            if (model.length > 0) expect(text.endsWith(`${model.slice(a)}\u0001`)).toBe(false);
          }
          expect(text.toString()).toBe(model);
        },
      ),
      { numRuns: propertyRuns(300) },
    );
  });
});
