import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { createTreeMarker, resolveTreeMarker, TREE_MARKER_ENV, withTreeMarker } from '../src/index.js';

describe('tree marker', () => {
  it('is unique per call and prefixed with the host pid', () => {
    const a = createTreeMarker();
    const b = createTreeMarker();
    expect(a).not.toBe(b);
    expect(a.startsWith(`${process.pid}-`)).toBe(true);
    // <pid>-<n>-<8 hex>: the counter moves on, the random part names this process.
    const [, n, random] = a.split('-');
    expect(b).toBe(`${process.pid}-${Number(n) + 1}-${random}`);
    expect(random).toMatch(/^[0-9a-f]{8}$/);
  });

  it('is added to a copy of the environment, dropping undefined values', () => {
    const env = { A: '1', B: undefined, [TREE_MARKER_ENV]: 'old' };
    const out = withTreeMarker(env, 'new');
    expect(out).toEqual({ A: '1', [TREE_MARKER_ENV]: 'new' });
    expect(env[TREE_MARKER_ENV]).toBe('old');
  });

  it('takes a caller-minted marker as given, or mints one when none is given', () => {
    expect(resolveTreeMarker('123-4-abcd')).toBe('123-4-abcd');
    expect(resolveTreeMarker(undefined).startsWith(`${process.pid}-`)).toBe(true);
  });

  it('refuses a marker that is not safe in an environment or a command line', () => {
    for (const bad of ['', 'a b', 'a=b', 'a\nb', 'x'.repeat(129), 42]) {
      const error = throwsWith(() => resolveTreeMarker(bad), 'ERR_INVALID_OPTION');
      expect(error.message).toMatch(/^treeMarker must be 1 to 128 characters/);
    }
  });
});
