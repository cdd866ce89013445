import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CheckpointStore,
  type CheckpointWrite,
  type LeaseStore,
  type ProcessEvent,
  type ProcessRecord,
  type ProcessRecoveryBackend,
  ProcmuxError,
  RECOVERY_NAMESPACE,
} from '@procmux/core-types';
import {
  assertNoLeakedProcesses,
  descendantsOf,
  makeWorkspace,
  rejectsWith,
  throwsWith,
  waitFor,
} from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryRecoveryStores,
  createProcessSessions,
  type MemoryRecoveryStores,
  type ProcessSessions,
  type ProcessSessionsOptions,
} from '../src/index.js';
import { recordJson } from './conformance/store-conformance.js';
import { terminalServer } from './helpers/terminal-server.js';

const NS = RECOVERY_NAMESPACE;
const workspace = makeWorkspace();
const registries: ProcessSessions[] = [];

afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.dispose()));
});

afterAll(async () => {
  await assertNoLeakedProcesses();
});

function durable(
  stores: { checkpoints: CheckpointStore; leases: LeaseStore },
  ownerId: string,
  extra: Partial<ProcessSessionsOptions> = {},
): ProcessSessions {
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
}

async function recordOf(stores: MemoryRecoveryStores, id: string) {
  const entry = await stores.checkpoints.get(NS, id);
  return entry ? { ...entry, record: JSON.parse(entry.data) as ProcessRecord } : undefined;
}

async function plant(stores: MemoryRecoveryStores, id: string, overrides: Record<string, unknown> = {}) {
  await stores.checkpoints.compareAndSet(NS, {
    key: id,
    data: recordJson(id, { cwd: workspace, ...overrides }),
    expectedVersion: 0,
    fencingToken: 1,
  });
}

