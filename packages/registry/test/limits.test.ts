import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { PROCESS_SESSION_LIMITS, resolveProcessSessionLimits } from '../src/limits.js';

describe('resolveProcessSessionLimits', () => {
  it('fills every default from the table', () => {
    const limits = resolveProcessSessionLimits();
    expect(limits).toMatchObject({
      maxSessions: 8,
      maxInputBytes: 64 * 1024,
      maxLifetimeMs: 4 * 3600_000,
      maxOutputChunkBytes: 50 * 1024,
      maxOutputBytes: 64 * 1024 * 1024,
      maxPtyAttachTimeoutMs: 30_000,
      maxResizesPerMinute: 60,
      maxPtyBackendMetadataBytes: 4096,
      maxTerminalColumns: 120,
      maxTerminalRows: 40,
      maxTermBytes: 64,
    });
  });

  it('accepts each hard cap and refuses one past it, never clamping', () => {
    for (const [key, limit] of Object.entries(PROCESS_SESSION_LIMITS)) {
      expect(
        resolveProcessSessionLimits({ [key]: limit.hard })[key as keyof typeof PROCESS_SESSION_LIMITS],
      ).toBe(limit.hard);
      throwsWith(() => resolveProcessSessionLimits({ [key]: limit.hard + 1 }), 'ERR_INVALID_OPTION');
      throwsWith(() => resolveProcessSessionLimits({ [key]: 0 }), 'ERR_INVALID_OPTION');
    }
  });

  it('refuses wrong types and unknown keys with a message naming what is allowed', () => {
    throwsWith(
      () => resolveProcessSessionLimits({ maxSessions: '8' as unknown as number }),
      'ERR_INVALID_OPTION',
    );
    expect(() => resolveProcessSessionLimits({ maxSesions: 4 } as never)).toThrow(
      /^limits\.maxSesions must be one of the known limits: maxSessions/,
    );
    expect(() => resolveProcessSessionLimits({ maxSessions: 33 })).toThrow(
      'limits.maxSessions must be an integer from 1 to 32 (got 33)',
    );
    throwsWith(() => resolveProcessSessionLimits(null as never), 'ERR_INVALID_OPTION');
  });
});
