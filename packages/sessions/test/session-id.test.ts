import { RECOVERY_NAMESPACE } from '@procmux/core-types';
import { drawSessionId, newSessionId } from '@procmux/registry';
import { disposeAfterEach, makeWorkspace, rejectsWith } from '@procmux/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRecoveryStores, createProcessSessions, type ProcessSessions } from '../src/index.js';

const workspace = makeWorkspace();
let sessions: ProcessSessions | undefined;

const track = disposeAfterEach<ProcessSessions>();

afterEach(() => {
  sessions = undefined;
});

describe('session ids', () => {
  it('are at most 12 characters, unambiguous, and differ across starts and 2,000 draws', async () => {
    sessions = track(createProcessSessions({ cwd: workspace, maxEndedSessions: 1 }));
    const ids = new Set<string>();
    for (let i = 0; i < 40; i += 1) {
      const s = await sessions.start({ command: 'true', args: [] });
      expect(s.id).toMatch(/^proc_[a-km-np-z2-9]{7}$/);
      expect(s.id.length).toBeLessThanOrEqual(12);
      ids.add(s.id);
      await s.wait({ timeoutMs: 10_000 });
    }
    expect(ids.size).toBe(40);
    for (let i = 0; i < 2_000; i += 1) ids.add(drawSessionId());
    expect(ids.size).toBeGreaterThan(2_030);
  });

  it('never reuse an id this registry gave out, even one whose session was pruned', async () => {
    const drawn = ['proc_aaaaaaa', 'proc_aaaaaaa', 'proc_bbbbbbb'];
    const issued = new Set<string>();
    const first = await newSessionId(
      (id) => issued.has(id),
      undefined,
      () => drawn.shift()!,
    );
    issued.add(first);
    const second = await newSessionId(
      (id) => issued.has(id),
      undefined,
      () => drawn.shift()!,
    );
    expect([first, second]).toEqual(['proc_aaaaaaa', 'proc_bbbbbbb']);
    await rejectsWith(
      newSessionId(
        () => true,
        undefined,
        () => 'proc_ccccccc',
      ),
      'ERR_PROCESS_LIMIT',
    );
  });

  it('are checked against the durable store: an id another replica recorded is not given out', async () => {
    const stores = createMemoryRecoveryStores();
    const asked: string[] = [];
    const get = stores.checkpoints.get.bind(stores.checkpoints);
    let taken = 2;
    // The first two ids asked about are held in the store by someone else.
    stores.checkpoints.get = async (namespace, key) => {
      if (namespace === RECOVERY_NAMESPACE) asked.push(key);
      if (taken > 0) {
        taken -= 1;
        return { key, data: '{}', version: 1, fencingToken: 1, updatedAt: Date.now() };
      }
      return get(namespace, key);
    };
    sessions = track(
      createProcessSessions({
        cwd: workspace,
        checkpoints: stores.checkpoints,
        leases: stores.leases,
        ownerId: 'replica-a',
      }),
    );
    const s = await sessions.start({ command: 'true', args: [] });
    await s.wait({ timeoutMs: 10_000 });
    expect(asked.length).toBeGreaterThanOrEqual(3);
    expect(asked.slice(0, 2)).not.toContain(s.id);
    expect(asked).toContain(s.id);
  });
});
