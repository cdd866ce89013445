import { describe, expect, it } from 'vitest';
import { createTreeMarker, TREE_MARKER_ENV, withTreeMarker } from '../src/index.js';

describe('tree marker', () => {
  it('is unique per call and prefixed with the host pid', () => {
    const a = createTreeMarker();
    const b = createTreeMarker();
    expect(a).not.toBe(b);
    expect(a.startsWith(`${process.pid}-`)).toBe(true);
  });

  it('is added to a copy of the environment, dropping undefined values', () => {
    const env = { A: '1', B: undefined, [TREE_MARKER_ENV]: 'old' };
    const out = withTreeMarker(env, 'new');
    expect(out).toEqual({ A: '1', [TREE_MARKER_ENV]: 'new' });
    expect(env[TREE_MARKER_ENV]).toBe('old');
  });
});
