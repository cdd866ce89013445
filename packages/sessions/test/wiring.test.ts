// Pure parts of a registry's wiring: which PTY backend runs, and how parked polls wake.
import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { choosePtyBackend, hostPtyBackend, type ProcessPtyBackend } from '../src/backends/pty-backend.js';
import { PollWaiters } from '../src/session/waiting.js';

const host: ProcessPtyBackend = {
  capabilities: { resize: true },
  startPty: () => {
    throw new Error('not started in this test');
  },
};

describe('choosePtyBackend', () => {
  it('runs PTY sessions natively when the option is omitted', () => {
    expect(choosePtyBackend(undefined)).toBe('native');
    expect(hostPtyBackend('native')).toBeUndefined();
  });

  it('has no PTY sessions with null', () => {
    expect(choosePtyBackend(null)).toBeNull();
    expect(hostPtyBackend(null)).toBeUndefined();
  });

  it('takes a host backend as it is, and it is the one a start uses', () => {
    expect(choosePtyBackend(host)).toBe(host);
    expect(hostPtyBackend(host)).toBe(host);
  });

  it.each([
    ['an empty object', {}],
    ['a string', 'native'],
    ['a number', 42],
    ['a non-function startPty', { startPty: 1 }],
    ['a non-boolean resize capability', { startPty: () => ({}), capabilities: { resize: 'yes' } }],
  ])('refuses %s with ERR_INVALID_OPTION saying what is allowed', (_name, value) => {
    const error = throwsWith(() => choosePtyBackend(value as never), 'ERR_INVALID_OPTION');
    expect(error.message).toMatch(/ptyBackend/);
  });
});

describe('PollWaiters', () => {
  it('wakes every parked poll at once', async () => {
    const waiters = new PollWaiters();
    const woken: number[] = [];
    const a = waiters.next(60_000).then(() => woken.push(1));
    const b = waiters.next(60_000).then(() => woken.push(2));
    expect(waiters.size).toBe(2);
    waiters.wake();
    await Promise.all([a, b]);
    expect(woken.sort()).toEqual([1, 2]);
    expect(waiters.size).toBe(0);
  });

  it('lets a poll go after its timeout when nothing happens, and forgets it', async () => {
    const waiters = new PollWaiters();
    await waiters.next(5);
    expect(waiters.size).toBe(0);
  });

  it('a wake with nobody parked does nothing', () => {
    const waiters = new PollWaiters();
    expect(() => waiters.wake()).not.toThrow();
    expect(waiters.size).toBe(0);
  });
});
