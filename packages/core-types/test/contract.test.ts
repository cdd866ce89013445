// The published constants and the small contracts a mutation run showed unasserted: every
// limit's default and hard cap (a change here is a change to docs/architecture.md), what describe()
// says about a bad value, every refusal's details, the output channel's edge cases.
import { throwsWith } from '@procmux/test-utils';
import { expect, describe as group, it } from 'vitest';
import * as core from '../src/index.js';
import { describe, resolveLimit } from '../src/option-checks.js';
import { checkCheckpointWrite, checkLeaseCall, checkStoreKey, fenceConflict } from '../src/store-checks.js';
import { createTreeMarker, withTreeMarker } from '../src/tree-marker.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const HOUR = 3_600_000;

group('the published limits and defaults', () => {
  it('are exactly these', () => {
    expect({
      SESSIONS_LIMIT: core.SESSIONS_LIMIT,
      INPUT_BYTES_LIMIT: core.INPUT_BYTES_LIMIT,
      LIFETIME_MS_LIMIT: core.LIFETIME_MS_LIMIT,
      OUTPUT_CHUNK_BYTES_LIMIT: core.OUTPUT_CHUNK_BYTES_LIMIT,
      OUTPUT_TOTAL_BYTES_LIMIT: core.OUTPUT_TOTAL_BYTES_LIMIT,
      UNDRAINED_BYTES_LIMIT: core.UNDRAINED_BYTES_LIMIT,
      PTY_ATTACH_TIMEOUT_MS_LIMIT: core.PTY_ATTACH_TIMEOUT_MS_LIMIT,
      RESIZE_PER_MINUTE_LIMIT: core.RESIZE_PER_MINUTE_LIMIT,
      BACKEND_METADATA_BYTES_LIMIT: core.BACKEND_METADATA_BYTES_LIMIT,
      TERMINAL_COLUMNS_LIMIT: core.TERMINAL_COLUMNS_LIMIT,
      TERMINAL_ROWS_LIMIT: core.TERMINAL_ROWS_LIMIT,
      TERM_BYTES_LIMIT: core.TERM_BYTES_LIMIT,
      RECOVERY_RECORDS_LIMIT: core.RECOVERY_RECORDS_LIMIT,
      LEASE_TTL_MS_LIMIT: core.LEASE_TTL_MS_LIMIT,
      RECOVERY_ATTACH_TIMEOUT_MS_LIMIT: core.RECOVERY_ATTACH_TIMEOUT_MS_LIMIT,
    }).toEqual({
      SESSIONS_LIMIT: { default: 8, hard: 32 },
      INPUT_BYTES_LIMIT: { default: 64 * KiB, hard: MiB },
      LIFETIME_MS_LIMIT: { default: 4 * HOUR, hard: 24 * HOUR },
      OUTPUT_CHUNK_BYTES_LIMIT: { default: 50 * KiB, hard: MiB },
      OUTPUT_TOTAL_BYTES_LIMIT: { default: 64 * MiB, hard: GiB },
      UNDRAINED_BYTES_LIMIT: { default: 30_000, hard: GiB },
      PTY_ATTACH_TIMEOUT_MS_LIMIT: { default: 30_000, hard: 120_000 },
      RESIZE_PER_MINUTE_LIMIT: { default: 60, hard: 600 },
      BACKEND_METADATA_BYTES_LIMIT: { default: 4 * KiB, hard: 16 * KiB },
      TERMINAL_COLUMNS_LIMIT: { default: 120, hard: 500 },
      TERMINAL_ROWS_LIMIT: { default: 40, hard: 200 },
      TERM_BYTES_LIMIT: { default: 64, hard: 256 },
      RECOVERY_RECORDS_LIMIT: { default: 32, hard: 128 },
      LEASE_TTL_MS_LIMIT: { default: 30_000, hard: 300_000 },
      RECOVERY_ATTACH_TIMEOUT_MS_LIMIT: { default: 30_000, hard: 120_000 },
    });
    expect({
      DEFAULT_MAX_CAPTURE_BYTES: core.DEFAULT_MAX_CAPTURE_BYTES,
      DEFAULT_DRAIN_TIMEOUT_MS: core.DEFAULT_DRAIN_TIMEOUT_MS,
      FORCE_KILL_SETTLE_MS: core.FORCE_KILL_SETTLE_MS,
      DEFAULT_KILL_GRACE_MS: core.DEFAULT_KILL_GRACE_MS,
      MAX_KILL_GRACE_MS: core.MAX_KILL_GRACE_MS,
      TAIL_CHARS: core.TAIL_CHARS,
      DEFAULT_FINISHED_TTL_MS: core.DEFAULT_FINISHED_TTL_MS,
      DEFAULT_COLS: core.DEFAULT_COLS,
      DEFAULT_ROWS: core.DEFAULT_ROWS,
      DEFAULT_TERM: core.DEFAULT_TERM,
      DEFAULT_SCROLLBACK: core.DEFAULT_SCROLLBACK,
      TREE_MARKER_ENV: core.TREE_MARKER_ENV,
      RECOVERY_NAMESPACE: core.RECOVERY_NAMESPACE,
      RECOVERY_SCHEMA_VERSION: core.RECOVERY_SCHEMA_VERSION,
      RECOVERY_RECORD_BYTES: core.RECOVERY_RECORD_BYTES,
      RECOVERY_REF_BYTES: core.RECOVERY_REF_BYTES,
    }).toEqual({
      DEFAULT_MAX_CAPTURE_BYTES: MiB,
      DEFAULT_DRAIN_TIMEOUT_MS: 250,
      FORCE_KILL_SETTLE_MS: 4_000,
      DEFAULT_KILL_GRACE_MS: 3_000,
      MAX_KILL_GRACE_MS: 60_000,
      TAIL_CHARS: 2_000,
      DEFAULT_FINISHED_TTL_MS: 30 * 60_000,
      DEFAULT_COLS: 120,
      DEFAULT_ROWS: 30,
      DEFAULT_TERM: 'xterm-256color',
      DEFAULT_SCROLLBACK: 5_000,
      TREE_MARKER_ENV: 'PROCMUX_TREE',
      RECOVERY_NAMESPACE: 'procmux.process.v1',
      RECOVERY_SCHEMA_VERSION: 1,
      RECOVERY_RECORD_BYTES: 16 * KiB,
      RECOVERY_REF_BYTES: KiB,
    });
  });
});

