import { invalidOptionMessage } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { NON_INTERACTIVE_ENV, PIPE_OUTPUT_ENV } from '../src/index.js';
import { resolveToolOptions } from '../src/options.js';

describe('resolveToolOptions', () => {
  it('fills in the documented defaults', () => {
    expect(resolveToolOptions()).toEqual({
      outputBudget: 30_000,
      oneShotTimeoutMs: 120_000,
      oneShotNoOutputTimeoutMs: 60_000,
      startupWaitMs: 2_000,
      nonInteractiveEnv: NON_INTERACTIVE_ENV,
      pipeOutputEnv: PIPE_OUTPUT_ENV,
      reportBackgroundJobs: process.platform !== 'win32',
    });
  });

  it('refuses a reportBackgroundJobs that is not a boolean', () => {
    expect(() => resolveToolOptions({ reportBackgroundJobs: 'yes' as never })).toThrow(
      /reportBackgroundJobs/,
    );
    expect(resolveToolOptions({ reportBackgroundJobs: false }).reportBackgroundJobs).toBe(false);
  });

  it('keeps values in range', () => {
    const o = resolveToolOptions({
      outputBudget: 1_000,
      startupWaitMs: 0,
      nonInteractiveEnv: { PAGER: 'more' },
    });
    expect(o.outputBudget).toBe(1_000);
    expect(o.startupWaitMs).toBe(0);
    expect(o.nonInteractiveEnv).toEqual({ PAGER: 'more' });
  });

  it.each([
    [{ outputBudget: 999 }, 'outputBudget must be an integer from 1000 to 1000000 (got 999)'],
    [{ startupWaitMs: 10_001 }, 'startupWaitMs must be an integer from 0 to 10000 (got 10001)'],
    [{ oneShotTimeoutMs: 0 }, 'oneShotTimeoutMs must be an integer from 1 to 86400000 (got 0)'],
    [{ budget: 5 }, 'options.budget must be one of the known options: outputBudget'],
    [
      { nonInteractiveEnv: { PAGER: 1 } },
      'nonInteractiveEnv must be an object mapping variable names to string values',
    ],
    [
      { pipeOutputEnv: 'PYTHONUNBUFFERED=1' },
      'pipeOutputEnv must be an object mapping variable names to string values',
    ],
  ])('refuses %o with a message saying what is allowed', (options, message) => {
    expect(invalidOptionMessage(() => resolveToolOptions(options as never))).toContain(message);
  });

  it('refuses options that are not an object', () => {
    expect(() => resolveToolOptions(null as never)).toThrow('options must be an object');
  });
});

describe('NON_INTERACTIVE_ENV', () => {
  it('turns off pagers, prompts, password helpers and editors', () => {
    expect(NON_INTERACTIVE_ENV).toMatchObject({
      PAGER: 'cat',
      GIT_PAGER: 'cat',
      GIT_TERMINAL_PROMPT: '0',
      GIT_ASKPASS: '',
      SSH_ASKPASS: '',
      GIT_EDITOR: 'true',
      DEBIAN_FRONTEND: 'noninteractive',
    });
    expect(Object.isFrozen(NON_INTERACTIVE_ENV)).toBe(true);
    expect(NON_INTERACTIVE_ENV).not.toHaveProperty('CI');
  });
});
