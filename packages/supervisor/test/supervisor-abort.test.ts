import type { ManagedRun, StdioMode } from '@procmux/core-types';
import {
  assertNoLeakedProcesses,
  checkLeaksAfterAll,
  isAlive,
  leakedProcesses,
  waitFor,
} from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { ChildAdapter, ProcessSupervisor } from '../src/index.js';
import { recordingLogger, rejection } from './helpers.js';

type Moment = 'before' | 'sync' | 'during' | 'after';
const MOMENTS: readonly Moment[] = ['before', 'sync', 'during', 'after'];

// A fixed seed keeps a failure reproducible.
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function abortedSpawn(
  supervisor: ProcessSupervisor,
  mode: StdioMode,
  moment: Moment,
  delayMs: number,
): Promise<'rejected' | 'cancelled'> {
  const controller = new AbortController();
  if (moment === 'before') controller.abort();
  const spawning = supervisor.spawn({ command: 'sleep 30', mode, signal: controller.signal });
  if (moment === 'sync') controller.abort();
  if (moment === 'during') setTimeout(() => controller.abort(), delayMs);
  let run: ManagedRun;
  try {
    run = await spawning;
  } catch (error) {
    if ((error as Error).name !== 'AbortError') throw error;
    return 'rejected';
  }
  controller.abort();
  const exit = await run.wait();
  expect(exit.reason).toBe('manual-cancel');
  return 'cancelled';
}

describe('cancellation-safe spawn', () => {
  it('leaves no process behind after 200 spawns aborted at random moments', async () => {
    const { logger, warnings } = recordingLogger();
    const supervisor = new ProcessSupervisor({ logger });
    const next = random(20_240_601);
    const outcomes = { rejected: 0, cancelled: 0 };
    const modes: StdioMode[] = ['pipe', 'pty'];
    for (let batch = 0; batch < 20; batch += 1) {
      const results = await Promise.all(
        Array.from({ length: 10 }, () => {
          const moment = MOMENTS[Math.floor(next() * MOMENTS.length)]!;
          const mode = modes[Math.floor(next() * modes.length)]!;
          return abortedSpawn(supervisor, mode, moment, Math.floor(next() * 15));
        }),
      );
      for (const result of results) outcomes[result] += 1;
    }
    expect(outcomes.rejected + outcomes.cancelled).toBe(200);
    expect(outcomes.rejected).toBeGreaterThan(0);
    expect(outcomes.cancelled).toBeGreaterThan(0);
    expect(supervisor.activeRuns()).toEqual([]);
    expect(warnings).toEqual([]);
    // Abandoned adapters are killed in the background: give them the kill's grace to finish.
    await assertNoLeakedProcesses(10_000);
    expect(leakedProcesses()).toEqual([]);
  });
});

describe('aborts around an adapter factory', () => {
  it('kills the adapter when the abort lands just after creation, before spawn returns', async () => {
    const { logger, warnings } = recordingLogger();
    const supervisor = new ProcessSupervisor({ logger });
    const controller = new AbortController();
    let created: ChildAdapter | undefined;
    const spawning = supervisor.spawn({
      signal: controller.signal,
      adapterFactory: () => {
        const creation = ChildAdapter.create({ command: 'sleep 30' });
        // Runs after the creation settled, in the gap before spawn() resumes.
        creation.then((adapter) => {
          created = adapter;
          queueMicrotask(() => controller.abort());
        });
        return creation;
      },
    });
    const error = await rejection(spawning);
    expect((error as Error).name).toBe('AbortError');
    await created!.wait();
    expect(isAlive(created!.pid!)).toBe(false);
    expect(warnings).toEqual([]);
  });

  it('warns when an abandoned adapter cannot be killed', async () => {
    const { logger, warnings } = recordingLogger();
    const supervisor = new ProcessSupervisor({ logger });
    const controller = new AbortController();
    let real: ChildAdapter | undefined;
    const spawning = supervisor.spawn({
      signal: controller.signal,
      adapterFactory: async () => {
        real = await ChildAdapter.create({ command: 'sleep 30' });
        controller.abort();
        const adapter = real;
        return Object.assign(Object.create(adapter) as ChildAdapter, {
          async kill() {
            await adapter.kill('force');
            throw new Error('kill reported a survivor');
          },
        });
      },
    });
    await rejection(spawning);
    await waitFor(() => warnings.length > 0, 10_000, 'the orphan warning');
    expect(warnings).toEqual([
      {
        message: 'procmux: could not kill a process whose spawn was aborted',
        fields: { error: 'kill reported a survivor' },
      },
    ]);
    await real!.wait();
  });
});

checkLeaksAfterAll();