group('describe(): a bad value in a message', () => {
  it('quotes a string of up to 40 characters and only counts a longer one', () => {
    expect(describe('x'.repeat(40))).toBe(JSON.stringify('x'.repeat(40)));
    expect(describe('x'.repeat(41))).toBe('a string of 41 characters');
  });

  it('names the kind of anything else', () => {
    expect([1.5, true, null, undefined].map(describe)).toEqual(['1.5', 'true', 'null', 'undefined']);
    expect(describe([1])).toBe('an array');
    expect(describe({})).toBe('a object');
    expect(describe(() => 1)).toBe('a function');
    expect(describe(10n)).toBe('a bigint');
  });
});

group('every refusal says which option, and what is allowed', () => {
  it('resolveLimit', () => {
    const limit = { default: 5, hard: 10 };
    for (const value of [0, 11, 1.5, '3', Number.NaN]) {
      const error = throwsWith(() => resolveLimit('widgets', value, limit), 'ERR_INVALID_OPTION');
      expect(error.details).toEqual({ option: 'widgets', min: 1, max: 10 });
    }
    expect(resolveLimit('widgets', 1, limit)).toBe(1);
    expect(resolveLimit('widgets', 10, limit)).toBe(10);
    expect(resolveLimit('widgets', 0, limit, 0)).toBe(0);
  });

  it('resolveGraceMs and validateOptionsObject', () => {
    expect(throwsWith(() => core.resolveGraceMs('1'), 'ERR_INVALID_OPTION').details).toEqual({
      option: 'graceMs',
      min: 0,
      max: 60_000,
    });
    const options = throwsWith(() => core.validateOptionsObject(5), 'ERR_INVALID_OPTION');
    expect(options.message).toBe('options must be an object (got 5)');
    expect(options.details).toEqual({ option: 'options' });
    expect(throwsWith(() => core.validateOptionsObject([]), 'ERR_INVALID_OPTION').message).toBe(
      'options must be an object (got an array)',
    );
  });

  it('the store checks, at their bounds', () => {
    expect(() => checkStoreKey('n', 'k'.repeat(256))).not.toThrow();
    const long = throwsWith(() => checkStoreKey('n', 'k'.repeat(257)), 'ERR_INVALID_OPTION');
    expect(long.message).toBe('key must be a string of 1 to 256 characters (got a string of 257 characters)');
    expect(long.details).toEqual({ option: 'key', max: 256 });
    expect(throwsWith(() => checkStoreKey('', 'k'), 'ERR_INVALID_OPTION').details).toEqual({
      option: 'namespace',
      max: 256,
    });
    expect(throwsWith(() => checkStoreKey(3, 'k'), 'ERR_INVALID_OPTION').message).toMatch(
      /^namespace must be/,
    );
    const token = throwsWith(() => checkLeaseCall('n', 'k', 'h', { token: -1 }), 'ERR_INVALID_OPTION');
    expect(token.message).toBe('token must be an integer of at least 0 (got -1)');
    expect(token.details).toEqual({ option: 'token', min: 0 });
    expect(() => checkLeaseCall('n', 'k', 'h', { token: 0 })).not.toThrow();
    expect(() => checkLeaseCall('n', 'k', 'h', {})).not.toThrow();
    throwsWith(() => checkLeaseCall('n', 'k', 'h', { token: 2 ** 53 }), 'ERR_INVALID_OPTION');
    throwsWith(() => checkLeaseCall('n', 'k', 'h', { token: '1' }), 'ERR_INVALID_OPTION');
    throwsWith(() => checkCheckpointWrite('n', null as never), 'ERR_INVALID_OPTION');
    throwsWith(() => checkCheckpointWrite('n', 'write' as never), 'ERR_INVALID_OPTION');
  });

  it('fenceConflict explains each conflict', () => {
    expect(fenceConflict('k', 'version', { expected: 2, actual: null }).message).toBe(
      'checkpoint k is not at version 2 (it is at none); read it again',
    );
    expect(fenceConflict('k', 'version').message).toBe(
      'checkpoint k is not at version ? (it is at none); read it again',
    );
    expect(fenceConflict('k', 'lease').message).toBe(
      'the lease on k is no longer held under this token; it was taken over or released',
    );
    expect(fenceConflict('k', 'fence').details).toEqual({ key: 'k', conflict: 'fence' });
  });
});

