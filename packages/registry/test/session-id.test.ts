import { describe, expect, it } from 'vitest';
import { drawSessionId, newSessionId } from '../src/session-id.js';

/**
 * A draw that hands out the given ids in turn and counts its calls. A ninth call fails the
 * test from inside newSessionId's loop, which must never draw that often.
 */
function draws(...ids: string[]): { draw: () => string; calls: () => number } {
  let at = 0;
  const draw = () => {
    expect(at).toBeLessThan(8);
    return ids[Math.min(at++, ids.length - 1)] as string;
  };
  return { draw, calls: () => at };
}

describe('drawSessionId', () => {
  it('is proc_ and 7 characters of the unambiguous alphabet, one per random byte', () => {
    const id = drawSessionId(() => Uint8Array.from([0, 1, 31, 32, 255, 10, 11]));
    expect(id).toBe('proc_ab9a9km');
    expect(id).toHaveLength(12);
    for (let i = 0; i < 500; i += 1) expect(drawSessionId()).toMatch(/^proc_[a-km-np-z2-9]{7}$/);
  });
});

describe('newSessionId', () => {
  it('skips an id this registry holds and one the durable store recorded', async () => {
    const { draw, calls } = draws('proc_held', 'proc_stored', 'proc_fresh');
    const id = await newSessionId(
      (candidate) => candidate === 'proc_held',
      async (candidate) => candidate === 'proc_stored',
      draw,
    );
    expect(id).toBe('proc_fresh');
    expect(calls()).toBe(3);
  });

  it('checks the registry again after the store answered: a start may have taken the id meanwhile', async () => {
    const taken = new Set<string>();
    const { draw } = draws('proc_raced', 'proc_next');
    const id = await newSessionId(
      (candidate) => taken.has(candidate),
      async (candidate) => {
        if (candidate === 'proc_raced') taken.add(candidate); // another start registered it meanwhile
        return false;
      },
      draw,
    );
    expect(id).toBe('proc_next');
  });

  it('gives up with ERR_PROCESS_LIMIT after 8 draws that are all in use', async () => {
    const { draw, calls } = draws('proc_same');
    await expect(newSessionId(() => true, undefined, draw)).rejects.toMatchObject({
      code: 'ERR_PROCESS_LIMIT',
      message: 'no unused session id after 8 draws',
    });
    expect(calls()).toBe(8);
  });
});
