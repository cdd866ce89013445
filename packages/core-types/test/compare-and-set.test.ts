import { rejectsWith, throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { checkCompareAndSet } from '../src/index.js';

const write = (expectedVersion: number, fencingToken: number) => ({
  key: 'k',
  data: '{}',
  expectedVersion,
  fencingToken,
});

describe('checkCompareAndSet', () => {
  it('creates an entry at version 1 from version 0', () => {
    expect(checkCompareAndSet(write(0, 1), undefined)).toBe(1);
  });

  it('moves an entry one version on under the same or a newer token', () => {
    expect(checkCompareAndSet(write(3, 5), { version: 3, fencingToken: 5 })).toBe(4);
    expect(checkCompareAndSet(write(3, 6), { version: 3, fencingToken: 5 })).toBe(4);
  });

  it('refuses a write at another version, saying which', () => {
    const error = throwsWith(
      () => checkCompareAndSet(write(2, 5), { version: 3, fencingToken: 5 }),
      'ERR_RECOVERY_FENCE',
    );
    expect(error.details).toMatchObject({ conflict: 'version', expected: 2, actual: 3 });
    const missing = throwsWith(() => checkCompareAndSet(write(1, 5), undefined), 'ERR_RECOVERY_FENCE');
    expect(missing.details).toMatchObject({ conflict: 'version', expected: 1, actual: null });
  });

  it('refuses a write under an older fencing token', async () => {
    const error = throwsWith(
      () => checkCompareAndSet(write(3, 4), { version: 3, fencingToken: 5 }),
      'ERR_RECOVERY_FENCE',
    );
    expect(error.details).toMatchObject({ conflict: 'fence' });
    await rejectsWith(Promise.reject(error), 'ERR_RECOVERY_FENCE');
  });
});