group('errors', () => {
  it('keeps a cause only when there is one', () => {
    expect('cause' in new core.ProcmuxError('ERR_INVALID_OPTION', 'm')).toBe(false);
    expect(new core.ProcmuxError('ERR_INVALID_OPTION', 'm', { cause: 0 }).cause).toBe(0);
    expect('cause' in core.abortError()).toBe(false);
    const aborted = core.abortError('why');
    expect([aborted.name, aborted.message, aborted.cause]).toEqual([
      'AbortError',
      'The operation was aborted',
      'why',
    ]);
  });

  it('is recognised by its brand, and nothing else is', () => {
    expect(core.isProcmuxError(null)).toBe(false);
    expect(core.isProcmuxError('ERR_INVALID_OPTION')).toBe(false);
    expect(core.isProcmuxError({ code: 'ERR_INVALID_OPTION' })).toBe(false);
  });
});

group('tree markers', () => {
  it('count up within a host and carry its pid', () => {
    const [a, b] = [createTreeMarker(), createTreeMarker()];
    const n = (marker: string) => Number(marker.split('-')[1]);
    expect(a.startsWith(`${process.pid}-`)).toBe(true);
    expect(n(b)).toBe(n(a) + 1);
  });

  it('drop variables whose value is undefined, keep empty ones', () => {
    expect(withTreeMarker({ A: undefined, B: '', PROCMUX_TREE: 'old' }, 'new')).toEqual({
      B: '',
      PROCMUX_TREE: 'new',
    });
  });
});

group('OutputChannel edge cases', () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('ignores empty chunks, before and after the first listener', async () => {
    const channel = new core.OutputChannel();
    channel.emit('');
    const got: string[] = [];
    channel.on((c) => got.push(c));
    await tick();
    expect(got).toEqual([]);
    channel.emit('');
    channel.emit('a');
    expect(got).toEqual(['a']);
  });

  it('hands the held chunks over once, to the listeners there when it runs', async () => {
    const channel = new core.OutputChannel();
    channel.emit('x');
    const first: string[] = [];
    const second: string[] = [];
    channel.on((c) => first.push(c));
    channel.on((c) => second.push(c));
    channel.emit('y');
    await tick();
    expect(first).toEqual(['xy']);
    expect(second).toEqual(['xy']);
    channel.emit('z');
    expect(first).toEqual(['xy', 'z']);
  });

  it('keeps the held chunks when the only listener left before they were handed over', async () => {
    const channel = new core.OutputChannel();
    channel.emit('kept');
    channel.on(() => {})();
    await tick();
    const got: string[] = [];
    channel.on((c) => got.push(c));
    await tick();
    expect(got).toEqual(['kept']);
  });

  it('delivers nothing after dispose, and a late listener gets a no-op disposer', async () => {
    const channel = new core.OutputChannel();
    const got: string[] = [];
    channel.emit('held');
    channel.on((c) => got.push(c));
    channel.dispose();
    await tick();
    channel.emit('late');
    const off = channel.on((c) => got.push(c));
    off();
    channel.emit('later');
    await tick();
    expect(got).toEqual([]);
  });
});
