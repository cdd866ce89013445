import { existsSync, mkdtempSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { RECOVERY_NAMESPACE } from '@procmux/core-types';
import { invalidOptionMessage, testTmpdir } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SQLITE_FILE, openSqliteRecoveryStore } from '../src/index.js';

const NS = RECOVERY_NAMESPACE;
const temp = () => realpathSync(mkdtempSync(join(testTmpdir(), 'procmux-sqlite-open-')));

describe('openSqliteRecoveryStore', () => {
  it('keeps a workspace store in <workspace>/.procmux/recovery.sqlite, creating the directory', async () => {
    const workspace = temp();
    const store = openSqliteRecoveryStore({ workspace });
    expect(store.path).toBe(join(workspace, DEFAULT_SQLITE_FILE));
    expect(existsSync(join(workspace, '.procmux', 'recovery.sqlite'))).toBe(true);
    await store.checkpoints.compareAndSet(NS, { key: 'k', data: 'd', expectedVersion: 0, fencingToken: 1 });
    store.close();
    store.close();
    const reopened = openSqliteRecoveryStore({ path: join(workspace, DEFAULT_SQLITE_FILE) });
    expect(await reopened.checkpoints.get(NS, 'k')).toMatchObject({ data: 'd', version: 1 });
    reopened.close();
  });

  it('shares records and one token sequence between two connections to one file', async () => {
    const path = join(temp(), 'nested', 'dir', 'shared.sqlite');
    const one = openSqliteRecoveryStore({ path });
    const two = openSqliteRecoveryStore({ path, busyTimeoutMs: 0 });
    const first = await one.leases.acquire(NS, 'a', 'replica-1', 60_000);
    expect(await two.leases.acquire(NS, 'a', 'replica-2', 60_000)).toBeUndefined();
    const second = await two.leases.acquire(NS, 'b', 'replica-2', 60_000);
    expect(second!.token).toBeGreaterThan(first!.token);
    await one.checkpoints.compareAndSet(NS, {
      key: 'a',
      data: 'x',
      expectedVersion: 0,
      fencingToken: first!.token,
    });
    await expect(
      two.checkpoints.compareAndSet(NS, {
        key: 'a',
        data: 'y',
        expectedVersion: 0,
        fencingToken: second!.token,
      }),
    ).rejects.toMatchObject({ code: 'ERR_RECOVERY_FENCE' });
    expect((await two.checkpoints.get(NS, 'a'))?.data).toBe('x');
    one.close();
    two.close();
  });

  it('measures lease expiry by the clock it is given', async () => {
    let now = 1_000;
    const store = openSqliteRecoveryStore({ path: join(temp(), 'clock.sqlite'), now: () => now });
    const a = await store.leases.acquire(NS, 'k', 'replica-a', 5_000);
    expect(a).toMatchObject({ expiresAt: 6_000 });
    now = 5_999;
    expect(await store.leases.acquire(NS, 'k', 'replica-b', 5_000)).toBeUndefined();
    now = 6_000;
    expect(await store.leases.acquire(NS, 'k', 'replica-b', 5_000)).toMatchObject({
      holder: 'replica-b',
      expiresAt: 11_000,
    });
    await store.checkpoints.compareAndSet(NS, { key: 'k', data: 'd', expectedVersion: 0, fencingToken: 1 });
    expect((await store.checkpoints.get(NS, 'k'))?.updatedAt).toBe(6_000);
    store.close();
  });

  it('rejects calls after close', async () => {
    const store = openSqliteRecoveryStore({ path: join(temp(), 'closed.sqlite') });
    store.close();
    await expect(store.checkpoints.list(NS)).rejects.toThrow(/not open/);
  });

  it('refuses bad options with ERR_INVALID_OPTION', () => {
    expect(invalidOptionMessage(() => openSqliteRecoveryStore({}))).toMatch(
      /^workspace or path must be given, exactly one of the 2/,
    );
    invalidOptionMessage(() => openSqliteRecoveryStore({ path: 'a', workspace: 'b' }));
    invalidOptionMessage(() => openSqliteRecoveryStore(null as never));
    expect(invalidOptionMessage(() => openSqliteRecoveryStore({ workspace: 'a\0b' }))).toMatch(
      /^workspace must be/,
    );
    expect(invalidOptionMessage(() => openSqliteRecoveryStore({ path: '' }))).toBe(
      'path must be a non-empty string without NUL characters (got "")',
    );
    expect(invalidOptionMessage(() => openSqliteRecoveryStore({ path: 'x.sqlite', busyTimeoutMs: -1 }))).toBe(
      'busyTimeoutMs must be an integer from 0 to 60000 (got -1)',
    );
  });
});