/** Memory stores whose calls can be slowed down, failed or watched. */
function instrumented(hooks: {
  beforeWrite?: (write: CheckpointWrite, index: number) => Promise<void> | void;
  list?: () => Promise<void> | void;
  renew?: (index: number) => Promise<void> | void;
}) {
  const inner = createMemoryRecoveryStores();
  let writes = 0;
  let renews = 0;
  const checkpoints: CheckpointStore = {
    get: (ns, key) => inner.checkpoints.get(ns, key),
    list: async (ns) => {
      await hooks.list?.();
      return inner.checkpoints.list(ns);
    },
    compareAndSet: async (ns, write) => {
      await hooks.beforeWrite?.(write, writes++);
      return inner.checkpoints.compareAndSet(ns, write);
    },
    delete: (ns, key, version) => inner.checkpoints.delete(ns, key, version),
  };
  const leases: LeaseStore = {
    acquire: (...args) => inner.leases.acquire(...args),
    renew: async (...args) => {
      await hooks.renew?.(renews++);
      return inner.leases.renew(...args);
    },
    release: (...args) => inner.leases.release(...args),
  };
  return { checkpoints, leases, inner };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('durability options', () => {
  it('needs checkpoints, leases and ownerId together, or none of them', () => {
    const { checkpoints, leases } = createMemoryRecoveryStores();
    const partial = throwsWith(
      () => createProcessSessions({ cwd: workspace, checkpoints, leases }),
      'ERR_INVALID_OPTION',
    );
    expect(partial.message).toBe(
      'checkpoints, leases, ownerId must be given together for durability (missing: ownerId)',
    );
    throwsWith(() => createProcessSessions({ cwd: workspace, ownerId: 'a' }), 'ERR_INVALID_OPTION');
    const backendOnly = throwsWith(
      () => createProcessSessions({ cwd: workspace, recoveryBackend: terminalServer().recoveryBackend }),
      'ERR_INVALID_OPTION',
    );
    expect(backendOnly.message).toMatch(/^recoveryBackend must be given only with durability/);
    throwsWith(() => createProcessSessions({ cwd: workspace, recoveryLimits: {} }), 'ERR_INVALID_OPTION');
  });

  it('checks the stores, ownerId, recoveryBackend and recoveryLimits', () => {
    const stores = createMemoryRecoveryStores();
    const make = (extra: Partial<ProcessSessionsOptions>) => () =>
      createProcessSessions({ cwd: workspace, ...stores, ownerId: 'a', ...extra });
    expect(throwsWith(make({ ownerId: '  ' }), 'ERR_INVALID_OPTION').message).toMatch(
      /ownerId must be a non-blank/,
    );
    expect(throwsWith(make({ ownerId: 'x'.repeat(129) }), 'ERR_INVALID_OPTION').message).toMatch(
      /at most 128/,
    );
    const noDelete = {
      get: () => Promise.resolve(undefined),
      list: () => Promise.resolve([]),
      compareAndSet: () => Promise.resolve(1),
    } as unknown as CheckpointStore;
    expect(throwsWith(make({ checkpoints: noDelete }), 'ERR_INVALID_OPTION').message).toBe(
      'checkpoints must be an object implementing get, list, compareAndSet, delete (missing: delete)',
    );
    throwsWith(make({ leases: {} as LeaseStore }), 'ERR_INVALID_OPTION');
    throwsWith(make({ recoveryBackend: {} as ProcessRecoveryBackend }), 'ERR_INVALID_OPTION');
    expect(throwsWith(make({ recoveryLimits: { leaseTtlMs: 300_001 } }), 'ERR_INVALID_OPTION').message).toBe(
      'recoveryLimits.leaseTtlMs must be an integer from 1 to 300000 (got 300001)',
    );
    expect(throwsWith(make({ recoveryLimits: { maxRecords: 129 } }), 'ERR_INVALID_OPTION').message).toMatch(
      /1 to 128/,
    );
    expect(
      throwsWith(make({ recoveryLimits: { attachTimeoutMs: 0 } }), 'ERR_INVALID_OPTION').message,
    ).toMatch(/1 to 120000/);
    expect(
      throwsWith(
        make({ recoveryLimits: { ttl: 5 } as unknown as ProcessSessionsOptions['recoveryLimits'] }),
        'ERR_INVALID_OPTION',
      ).message,
    ).toMatch(/^recoveryLimits\.ttl must be one of the known recoveryLimits: maxRecords/);
    throwsWith(
      make({ recoveryLimits: [] as unknown as ProcessSessionsOptions['recoveryLimits'] }),
      'ERR_INVALID_OPTION',
    );
  });

  it('refuses recover() without durability', async () => {
    const registry = createProcessSessions({ cwd: workspace });
    registries.push(registry);
    const error = await rejectsWith(registry.recover(), 'ERR_RECOVERY_UNSUPPORTED');
    expect(error.message).toMatch(/needs durability/);
  });
});

describe('durable writes', () => {
  it('writes the intent before anything is spawned', async () => {
    const marker = join(workspace, 'spawned-early');
    const seen: boolean[] = [];
    const stores = instrumented({
      beforeWrite: (_write, index) => {
        if (index === 0) seen.push(existsSync(marker));
      },
    });
    const s = await durable(stores, 'a').start({ command: 'sh', args: ['-c', `touch ${marker}`] });
    await s.wait({ timeoutMs: 10_000 });
    expect(seen).toEqual([false]);
    expect(existsSync(marker)).toBe(true);
  });

  it('spawns nothing when the intent cannot be written, with a message free of the store text', async () => {
    const marker = join(workspace, 'never-spawned');
    const stores = instrumented({
      beforeWrite: () => {
        throw new Error('connection to db://admin:hunter2@host refused');
      },
    });
    const registry = durable(stores, 'a');
    const error = await rejectsWith(
      registry.start({ command: 'sh', args: ['-c', `touch ${marker}`] }),
      'ERR_RECOVERY_UNKNOWN',
    );
    expect(error.message).not.toMatch(/hunter2/);
    expect((error as Error & { cause?: Error }).cause?.message).toMatch(/hunter2/);
    expect(registry.list()).toHaveLength(0);
    // A spawn happens before start() settles: had there been one, its shell would still be our
    // descendant now, or it would have run and left the marker. Neither, so nothing was spawned.
    expect(descendantsOf(process.pid).filter((p) => p.command.includes(marker))).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    // Its lease was given back.
    const [key] = (await stores.inner.checkpoints.list(NS)).map((e) => e.key);
    expect(key).toBeUndefined();
  });

  it('serialises the writes of one record so a slow store can never reorder them', async () => {
    const states: string[] = [];
    const warnings: string[] = [];
    const stores = instrumented({
      beforeWrite: async (write, index) => {
        // The running write is slow; the exit right behind it is fast.
        if (index === 1) await pause(300);
        states.push((JSON.parse(write.data) as ProcessRecord).state);
      },
    });
    const registry = durable(stores, 'a', { logger: { warn: (m: string) => warnings.push(m) } });
    const s = await registry.start({ command: 'true', args: [] });
    expect(await s.wait({ timeoutMs: 10_000 })).toMatchObject({ state: 'exited', exitCode: 0 });
    expect(states).toEqual(['starting', 'running', 'exited']);
    expect((await stores.inner.checkpoints.get(NS, s.id))?.version).toBe(3);
    expect(warnings).toEqual([]);
  });

  it('refuses a start whose record would be over the record size, before spawning', async () => {
    const stores = createMemoryRecoveryStores();
    const registry = durable(stores, 'a');
    const error = await rejectsWith(
      registry.start({ command: 'echo', args: ['x'.repeat(17 * 1024)] }),
      'ERR_RECOVERY_LIMIT',
    );
    expect(error.message).toMatch(/at most 16384/);
    expect(registry.list()).toHaveLength(0);
    expect(await stores.checkpoints.list(NS)).toEqual([]);
  });

  it('removes the intent of a start that failed to spawn and frees its lease', async () => {
    const stores = createMemoryRecoveryStores();
    const registry = durable(stores, 'a');
    await expect(registry.start({ command: join(workspace, 'no-such-program'), args: [] })).rejects.toThrow();
    expect(await stores.checkpoints.list(NS)).toEqual([]);
  });

  it('records a failed host backend as unknown', async () => {
    const stores = createMemoryRecoveryStores();
    const registry = durable(stores, 'a', {
      ptyBackend: {
        startPty() {
          throw new Error('terminal server down');
        },
      },
    });
    await rejectsWith(registry.start({ command: 'sh', args: [], pty: true }), 'ERR_PROCESS_PTY_BACKEND');
    const [session] = registry.list();
    expect((await recordOf(stores, session!.id))?.record).toMatchObject({ state: 'unknown', exitCode: null });
  });

  it('keeps writing after a failed lease renewal that was not a fence', async () => {
    const warnings: string[] = [];
    const stores = instrumented({
      renew: (index) => {
        if (index === 0) throw new Error('store hiccup');
      },
    });
    const registry = durable(stores, 'a', {
      recoveryLimits: { leaseTtlMs: 150 },
      logger: { warn: (m: string) => warnings.push(m) },
    });
    const s = await registry.start({ command: 'sleep', args: ['30'] });
    await waitFor(() => warnings.length > 0, 10_000, 'a renewal warning');
    expect(warnings[0]).toMatch(/retried/);
    await s.kill();
    expect((await recordOf(stores.inner, s.id))?.record.state).toBe('killed');
  });

  it('dispose waits for pending writes; the registry then refuses recover()', async () => {
    const stores = instrumented({
      beforeWrite: async (_write, index) => {
        if (index === 2) await pause(200);
      },
    });
    const registry = durable(stores, 'a');
    const s = await registry.start({ command: 'sleep', args: ['30'] });
    await registry.dispose();
    expect((await recordOf(stores.inner, s.id))?.record.state).toBe('killed');
    await rejectsWith(registry.recover(), 'ERR_PROCESS_STATE');
  });
});

/** A host on a terminal server (a PTY backend its processes outlive) running an echo loop. */
async function echoOnTerminalServer() {
  const stores = createMemoryRecoveryStores();
  const server = terminalServer();
  const options = { ptyBackend: server.ptyBackend, recoveryBackend: server.recoveryBackend };
  const before = durable(stores, 'host-1', options);
  const echo = await before.start({
    command: 'sh',
    args: ['-c', 'while read l; do echo "got $l"; done'],
    pty: true,
    screen: false,
  });
  return { stores, server, options, before, echo };
}

describe('recover() through a recovery backend', () => {
  it('re-attaches a record through its ref and routes input, signal, resize, kill and wait to the process', async () => {
    const { stores, server, options, before, echo } = await echoOnTerminalServer();
    const exits = await before.start({
      command: 'sh',
      args: ['-c', 'read l; exit 5'],
      pty: true,
      screen: false,
    });
    const echoRef = `term-server:${echo.pid}`;
    expect((await recordOf(stores, echo.id))?.record).toMatchObject({
      backendRef: echoRef,
      state: 'running',
    });

    // The host restarts under the same ownerId; its processes stayed with the terminal server.
    const events: ProcessEvent[] = [];
    const after = durable(stores, 'host-1', { ...options, onEvent: (e) => events.push(e) });
    const report = await after.recover();
    expect(report.outcomes.map((o) => o.outcome)).toEqual(['reattached', 'reattached']);
    expect(server.attaches.sort()).toEqual([echoRef, `term-server:${exits.pid}`].sort());
    expect(events.map((e) => [e.type, e.reason])).toEqual([
      ['process_started', 'reattached after recovery'],
      ['process_started', 'reattached after recovery'],
    ]);

    const e = after.get(echo.id, 't1:u1');
    expect(e.metadata()).toMatchObject({
      state: 'running',
      pid: echo.pid,
      backend: 'pty-backend',
      command: 'sh',
    });
    await e.input('ping\n');
    let seen = '';
    await waitFor(
      async () => {
        seen += (await e.poll({ timeoutMs: 500 })).stdout;
        return seen.includes('got ping');
      },
      10_000,
      'the echo',
    );
    await e.signal('SIGCONT');
    await e.resize!({ columns: 100, rows: 40 });
    expect(await e.kill()).toEqual({ exitCode: null, signal: 'SIGKILL', state: 'killed' });
    const mine = server.calls.filter(([ref]) => ref === echoRef).map(([, call, arg]) => [call, arg]);
    expect(mine).toEqual(
      expect.arrayContaining([
        ['write', 'ping\n'],
        ['signal', 'SIGCONT'],
        ['resize', [100, 40]],
        ['kill', undefined],
      ]),
    );
    expect((await recordOf(stores, echo.id))?.record).toMatchObject({
      state: 'killed',
      exitCode: null,
      replica: 'host-1',
    });

    const x = after.get(exits.id);
    await x.input('bye\n');
    expect(await x.wait({ timeoutMs: 10_000 })).toEqual({ exitCode: 5, signal: null, state: 'exited' });
    expect((await recordOf(stores, exits.id))?.record).toMatchObject({ state: 'exited', exitCode: 5 });

    // Recovering again reports what is now known, without writing.
    const again = await after.recover();
    expect(again.outcomes.map((o) => [o.outcome, o.exitCode, o.written])).toEqual(
      expect.arrayContaining([
        ['terminal', null, false],
        ['terminal', 5, false],
      ]),
    );
  });

  it('reaches a re-attached process from cancelOwned', async () => {
    const stores = createMemoryRecoveryStores();
    const server = terminalServer();
    const options = { ptyBackend: server.ptyBackend, recoveryBackend: server.recoveryBackend };
    const s = await durable(stores, 'host-1', options).start({
      command: 'sleep',
      args: ['30'],
      pty: true,
      screen: false,
    });
    const after = durable(stores, 'host-1', options);
    await after.recover();
    expect(await after.cancelOwned('t1:u1')).toBe(1);
    expect(server.calls.some(([ref, call]) => ref === `term-server:${s.pid}` && call === 'kill')).toBe(true);
    expect((await recordOf(stores, s.id))?.record.state).toBe('killed');
  });

  it('marks a record unknown, exit code null, when the backend finds nothing behind its ref', async () => {
    const stores = createMemoryRecoveryStores();
    await plant(stores, 'gone', { backendRef: 'term-server:0', backend: 'pty-backend' });
    const events: ProcessEvent[] = [];
    const registry = durable(stores, 'b', {
      recoveryBackend: terminalServer().recoveryBackend,
      onEvent: (e) => events.push(e),
    });
    const { outcomes } = await registry.recover();
    expect(outcomes).toEqual([
      {
        id: 'gone',
        outcome: 'unknown',
        state: 'unknown',
        exitCode: null,
        written: true,
        code: 'ERR_RECOVERY_UNKNOWN',
        reason: 'the recovery backend found no process for session gone',
      },
    ]);
    expect((await recordOf(stores, 'gone'))?.record).toMatchObject({
      state: 'unknown',
      exitCode: null,
      replica: 'b',
    });
    expect(events).toMatchObject([
      { type: 'process_unknown', sessionId: 'gone', exitCode: null, state: 'unknown' },
    ]);
    expect(registry.list()).toHaveLength(0);
  });

  it('says why a record could not be re-attached: no backend, a throwing one, a bad handle, a timeout', async () => {
    const stores = createMemoryRecoveryStores();
    await plant(stores, 'no-backend', { backendRef: 'ref-1' });
    const plain = await durable(stores, 'b').recover();
    expect(plain.outcomes[0]).toMatchObject({
      outcome: 'unknown',
      written: true,
      code: 'ERR_RECOVERY_UNSUPPORTED',
    });

    const released: string[] = [];
    const backend: ProcessRecoveryBackend = {
      async attach({ ref }) {
        if (ref === 'throws') throw new Error('backend secret text');
        if (ref === 'not-a-handle') return { pid: 1 } as never;
        await pause(400);
        return {
          write() {},
          signal() {},
          kill() {},
          release: () => void released.push(ref),
          wait: () => new Promise(() => {}),
        };
      },
    };
    for (const ref of ['throws', 'not-a-handle', 'slow']) await plant(stores, ref, { backendRef: ref });
    const registry = durable(stores, 'c', {
      recoveryBackend: backend,
      recoveryLimits: { attachTimeoutMs: 100 },
    });
    const byId = Object.fromEntries((await registry.recover()).outcomes.map((o) => [o.id, o]));
    expect(byId.throws).toMatchObject({ outcome: 'unknown', code: 'ERR_RECOVERY_UNKNOWN', written: true });
    expect(byId.throws?.reason).not.toMatch(/secret/);
    expect(byId['not-a-handle']).toMatchObject({ outcome: 'unknown', code: 'ERR_RECOVERY_UNTRUSTED' });
    expect(byId.slow).toMatchObject({ outcome: 'unknown', code: 'ERR_RECOVERY_TIMEOUT', written: true });
    // A handle that arrives after the timeout is released, not killed: the process predates us.
    await waitFor(() => released.includes('slow'), 10_000, 'the late handle to be released');
    expect(registry.list()).toHaveLength(0);
  });

  it('leaves a record as it is when the backend could not look its process up now, and re-attaches it on the next try', async () => {
    const { stores, server, options, echo } = await echoOnTerminalServer();
    const planted = await stores.checkpoints.get(NS, echo.id);
    // The host the process runs on does not answer once (an SSH shell that timed out).
    let unreachable = true;
    const flaky: ProcessRecoveryBackend = {
      attach(request) {
        if (unreachable) {
          unreachable = false;
          throw new ProcmuxError('ERR_RECOVERY_UNREACHABLE', 'could not list the panes on u@h (timed out)');
        }
        return server.recoveryBackend.attach(request);
      },
    };
    const after = durable(stores, 'host-1', { ...options, recoveryBackend: flaky });
    const first = await after.recover();
    expect(first.outcomes).toMatchObject([
      { id: echo.id, outcome: 'unknown', state: 'running', written: false, code: 'ERR_RECOVERY_UNREACHABLE' },
    ]);
    expect(await stores.checkpoints.get(NS, echo.id)).toEqual(planted);
    expect(after.list()).toHaveLength(0);
    const second = await after.recover();
    expect(second.outcomes).toMatchObject([{ id: echo.id, outcome: 'reattached' }]);
    const session = after.get(echo.id);
    await session.input('hi\n');
    await waitFor(async () => (await session.log({})).text.includes('got hi'), 10_000, 'the echo');
    await session.kill();
  });

  it('leaves a record as it is when no live-session slot is free', async () => {
    const stores = createMemoryRecoveryStores();
    const server = terminalServer();
    await plant(stores, 'waiting', { backendRef: 'term-server:1' });
    const registry = durable(stores, 'b', {
      recoveryBackend: server.recoveryBackend,
      limits: { maxSessions: 1 },
    });
    await registry.start({ command: 'sleep', args: ['30'] });
    const before = await stores.checkpoints.get(NS, 'waiting');
    const { outcomes } = await registry.recover();
    expect(outcomes.find((o) => o.id === 'waiting')).toMatchObject({
      outcome: 'unknown',
      state: 'running',
      written: false,
      code: 'ERR_RECOVERY_LIMIT',
    });
    expect(await stores.checkpoints.get(NS, 'waiting')).toEqual(before);
    expect(server.attaches).toEqual([]);
  });

  it('lets recover() runs overlap: a slow re-attach holds up no later run, and no record is re-attached twice', async () => {
    const stores = createMemoryRecoveryStores();
    const attaches: string[] = [];
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const backend: ProcessRecoveryBackend = {
      async attach({ ref }) {
        attaches.push(ref);
        if (ref === 'slow') await gate;
        let end!: (exit: { exitCode: number | null; signal: 'SIGKILL' }) => void;
        const exit = new Promise<{ exitCode: number | null; signal: 'SIGKILL' }>((resolve) => {
          end = resolve;
        });
        return {
          write() {},
          signal() {},
          kill: () => end({ exitCode: null, signal: 'SIGKILL' }),
          wait: () => exit,
        };
      },
    };
    await plant(stores, 'slow', { backendRef: 'slow', expiresAt: Date.now() + 600_000 });
    const registry = durable(stores, 'b', { recoveryBackend: backend });
    const first = registry.recover();
    await waitFor(() => attaches.includes('slow'), 10_000, 'the first run to ask for the slow record');
    // A record whose lease lapses while the first run still waits on the backend.
    await plant(stores, 'later', { backendRef: 'later', expiresAt: Date.now() + 600_000 });
    const second = await registry.recover();
    expect(Object.fromEntries(second.outcomes.map((o) => [o.id, o.outcome]))).toEqual({
      slow: 'attached',
      later: 'reattached',
    });
    expect(registry.list().map((s) => s.id)).toEqual(['later']);
    openGate();
    // The first run listed the records before the later one was there.
    expect((await first).outcomes.map((o) => [o.id, o.outcome])).toEqual([['slow', 'reattached']]);
    expect(attaches.sort()).toEqual(['later', 'slow']);
    for (const s of registry.list()) await s.kill();
  });

  it('asks the recovery backend for every record it re-attaches in the same turn', async () => {
    // A store whose answers come back at different times, as a database's do.
    let delay = -50;
    const inner = createMemoryRecoveryStores();
    const leases: LeaseStore = {
      acquire: async (...args) => {
        delay += 50;
        await pause(delay);
        return inner.leases.acquire(...args);
      },
      renew: (...args) => inner.leases.renew(...args),
      release: (...args) => inner.leases.release(...args),
    };
    let turn = 0;
    const turns = new Set<number>();
    const backend: ProcessRecoveryBackend = {
      attach() {
        turns.add(turn);
        setImmediate(() => {
          turn += 1;
        });
        let end!: (exit: { exitCode: number | null; signal: 'SIGKILL' }) => void;
        const exit = new Promise<{ exitCode: number | null; signal: 'SIGKILL' }>((resolve) => {
          end = resolve;
        });
        return {
          write() {},
          signal() {},
          kill: () => end({ exitCode: null, signal: 'SIGKILL' }),
          wait: () => exit,
        };
      },
    };
    for (const id of ['r1', 'r2', 'r3', 'r4', 'r5'])
      await plant(inner, id, { backendRef: id, expiresAt: Date.now() + 600_000 });
    const registry = durable({ checkpoints: inner.checkpoints, leases }, 'b', { recoveryBackend: backend });
    const { outcomes } = await registry.recover();
    expect(outcomes.map((o) => o.outcome)).toEqual(Array(5).fill('reattached'));
    expect(turns.size).toBe(1);
    for (const s of registry.list()) await s.kill();
  });

  it('reports a record that ended while its lease was being taken as terminal', async () => {
    const inner = createMemoryRecoveryStores();
    let listed = false;
    const checkpoints: CheckpointStore = {
      get: inner.checkpoints.get.bind(inner.checkpoints),
      delete: inner.checkpoints.delete.bind(inner.checkpoints),
      compareAndSet: inner.checkpoints.compareAndSet.bind(inner.checkpoints),
      async list(ns) {
        const entries = await inner.checkpoints.list(ns);
        if (!listed) {
          listed = true;
          // Another replica writes the exit between our list() and our lease.
          await inner.checkpoints.compareAndSet(ns, {
            key: 'racing',
            data: recordJson('racing', { state: 'exited', exitCode: 0, endedAt: 2 }),
            expectedVersion: 1,
            fencingToken: 1,
          });
        }
        return entries;
      },
    };
    await plant(inner, 'racing');
    const registry = durable({ checkpoints, leases: inner.leases }, 'b');
    expect((await registry.recover()).outcomes).toEqual([
      { id: 'racing', outcome: 'terminal', state: 'exited', exitCode: 0, written: false },
    ]);
  });

  it('surfaces a store that fails as ERR_RECOVERY_UNKNOWN', async () => {
    const stores = instrumented({
      list: () => {
        throw new Error('socket closed');
      },
    });
    await rejectsWith(durable(stores, 'b').recover(), 'ERR_RECOVERY_UNKNOWN');
  });

  it('reports a record whose lease the store failed to give as unknown, untouched', async () => {
    const inner = createMemoryRecoveryStores();
    await plant(inner, 'stuck');
    const leases: LeaseStore = {
      acquire: () => Promise.reject(new Error('lock table full')),
      renew: inner.leases.renew.bind(inner.leases),
      release: inner.leases.release.bind(inner.leases),
    };
    const registry = durable({ checkpoints: inner.checkpoints, leases }, 'b');
    expect((await registry.recover()).outcomes).toEqual([
      {
        id: 'stuck',
        outcome: 'unknown',
        state: 'running',
        exitCode: null,
        written: false,
        code: 'ERR_RECOVERY_UNKNOWN',
        reason: 'the durable store failed to give the lease of this record',
      },
    ]);
    expect((await recordOf(inner, 'stuck'))?.version).toBe(1);
  });

  it('reports a fence conflict on the unknown write without overwriting', async () => {
    const inner = createMemoryRecoveryStores();
    await plant(inner, 'contested');
    const checkpoints: CheckpointStore = {
      get: inner.checkpoints.get.bind(inner.checkpoints),
      list: inner.checkpoints.list.bind(inner.checkpoints),
      delete: inner.checkpoints.delete.bind(inner.checkpoints),
      async compareAndSet(ns, write) {
        // A newer holder got there first.
        await inner.checkpoints.compareAndSet(ns, { ...write, fencingToken: write.fencingToken + 100 });
        return inner.checkpoints.compareAndSet(ns, write);
      },
    };
    const registry = durable({ checkpoints, leases: inner.leases }, 'b');
    expect((await registry.recover()).outcomes[0]).toMatchObject({
      id: 'contested',
      outcome: 'unknown',
      written: false,
      code: 'ERR_RECOVERY_FENCE',
    });
  });
});
