import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import {
  describe as describeValue,
  INPUT_BYTES_LIMIT,
  isTerminalState,
  LIFETIME_MS_LIMIT,
  OUTPUT_CHUNK_BYTES_LIMIT,
  OUTPUT_TOTAL_BYTES_LIMIT,
  resolveLimit,
  SESSIONS_LIMIT,
} from '../src/index.js';

describe('limits', () => {
  it('match the limits table of docs/architecture.md', () => {
    expect(SESSIONS_LIMIT).toEqual({ default: 8, hard: 32 });
    expect(INPUT_BYTES_LIMIT).toEqual({ default: 65536, hard: 1048576 });
    expect(LIFETIME_MS_LIMIT).toEqual({ default: 4 * 3600_000, hard: 24 * 3600_000 });
    expect(OUTPUT_CHUNK_BYTES_LIMIT).toEqual({ default: 51200, hard: 1048576 });
    expect(OUTPUT_TOTAL_BYTES_LIMIT).toEqual({ default: 64 * 1048576, hard: 1073741824 });
  });

  it('resolve undefined to the default and accept the bounds', () => {
    expect(resolveLimit('maxSessions', undefined, SESSIONS_LIMIT)).toBe(8);
    expect(resolveLimit('maxSessions', 1, SESSIONS_LIMIT)).toBe(1);
    expect(resolveLimit('maxSessions', 32, SESSIONS_LIMIT)).toBe(32);
    expect(resolveLimit('graceMs', 0, SESSIONS_LIMIT, 0)).toBe(0);
  });

  it.each([0, 33, -1, 1.5, Number.NaN, '8', null, {}, []])('reject %j instead of clamping', (value) => {
    const caught = throwsWith(() => resolveLimit('maxSessions', value, SESSIONS_LIMIT), 'ERR_INVALID_OPTION');
    expect(caught.message).toMatch(/^maxSessions must be an integer from 1 to 32 \(got .+\)$/);
  });

  it('describe long strings without echoing them', () => {
    expect(describeValue('x'.repeat(100))).toBe('a string of 100 characters');
    expect(describeValue(undefined)).toBe('undefined');
  });

  it('know which states are terminal', () => {
    expect(isTerminalState('running')).toBe(false);
    expect(isTerminalState('starting')).toBe(false);
    for (const state of ['exited', 'killed', 'released', 'expired', 'unknown'] as const) {
      expect(isTerminalState(state)).toBe(true);
    }
  });
});
