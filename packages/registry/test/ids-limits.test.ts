// The pure rules of session ids and the limits, each case pinned exactly (the mutation run
// of stryker.config.mjs reads them).
import { isProcmuxError } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { resolveProcessSessionLimits } from '../src/limits.js';
import { drawSessionId, newSessionId } from '../src/session-id.js';

async function refusal(promise: Promise<unknown>): Promise<Error & { code?: string; details?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string; details?: unknown };
  }
  throw new Error('expected a refusal');
}

describe('drawSessionId', () => {
  it('is proc_ and 7 characters, one per random byte, from its low 5 bits', () => {
    const asked: number[] = [];
    const id = drawSessionId((size) => {
      asked.push(size);
      return Uint8Array.from([0, 1, 31, 32, 63, 255, 8]);
    });
    expect(asked).toEqual([7]);
    expect(id).toBe('proc_ab9a99i');
  });

  it('uses 32 characters that cannot be misread: no 0, o, 1 or l', () => {
    const seen = new Set<string>();
    for (let byte = 0; byte < 32; byte += 7) {
      const id = drawSessionId(() => Uint8Array.from([0, 1, 2, 3, 4, 5, 6].map((i) => (byte + i) % 32)));
      for (const char of id.slice(5)) seen.add(char);
    }
    expect([...seen].sort().join('')).toBe('23456789abcdefghijkmnpqrstuvwxyz');
  });
});

describe('newSessionId', () => {
  it('draws at most 8 times, then refuses naming the count', async () => {
    let draws = 0;
    const error = await refusal(
      newSessionId(
        () => true,
        undefined,
        () => {
          draws += 1;
          // A ninth draw fails the test from inside the loop, should it run on past its bound.
          expect(draws).toBeLessThanOrEqual(8);
          return `proc_${draws}`;
        },
      ),
    );
    expect(draws).toBe(8);
    expect(isProcmuxError(error, 'ERR_PROCESS_LIMIT')).toBe(true);
    expect(error.message).toBe('no unused session id after 8 draws');
  });

  it('finds a free id on the 8th draw', async () => {
    let draws = 0;
    const id = await newSessionId(
      (candidate) => candidate !== 'proc_8',
      undefined,
      () => `proc_${++draws}`,
    );
    expect(id).toBe('proc_8');
  });

  it('skips an id the store holds, and one taken while the store answered', async () => {
    const drawn = ['proc_stored', 'proc_raced', 'proc_free'];
    const taken = new Set<string>();
    const asked: string[] = [];
    const id = await newSessionId(
      (candidate) => taken.has(candidate),
      async (candidate) => {
        asked.push(candidate);
        // Another start takes this one while the store is asked.
        if (candidate === 'proc_raced') taken.add(candidate);
        return candidate === 'proc_stored';
      },
      () => drawn.shift()!,
    );
    expect(id).toBe('proc_free');
    expect(asked).toEqual(['proc_stored', 'proc_raced', 'proc_free']);
  });

  it('asks the store nothing about an id in use here', async () => {
    const drawn = ['proc_used', 'proc_new'];
    const asked: string[] = [];
    await newSessionId(
      (candidate) => candidate === 'proc_used',
      async (candidate) => {
        asked.push(candidate);
        return false;
      },
      () => drawn.shift()!,
    );
    expect(asked).toEqual(['proc_new']);
  });
});

describe('resolveProcessSessionLimits, refused', () => {
  it.each([null, [], 5, 'x'])('refuses %j as the limits, naming what they must be', (value) => {
    let error: unknown;
    try {
      resolveProcessSessionLimits(value as never);
    } catch (caught) {
      error = caught;
    }
    expect(isProcmuxError(error, 'ERR_INVALID_OPTION')).toBe(true);
    expect((error as Error).message).toMatch(/^limits must be an object of optional integer caps \(got /);
  });

  it('names the limit it refuses by its full key, and fills the rest', () => {
    expect(() => resolveProcessSessionLimits({ maxTermBytes: 257 })).toThrow(/^limits\.maxTermBytes /);
    const raised = resolveProcessSessionLimits({ maxUndrainedBytes: 1 });
    expect(raised.maxUndrainedBytes).toBe(1);
    expect(raised.maxOutputMemoryBytes).toBe(4 * 1024 * 1024);
    expect(Object.keys(raised).length).toBe(13);
  });
});
