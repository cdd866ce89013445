import { invalidOptionMessage } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import {
  type CheckpointWrite,
  checkCheckpointDelete,
  checkCheckpointWrite,
  checkLeaseCall,
  checkStoreKey,
  checkStoreNamespace,
  fenceConflict,
  isProcmuxError,
} from '../src/index.js';

const invalid = invalidOptionMessage;

const write = (overrides: Partial<CheckpointWrite> = {}): CheckpointWrite => ({
  key: 'k',
  data: '{}',
  expectedVersion: 0,
  fencingToken: 1,
  ...overrides,
});

describe('store argument checks', () => {
  it('accept well-formed calls', () => {
    expect(() => checkStoreNamespace('procmux.process.v1')).not.toThrow();
    expect(() => checkStoreKey('ns', 'k')).not.toThrow();
    expect(() => checkCheckpointWrite('ns', write())).not.toThrow();
    expect(() => checkCheckpointDelete('ns', 'k', 1)).not.toThrow();
    expect(() => checkLeaseCall('ns', 'k', 'replica', { token: 0, ttlMs: 300_000 })).not.toThrow();
  });

  it('name what is wrong and what is allowed', () => {
    expect(invalid(() => checkStoreNamespace(''))).toBe(
      'namespace must be a string of 1 to 256 characters (got "")',
    );
    expect(invalid(() => checkStoreKey('ns', 'k'.repeat(257)))).toBe(
      'key must be a string of 1 to 256 characters (got a string of 257 characters)',
    );
    expect(invalid(() => checkCheckpointWrite('ns', null as never))).toMatch(
      /^write must be an object \{ key, data/,
    );
    expect(invalid(() => checkCheckpointWrite('ns', write({ data: 1 as never })))).toBe(
      'data must be a string (got 1)',
    );
    expect(invalid(() => checkCheckpointWrite('ns', write({ expectedVersion: 1.5 })))).toBe(
      'expectedVersion must be an integer of at least 0 (got 1.5)',
    );
    expect(invalid(() => checkCheckpointWrite('ns', write({ fencingToken: -1 })))).toMatch(/fencingToken/);
    expect(invalid(() => checkCheckpointDelete('ns', 'k', 0))).toBe(
      'expectedVersion must be an integer of at least 1 (got 0)',
    );
    expect(invalid(() => checkLeaseCall('ns', 'k', ''))).toMatch(/^holder must be/);
    expect(invalid(() => checkLeaseCall('ns', 'k', 'r', { token: Number.NaN }))).toMatch(/^token must be/);
    expect(invalid(() => checkLeaseCall('ns', 'k', 'r', { ttlMs: undefined }))).toBe(
      'ttlMs must be an integer from 1 to 300000 (got null)',
    );
    expect(invalid(() => checkLeaseCall('ns', 'k', 'r', { ttlMs: 300_001 }))).toMatch(/1 to 300000/);
  });
});

describe('fenceConflict', () => {
  it('is ERR_RECOVERY_FENCE saying which check lost', () => {
    const version = fenceConflict('proc_1', 'version', { expected: 2, actual: 3 });
    expect(isProcmuxError(version, 'ERR_RECOVERY_FENCE')).toBe(true);
    expect(version.message).toBe('checkpoint proc_1 is not at version 2 (it is at 3); read it again');
    expect(version.details).toEqual({ key: 'proc_1', conflict: 'version', expected: 2, actual: 3 });
    expect(fenceConflict('proc_1', 'version', { expected: 1, actual: null }).message).toMatch(
      /it is at none/,
    );
    expect(fenceConflict('proc_1', 'fence').message).toMatch(/newer fencing token/);
    expect(fenceConflict('proc_1', 'lease').details).toEqual({ key: 'proc_1', conflict: 'lease' });
  });
});
