import { afterEach, describe, expect, it, vi } from 'vitest';
import { containLogger, loggerOption } from '../src/index.js';

describe('containLogger', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("passes each warning and its fields to the caller's logger, and nothing to the console", () => {
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const told: unknown[][] = [];
    const logger = containLogger({ warn: (...args) => void told.push(args) });
    logger.warn('a cgroup was left', { session: 'a1' });
    logger.warn('no fields');
    expect(told).toEqual([
      ['a cgroup was left', { session: 'a1' }],
      ['no fields', undefined],
    ]);
    expect(consoleWarn).not.toHaveBeenCalled();
  });

  it('never throws: a warning its logger threw on goes to the console with what it threw', () => {
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const logger = containLogger({
      warn: (message) => {
        if (message === 'twice') throw 'a string';
        throw new Error('the log sink is full');
      },
    });
    expect(() => logger.warn('a cgroup was left', { session: 'a1' })).not.toThrow();
    expect(() => logger.warn('twice')).not.toThrow();
    expect(consoleWarn.mock.calls).toEqual([
      ['a cgroup was left', { session: 'a1', loggerThrew: 'the log sink is full' }],
      ['twice', { loggerThrew: 'a string' }],
    ]);
  });

  it('an async logger whose promise rejects: the warning goes to the console, no unhandled rejection', async () => {
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const logger = containLogger({
        warn: async () => {
          throw new Error('the sink went away');
        },
      });
      expect(() => logger.warn('a cgroup was left', { session: 'a1' })).not.toThrow();
      await vi.waitFor(() => expect(consoleWarn).toHaveBeenCalledTimes(1));
      expect(consoleWarn.mock.calls).toEqual([
        ['a cgroup was left', { session: 'a1', loggerThrew: 'the sink went away' }],
      ]);
      // An unhandled rejection is reported after the microtasks of its turn: let one turn pass.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('loggerOption: undefined is the fallback; a logger is taken, contained; anything else is refused', () => {
    const fallback = { warn: () => {} };
    expect(loggerOption(undefined, fallback)).toBe(fallback);
    const consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const taken = loggerOption(
      {
        warn: () => {
          throw new Error('full');
        },
      },
      fallback,
    );
    expect(() => taken.warn('told')).not.toThrow();
    expect(consoleWarn.mock.calls).toEqual([['told', { loggerThrew: 'full' }]]);
    for (const value of [null, 'console', console.log, { warn: 'loud' }, {}]) {
      expect(() => loggerOption(value, fallback)).toThrow(
        expect.objectContaining({
          code: 'ERR_INVALID_OPTION',
          message: expect.stringMatching(
            /^logger must be an object with a warn\(message, fields\) function \(got /,
          ),
          details: { option: 'logger' },
        }),
      );
    }
  });
});
