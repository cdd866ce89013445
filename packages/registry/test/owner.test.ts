import { describe, expect, it } from 'vitest';
import { resolveOwnerKey } from '../src/owner.js';

describe('resolveOwnerKey', () => {
  it('prefers the request owner, then ownership, then identity', () => {
    expect(resolveOwnerKey('alice', { tenantId: 't', userId: 'u' }, { agentId: 'a' })).toBe('alice');
    expect(resolveOwnerKey(undefined, { tenantId: 't', userId: 'u' }, { agentId: 'a' })).toBe('t:u');
    expect(resolveOwnerKey(undefined, undefined, { tenantId: 't', agentId: 'a' })).toBe('t:a');
    expect(resolveOwnerKey(undefined, undefined, undefined)).toBeUndefined();
    expect(resolveOwnerKey(undefined, {}, undefined)).toBeUndefined();
  });
});
