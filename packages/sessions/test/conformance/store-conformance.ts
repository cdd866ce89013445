// One conformance suite for every CheckpointStore + LeaseStore pair (memory, SQLite,
// PostgreSQL): the store contract itself, then the durable-record behaviour of a registry on
// top of it (eviction, corrupt and cross-tenant records, recovery). Each store package's
// tests call runStoreConformance with a factory that opens a fresh, empty store.
import { randomBytes } from 'node:crypto';
import {
  type CheckpointStore,
  isProcmuxError,
  type LeaseStore,
  type ProcessRecord,
  RECOVERY_NAMESPACE,
} from '@procmux/core-types';
import { assertNoLeakedProcesses, makeWorkspace, rejectsWith, waitFor } from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { commandFingerprint, createProcessSessions, type ProcessSessions } from '../../src/index.js';

export interface StoresUnderTest {
  checkpoints: CheckpointStore;
  leases: LeaseStore;
  close?(): void | Promise<void>;
}

const NS = RECOVERY_NAMESPACE;
const OTHER_NS = 'procmux.conformance.other';

/** A record as a registry of tenant `t1` would write it; override any field. */
export function recordJson(id: string, overrides: Record<string, unknown> = {}): string {
  const record: ProcessRecord = {
    schemaVersion: 1,
    namespace: RECOVERY_NAMESPACE,
    id,
    tenant: 't1',
    owner: 't1:u1',
    replica: 'elsewhere',
    command: 'sleep',
    args: ['30'],
    cwd: '/',
    fingerprint: commandFingerprint('sleep', ['30']),
    pty: false,
    stdioMode: 'pipe',
    backend: 'native',
    backendRef: null,
    releaseOnCancel: false,
    state: 'running',
    pid: 4242,
    startedAt: 1_700_000_000_000,
    expiresAt: 1_700_000_000_000 + 3_600_000,
    endedAt: null,
    exitCode: null,
    signal: null,
    reason: null,
  };
  return JSON.stringify({ ...record, ...overrides });
}

async function conflictOf(promise: Promise<unknown>): Promise<string> {
  const error = await rejectsWith(promise, 'ERR_RECOVERY_FENCE');
  expect(isProcmuxError(error)).toBe(true);
  return String((error as { details?: { conflict?: string } }).details?.conflict);
}

