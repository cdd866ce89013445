import type { TerminationReason } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { finishedStatus } from '../src/status.js';

describe('finishedStatus', () => {
  it('is completed for exit code 0', () => {
    expect(finishedStatus({ exitCode: 0, signal: null, reason: 'exit' })).toBe('completed');
    expect(finishedStatus({ exitCode: 0, signal: null })).toBe('completed');
  });

  it('is failed for a non-zero exit code', () => {
    expect(finishedStatus({ exitCode: 1, signal: null, reason: 'exit' })).toBe('failed');
    expect(finishedStatus({ exitCode: 127, signal: null })).toBe('failed');
  });

  it('is failed for a spawn error, which has neither code nor signal', () => {
    expect(finishedStatus({ exitCode: null, signal: null, reason: 'spawn-error' })).toBe('failed');
  });

  it('is killed for any signal', () => {
    expect(finishedStatus({ exitCode: null, signal: 'SIGTERM', reason: 'signal' })).toBe('killed');
    expect(finishedStatus({ exitCode: null, signal: 'SIGKILL' })).toBe('killed');
  });

  it.each<TerminationReason>(['overall-timeout', 'no-output-timeout', 'manual-cancel', 'signal'])(
    'is killed for the forced reason %s even when the process managed to exit 0',
    (reason) => {
      expect(finishedStatus({ exitCode: 0, signal: null, reason })).toBe('killed');
    },
  );
});
