import type { KillMode, ProcessAdapter, WaitResult } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { createCancellable, discard } from '../src/cancellable-spawn.js';
import { rejection } from './helpers.js';

// These cover the ordering of abort and creation with adapters that stand for any backend;
// the same behaviour with real processes is in supervisor-abort.test.ts.
function fakeAdapter(killError?: Error) {
  const events: string[] = [];
  const adapter: ProcessAdapter = {
    pid: 4242,
    stdioMode: 'pipe',
    stdin: undefined,
    onStdout: () => () => {},
    onStderr: () => () => {},
    wait: () => new Promise<WaitResult>(() => {}),
    async kill(mode?: KillMode) {
      events.push(`kill:${mode}`);
      if (killError) throw killError;
    },
    dispose() {
      events.push('dispose');
    },
  };
  return { adapter, events };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createCancellable', () => {
  it('passes the adapter through when nothing aborts', async () => {
    const { adapter } = fakeAdapter();
    await expect(
      createCancellable(
        async () => adapter,
        undefined,
        () => {},
      ),
    ).resolves.toBe(adapter);
    const controller = new AbortController();
    await expect(
      createCancellable(
        async () => adapter,
        controller.signal,
        () => {},
      ),
    ).resolves.toBe(adapter);
  });

  it('does not even start when the signal is already aborted', async () => {
    let started = false;
    const error = await rejection(
      createCancellable(
        async () => {
          started = true;
          return fakeAdapter().adapter;
        },
        AbortSignal.abort('gone'),
        () => {},
      ),
    );
    expect((error as Error).name).toBe('AbortError');
    expect((error as Error).cause).toBe('gone');
    expect(started).toBe(false);
  });

  it('rejects at once on abort, then kills and disposes the adapter that arrives later', async () => {
    const pending = deferred<ProcessAdapter>();
    const controller = new AbortController();
    let innerSignal: AbortSignal | undefined;
    const result = createCancellable(
      (signal) => {
        innerSignal = signal;
        return pending.promise;
      },
      controller.signal,
      () => {},
    );
    controller.abort();
    const error = await rejection(result);
    expect((error as Error).name).toBe('AbortError');
    expect(innerSignal?.aborted).toBe(true);
    const { adapter, events } = fakeAdapter();
    pending.resolve(adapter);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(events).toEqual(['kill:force', 'dispose']);
  });

  it('reports a failed kill of an abandoned adapter and still disposes it', async () => {
    const pending = deferred<ProcessAdapter>();
    const controller = new AbortController();
    const orphanErrors: unknown[] = [];
    const result = createCancellable(
      () => pending.promise,
      controller.signal,
      (e) => orphanErrors.push(e),
    );
    controller.abort();
    await rejection(result);
    const failure = new Error('kill failed');
    const { adapter, events } = fakeAdapter(failure);
    pending.resolve(adapter);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(orphanErrors).toEqual([failure]);
    expect(events).toEqual(['kill:force', 'dispose']);
  });

  it('swallows a creation failure that comes after the abort: no orphan report, no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const pending = deferred<ProcessAdapter>();
      const controller = new AbortController();
      const orphanErrors: unknown[] = [];
      const result = createCancellable(
        () => pending.promise,
        controller.signal,
        (e) => orphanErrors.push(e),
      );
      controller.abort('caller left');
      const error = await rejection(result);
      expect((error as Error).name).toBe('AbortError');
      expect((error as Error).cause).toBe('caller left');
      pending.reject(new Error('too late to matter'));
      // Unhandled rejections are reported after a macrotask turn; wait a few.
      for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setTimeout(resolve, 0));
      // No process was made, so there is nothing orphaned to report.
      expect(orphanErrors).toEqual([]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('passes a creation failure through', async () => {
    const failure = new Error('spawn failed');
    const controller = new AbortController();
    await expect(
      createCancellable(
        () => Promise.reject(failure),
        controller.signal,
        () => {},
      ),
    ).rejects.toBe(failure);
    const thrown = await rejection(
      createCancellable(
        () => {
          throw failure;
        },
        controller.signal,
        () => {},
      ),
    );
    expect(thrown).toBe(failure);
  });

  it('discard kills before it disposes, and reports only a failed kill', async () => {
    const { adapter, events } = fakeAdapter();
    const orphanErrors: unknown[] = [];
    await discard(adapter, (e) => orphanErrors.push(e));
    expect(events).toEqual(['kill:force', 'dispose']);
    expect(orphanErrors).toEqual([]);
    const failure = new Error('no such process');
    const failing = fakeAdapter(failure);
    await discard(failing.adapter, (e) => orphanErrors.push(e));
    expect(failing.events).toEqual(['kill:force', 'dispose']);
    expect(orphanErrors).toEqual([failure]);
  });
});
