// The policy gate's decisions and messages, each case pinned exactly (the mutation run of
// stryker.config.mjs reads them beside pure.test.ts).
import { isProcmuxError } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { enforcePolicy, type PolicyRequest } from '../src/session/policy.js';

async function refusal(promise: Promise<unknown>): Promise<Error & { code?: string; details?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string; details?: unknown };
  }
  throw new Error('expected a refusal');
}

describe('enforcePolicy, exactly', () => {
  const request: PolicyRequest = {
    action: 'input',
    sessionId: 'proc_abcdefg',
    owner: 'o',
    command: 'cat',
    args: [],
    shell: false,
    cwd: '/w',
    fingerprint: 'f',
    pty: false,
    bytes: 3,
  };

  it('hands the request to a function or to check(), as given', async () => {
    const seen: PolicyRequest[] = [];
    await enforcePolicy((asked) => {
      seen.push(asked);
      return true;
    }, request);
    await enforcePolicy(
      {
        check: (asked) => {
          seen.push(asked);
          return { allow: true };
        },
      },
      request,
    );
    expect(seen).toEqual([request, request]);
  });

  it('denies anything but true or { allow: true }, naming the action only', async () => {
    for (const decision of [false, { allow: false }, { allow: 'yes' }, {}, null, undefined, 1]) {
      const error = await refusal(enforcePolicy(() => decision as never, request));
      expect(isProcmuxError(error, 'ERR_PROCESS_POLICY')).toBe(true);
      expect(error.message).toBe('policy denied input');
      expect(error.details).toEqual({ action: 'input' });
    }
    const reasoned = await refusal(enforcePolicy(() => ({ allow: false, reason: 'read only' }), request));
    expect(reasoned.message).toBe('policy denied input: read only');
    expect(reasoned.details).toEqual({ action: 'input' });
  });

  it('allows { allow: true } with a reason, and an async check', async () => {
    await expect(enforcePolicy(() => ({ allow: true, reason: 'ok' }), request)).resolves.toBeUndefined();
    await expect(enforcePolicy({ check: async () => true }, request)).resolves.toBeUndefined();
  });

  it('fails closed on a throwing check, keeping the cause and naming the action', async () => {
    const cause = new Error('db down');
    const error = await refusal(
      enforcePolicy(
        {
          check: () => {
            throw cause;
          },
        },
        request,
      ),
    );
    expect(error.message).toBe('policy check for input failed; denied');
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ action: 'input' });
    const rejected = await refusal(enforcePolicy(async () => Promise.reject(cause), request));
    expect(rejected.message).toBe('policy check for input failed; denied');
  });
});
