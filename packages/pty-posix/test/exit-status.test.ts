import { describe, expect, it } from 'vitest';
import { signalName, toWaitResult } from '../src/exit-status.js';

describe('toWaitResult', () => {
  it('keeps an exit code when there is no signal', () => {
    expect(toWaitResult(0, 0)).toEqual({ code: 0, signal: null });
    expect(toWaitResult(42, 0)).toEqual({ code: 42, signal: null });
  });

  it("maps node-pty's {exitCode: 0, signal: 15} to SIGTERM with no code", () => {
    expect(toWaitResult(0, 15)).toEqual({ code: null, signal: 'SIGTERM' });
    expect(toWaitResult(0, 9)).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('reports a signal Node cannot name as the shell would: 128 + n', () => {
    expect(toWaitResult(0, 34)).toEqual({ code: 162, signal: null });
  });
});

describe('signalName', () => {
  it('prefers the first name of a number (SIGABRT over its alias SIGIOT)', () => {
    expect(signalName(6)).toBe('SIGABRT');
    expect(signalName(6, { SIGIOT: 6, SIGABRT: 6 })).toBe('SIGIOT');
    expect(signalName(99)).toBeUndefined();
  });
});