const key = () => `k_${randomBytes(6).toString('hex')}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Registers the conformance suite for the stores `open()` returns (a fresh, empty store per call). */
export function runStoreConformance(name: string, open: () => Promise<StoresUnderTest>): void {
  const opened: StoresUnderTest[] = [];
  const registries: ProcessSessions[] = [];
  const fresh = async () => {
    const stores = await open();
    opened.push(stores);
    return stores;
  };

  afterEach(async () => {
    await Promise.all(registries.splice(0).map((r) => r.dispose()));
    await Promise.all(opened.splice(0).map((s) => s.close?.()));
  });

  afterAll(async () => {
    await assertNoLeakedProcesses();
  });

  describe(`${name} checkpoints`, () => {
    it('creates at expected version 0 and refuses a second create', async () => {
      const { checkpoints } = await fresh();
      const k = key();
      expect(
        await checkpoints.compareAndSet(NS, { key: k, data: 'a', expectedVersion: 0, fencingToken: 1 }),
      ).toBe(1);
      expect(
        await conflictOf(
          checkpoints.compareAndSet(NS, { key: k, data: 'b', expectedVersion: 0, fencingToken: 1 }),
        ),
      ).toBe('version');
      expect(await checkpoints.get(NS, k)).toMatchObject({ key: k, data: 'a', version: 1, fencingToken: 1 });
    });

    it('replaces only at the expected version', async () => {
      const { checkpoints } = await fresh();
      const k = key();
      await checkpoints.compareAndSet(NS, { key: k, data: 'v1', expectedVersion: 0, fencingToken: 3 });
      expect(
        await checkpoints.compareAndSet(NS, { key: k, data: 'v2', expectedVersion: 1, fencingToken: 3 }),
      ).toBe(2);
      expect(
        await conflictOf(
          checkpoints.compareAndSet(NS, { key: k, data: 'stale', expectedVersion: 1, fencingToken: 3 }),
        ),
      ).toBe('version');
      expect(
        await conflictOf(
          checkpoints.compareAndSet(NS, { key: key(), data: 'x', expectedVersion: 4, fencingToken: 3 }),
        ),
      ).toBe('version');
      expect((await checkpoints.get(NS, k))?.data).toBe('v2');
    });

    it('refuses a write under an older fencing token even at the right version', async () => {
      const { checkpoints } = await fresh();
      const k = key();
      await checkpoints.compareAndSet(NS, {
        key: k,
        data: 'new holder',
        expectedVersion: 0,
        fencingToken: 7,
      });
      expect(
        await conflictOf(
          checkpoints.compareAndSet(NS, { key: k, data: 'old holder', expectedVersion: 1, fencingToken: 6 }),
        ),
      ).toBe('fence');
      expect(await checkpoints.get(NS, k)).toMatchObject({ data: 'new holder', version: 1, fencingToken: 7 });
      expect(
        await checkpoints.compareAndSet(NS, { key: k, data: 'same', expectedVersion: 1, fencingToken: 7 }),
      ).toBe(2);
      expect(
        await checkpoints.compareAndSet(NS, { key: k, data: 'newer', expectedVersion: 2, fencingToken: 9 }),
      ).toBe(3);
      expect((await checkpoints.get(NS, k))?.fencingToken).toBe(9);
    });

    it('lets exactly one of many concurrent writers of one version win', async () => {
      const { checkpoints } = await fresh();
      const k = key();
      await checkpoints.compareAndSet(NS, { key: k, data: 'base', expectedVersion: 0, fencingToken: 1 });
      const results = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          checkpoints.compareAndSet(NS, { key: k, data: `writer ${i}`, expectedVersion: 1, fencingToken: 1 }),
        ),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const lost of results.filter((r) => r.status === 'rejected')) {
        expect(isProcmuxError(lost.reason, 'ERR_RECOVERY_FENCE')).toBe(true);
      }
      expect((await checkpoints.get(NS, k))?.version).toBe(2);
    });

    it('lists one namespace, deletes by version, and keeps data verbatim', async () => {
      const { checkpoints } = await fresh();
      const [a, b, c] = [key(), key(), key()];
      const odd = `{"not": json ✓ 😀 ${'x'.repeat(20_000)}`;
      await checkpoints.compareAndSet(NS, { key: a, data: odd, expectedVersion: 0, fencingToken: 1 });
      await checkpoints.compareAndSet(NS, { key: b, data: 'b', expectedVersion: 0, fencingToken: 1 });
      await checkpoints.compareAndSet(OTHER_NS, { key: c, data: 'c', expectedVersion: 0, fencingToken: 1 });
      const listed = await checkpoints.list(NS);
      expect(listed.map((e) => e.key).sort()).toEqual([a, b].sort());
      expect(listed.find((e) => e.key === a)?.data).toBe(odd);
      expect(await checkpoints.get(NS, c)).toBeUndefined();
      expect(await checkpoints.delete(NS, b, 2)).toBe(false);
      expect(await checkpoints.delete(NS, b, 1)).toBe(true);
      expect(await checkpoints.delete(NS, b, 1)).toBe(false);
      expect((await checkpoints.list(NS)).map((e) => e.key)).toEqual([a]);
      expect((await checkpoints.list(OTHER_NS)).map((e) => e.key)).toEqual([c]);
    });

    it('refuses malformed calls with ERR_INVALID_OPTION', async () => {
      const { checkpoints } = await fresh();
      await rejectsWith(checkpoints.get('', 'k'), 'ERR_INVALID_OPTION');
      await rejectsWith(checkpoints.list(''), 'ERR_INVALID_OPTION');
      await rejectsWith(
        checkpoints.compareAndSet(NS, { key: 'k', data: 'd', expectedVersion: -1, fencingToken: 1 }),
        'ERR_INVALID_OPTION',
      );
      await rejectsWith(
        checkpoints.compareAndSet(NS, {
          key: 'k',
          data: 3 as unknown as string,
          expectedVersion: 0,
          fencingToken: 1,
        }),
        'ERR_INVALID_OPTION',
      );
      await rejectsWith(checkpoints.delete(NS, 'k', 0), 'ERR_INVALID_OPTION');
    });
  });

  describe(`${name} leases`, () => {
    it('hands out fencing tokens that only grow, across keys, holders and releases', async () => {
      const { leases } = await fresh();
      const keys = [key(), key()];
      const tokens: number[] = [];
      for (let round = 0; round < 4; round += 1) {
        for (const k of keys) {
          const lease = await leases.acquire(NS, k, `holder-${round % 2}`, 60_000);
          expect(lease).toMatchObject({ key: k, holder: `holder-${round % 2}` });
          tokens.push(lease!.token);
          expect(await leases.release(NS, k, lease!.holder, lease!.token)).toBe(true);
        }
      }
      const again = await leases.acquire(NS, keys[0]!, 'holder-0', 60_000);
      tokens.push(again!.token);
      // Re-acquiring a lease one already holds also moves the token on.
      tokens.push((await leases.acquire(NS, keys[0]!, 'holder-0', 60_000))!.token);
      for (let i = 1; i < tokens.length; i += 1) expect(tokens[i]).toBeGreaterThan(tokens[i - 1]!);
    });

    it('refuses a live lease to another holder and gives it up after the TTL', async () => {
      const { leases } = await fresh();
      const k = key();
      // A TTL of seconds: B's first try must fall inside it however loaded the machine is.
      const a = await leases.acquire(NS, k, 'replica-a', 3_000);
      expect(a).toBeDefined();
      expect(await leases.acquire(NS, k, 'replica-b', 3_000)).toBeUndefined();
      const b = (await waitFor(
        () => leases.acquire(NS, k, 'replica-b', 60_000),
        15_000,
        'the lease to lapse',
      ))!;
      expect(b.token).toBeGreaterThan(a!.token);
      expect(await conflictOf(leases.renew(NS, k, 'replica-a', a!.token, 300))).toBe('lease');
      expect(await leases.release(NS, k, 'replica-a', a!.token)).toBe(false);
      expect(await leases.acquire(NS, k, 'replica-a', 300)).toBeUndefined();
    });

    it('renews only under the current token and releases once', async () => {
      const { leases } = await fresh();
      const k = key();
      const lease = (await leases.acquire(NS, k, 'replica-a', 1_000))!;
      await pause(20);
      const renewed = await leases.renew(NS, k, 'replica-a', lease.token, 60_000);
      expect(renewed).toMatchObject({ key: k, holder: 'replica-a', token: lease.token });
      expect(renewed.expiresAt).toBeGreaterThan(lease.expiresAt);
      expect(await conflictOf(leases.renew(NS, k, 'replica-a', lease.token + 1, 1_000))).toBe('lease');
      expect(await conflictOf(leases.renew(NS, k, 'replica-b', lease.token, 1_000))).toBe('lease');
      expect(await leases.release(NS, k, 'replica-b', lease.token)).toBe(false);
      expect(await leases.release(NS, k, 'replica-a', lease.token)).toBe(true);
      expect(await leases.release(NS, k, 'replica-a', lease.token)).toBe(false);
      expect(await conflictOf(leases.renew(NS, k, 'replica-a', lease.token, 1_000))).toBe('lease');
      expect(await leases.acquire(NS, k, 'replica-b', 1_000)).toBeDefined();
    });

    it('renews a lapsed lease nobody took over, under its unchanged token', async () => {
      const { leases } = await fresh();
      const k = key();
      const lease = (await leases.acquire(NS, k, 'replica-a', 1))!;
      await pause(30);
      expect(await leases.renew(NS, k, 'replica-a', lease.token, 60_000)).toMatchObject({
        token: lease.token,
      });
      expect(await leases.acquire(NS, k, 'replica-b', 1_000)).toBeUndefined();
    });

    it('lets exactly one of many concurrent holders take a free lease', async () => {
      const { leases } = await fresh();
      const k = key();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => leases.acquire(NS, k, `replica-${i}`, 60_000)),
      );
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    });

    it('refuses malformed calls with ERR_INVALID_OPTION', async () => {
      const { leases } = await fresh();
      await rejectsWith(leases.acquire(NS, 'k', 'a', 0), 'ERR_INVALID_OPTION');
      await rejectsWith(leases.acquire(NS, 'k', 'a', 300_001), 'ERR_INVALID_OPTION');
      await rejectsWith(leases.acquire(NS, 'k', '', 1_000), 'ERR_INVALID_OPTION');
      await rejectsWith(leases.renew(NS, 'k', 'a', 1.5, 1_000), 'ERR_INVALID_OPTION');
      await rejectsWith(leases.release(NS, '', 'a', 1), 'ERR_INVALID_OPTION');
    });
  });

  describe(`${name} durable records`, () => {
    const workspace = makeWorkspace();
    const durable = (stores: StoresUnderTest, ownerId: string, extra: Record<string, unknown> = {}) => {
      const registry = createProcessSessions({
        cwd: workspace,
        ownership: { tenantId: 't1', userId: 'u1' },
        checkpoints: stores.checkpoints,
        leases: stores.leases,
        ownerId,
        ...extra,
      });
      registries.push(registry);
      return registry;
    };
    const recordOf = async (stores: StoresUnderTest, id: string) => {
      const entry = await stores.checkpoints.get(NS, id);
      return entry ? { ...entry, record: JSON.parse(entry.data) as ProcessRecord } : undefined;
    };

    it('writes each transition of a session to its record', async () => {
      const stores = await fresh();
      const registry = durable(stores, 'replica-a');
      const s = await registry.start({ command: 'sh', args: ['-c', 'read line; exit 3'] });
      const running = await recordOf(stores, s.id);
      expect(running?.record).toMatchObject({
        id: s.id,
        state: 'running',
        pid: s.pid,
        exitCode: null,
        tenant: 't1',
      });
      expect(running?.version).toBe(2);
      await s.input('go\n');
      expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ state: 'exited', exitCode: 3 });
      const exited = await recordOf(stores, s.id);
      expect(exited?.record).toMatchObject({ state: 'exited', exitCode: 3, replica: 'replica-a' });
      expect(exited?.record.endedAt).toEqual(expect.any(Number));
      expect(exited?.version).toBe(3);
      expect(exited?.data).not.toMatch(/"env"|PATH=/);
      // The lease is released on the terminal write: another replica can take it at once.
      expect(await stores.leases.acquire(NS, s.id, 'replica-b', 1_000)).toBeDefined();
    });

    it('evicts the oldest terminal records first and never a running one', async () => {
      const stores = await fresh();
      const registry = durable(stores, 'replica-a', { recoveryLimits: { maxRecords: 3 } });
      const ended = async (code: number) => {
        const s = await registry.start({ command: 'sh', args: ['-c', `exit ${code}`] });
        await s.wait({ timeoutMs: 10_000 });
        await pause(5);
        return s.id;
      };
      const keys = async () => (await stores.checkpoints.list(NS)).map((e) => e.key).sort();
      const a = await ended(1);
      const b = await ended(2);
      const r1 = (await registry.start({ command: 'sleep', args: ['30'] })).id;
      const c = await ended(3);
      expect(await keys()).toEqual([b, r1, c].sort());
      const r2 = (await registry.start({ command: 'sleep', args: ['30'] })).id;
      expect(await keys()).toEqual([r1, c, r2].sort());
      const r3 = (await registry.start({ command: 'sleep', args: ['30'] })).id;
      expect(await keys()).toEqual([r1, r2, r3].sort());
      const error = await rejectsWith(
        registry.start({ command: 'sleep', args: ['30'] }),
        'ERR_RECOVERY_LIMIT',
      );
      expect(error.message).toMatch(/at most 3/);
      expect(await keys()).toEqual([r1, r2, r3].sort());
      expect(registry.list().filter((s) => s.live)).toHaveLength(3);
      expect(await keys()).not.toContain(a);
    });

    it('drops corrupt, oversized, forbidden-field and other-tenant records and leaves them as they are', async () => {
      const stores = await fresh();
      const plant = async (id: string, data: string) => {
        await stores.checkpoints.compareAndSet(NS, { key: id, data, expectedVersion: 0, fencingToken: 1 });
      };
      await plant('corrupt', '{"schemaVersion": 1, "id": "corr');
      await plant('forbidden', recordJson('forbidden', { env: { API_TOKEN: 'secret' } }));
      await plant('oversized', recordJson('oversized', { args: ['x'.repeat(20_000)] }));
      await plant('malformed', recordJson('malformed', { state: 'exited', exitCode: null, endedAt: 1 }));
      await plant('tenant-2', recordJson('tenant-2', { tenant: 't2' }));
      await plant('ours', recordJson('ours'));
      const before = await stores.checkpoints.list(NS);
      const registry = durable(stores, 'replica-b');
      const { outcomes } = await registry.recover();
      const byId = Object.fromEntries(outcomes.map((o) => [o.id, o]));
      for (const id of ['corrupt', 'forbidden', 'oversized', 'malformed']) {
        expect(byId[id]).toMatchObject({
          outcome: 'dropped',
          code: 'ERR_RECOVERY_UNTRUSTED',
          written: false,
          state: null,
        });
      }
      expect(byId.forbidden?.reason).toBe('record holds a forbidden field "env"');
      expect(byId.forbidden?.reason).not.toMatch(/secret/);
      expect(byId['tenant-2']).toMatchObject({
        outcome: 'dropped',
        code: 'ERR_RECOVERY_OWNERSHIP',
        written: false,
      });
      expect(byId.ours).toMatchObject({
        outcome: 'unknown',
        state: 'unknown',
        exitCode: null,
        written: true,
      });
      const after = await stores.checkpoints.list(NS);
      for (const id of ['corrupt', 'forbidden', 'oversized', 'malformed', 'tenant-2']) {
        expect(after.find((e) => e.key === id)).toEqual(before.find((e) => e.key === id));
      }
      expect(registry.list()).toHaveLength(0);
    });

    it('recovers terminal records with their exit code and a crashed replica running record as unknown', async () => {
      const stores = await fresh();
      const warnings: string[] = [];
      const a = durable(stores, 'replica-a', {
        // A TTL of seconds, so a heartbeat delayed by a loaded machine still lands in time.
        recoveryLimits: { leaseTtlMs: 2_000 },
        logger: { warn: (message: string) => warnings.push(message) },
      });
      const done = await a.start({ command: 'sh', args: ['-c', 'exit 7'] });
      await done.wait({ timeoutMs: 10_000 });
      const sleeper = await a.start({ command: 'sleep', args: ['30'] });
      const heldBy = (await recordOf(stores, sleeper.id))!;

      // Replica A is alive and its heartbeat keeps the lease: B must not touch the record,
      // even after more than a TTL.
      const b = durable(stores, 'replica-b', { recoveryLimits: { leaseTtlMs: 2_000 } });
      await pause(2_500);
      const held = await b.recover();
      expect(held.outcomes.find((o) => o.id === sleeper.id)).toMatchObject({
        outcome: 'unknown',
        written: false,
        code: 'ERR_RECOVERY_OWNERSHIP',
        state: 'running',
      });
      expect(held.outcomes.find((o) => o.id === done.id)).toMatchObject({
        outcome: 'terminal',
        exitCode: 7,
        state: 'exited',
      });
      expect((await recordOf(stores, sleeper.id))?.version).toBe(heldBy.version);
      expect((await a.recover()).outcomes.find((o) => o.id === sleeper.id)).toMatchObject({
        outcome: 'attached',
        written: false,
      });

      // A restarts under the same ownerId: its own lease is no obstacle, and the native
      // process behind the record cannot be re-attached, so it becomes unknown at once.
      const a2 = durable(stores, 'replica-a', { recoveryLimits: { leaseTtlMs: 2_000 } });
      const restarted = await a2.recover();
      expect(restarted.outcomes.find((o) => o.id === sleeper.id)).toMatchObject({
        outcome: 'unknown',
        state: 'unknown',
        exitCode: null,
        written: true,
        code: 'ERR_RECOVERY_UNKNOWN',
      });
      const unknown = (await recordOf(stores, sleeper.id))!;
      expect(unknown.record).toMatchObject({ state: 'unknown', exitCode: null, signal: null });
      expect(unknown.fencingToken).toBeGreaterThan(heldBy.fencingToken);

      // The old incarnation is fenced out: its kill is not written over the unknown record.
      await sleeper.kill();
      expect(await recordOf(stores, sleeper.id)).toEqual(unknown);
      expect(warnings.some((w) => w.includes('another replica took over'))).toBe(true);
    });
  });
}
