// A simulated process table for the orchestration tests: processes that die on SIGTERM,
// ignore it, fork while dying, or cannot be signalled at all, on a clock that moves only when
// the tree kill sleeps. It answers through the same effects the real platforms use.
import { expect } from 'vitest';
import { killEffectsFor, type PlatformDeps } from '../src/platform.js';
import type { KillEffects, ProcessEntry, TreeSignal } from '../src/types.js';

export interface FakeProcess {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  marker?: string;
  /** What SIGTERM does: die (default), nothing, or something custom. */
  onTerm?: 'die' | 'ignore' | ((world: FakeWorld, self: FakeProcess) => void);
  /** SIGKILL leaves it (uninterruptible sleep). */
  unkillable?: boolean;
  /** Another user's process: every signal fails with EPERM. */
  foreign?: boolean;
  /** Dies this many ms after SIGTERM instead of at once. */
  termDelayMs?: number;
  /** Its parent never reaps it: it stays a zombie after death. */
  unreaped?: boolean;
  /** Start time in the /proc table (default: the pid), to reuse a pid as another process. */
  startTime?: number;
}

export const SELF = 1000;
/**
 * Past this much simulated time, this many sleeps or this many snapshots a kill has not ended
 * when it must have: the longest grace (60 s) and the settle (2 s) are far shorter. The world
 * fails the test on an assertion then, instead of spinning forever on its own clock.
 */
const MAX_CLOCK_MS = 10 * 60_000;
const MAX_SLEEPS = 10_000;
const MAX_SNAPSHOTS = 100;
export const SELF_PGID = 999;

function errno(code: string): NodeJS.ErrnoException {
  const error = new Error(code) as NodeJS.ErrnoException;
  error.code = code;
  return error;
}

export class FakeWorld {
  readonly procs = new Map<number, FakeProcess>();
  /** Every signal sent, with the time: `${clock} ${signal} ${target}`. */
  readonly log: string[] = [];
  clock = 0;
  snapshots = 0;
  sleeps = 0;
  /** Every sleep the kill asked for, in ms, in order. */
  readonly slept: number[] = [];
  onSnapshot: ((world: FakeWorld, n: number) => void) | undefined;
  private readonly timers: { at: number; run: () => void }[] = [];

  constructor(processes: FakeProcess[] = []) {
    this.add({ pid: 1, ppid: 0, pgid: 1, state: 'S', onTerm: 'ignore' });
    this.add({ pid: SELF, ppid: 1, pgid: SELF_PGID, state: 'R', onTerm: 'ignore' });
    for (const p of processes) this.add(p);
  }

  add(process: FakeProcess): FakeProcess {
    this.procs.set(process.pid, process);
    return process;
  }

  live(): number[] {
    return [...this.procs.values()]
      .filter((p) => p.state !== 'Z' && p.pid !== 1 && p.pid !== SELF)
      .map((p) => p.pid)
      .sort((a, b) => a - b);
  }

  die(p: FakeProcess): void {
    if (p.unreaped) p.state = 'Z';
    else this.procs.delete(p.pid);
    for (const child of this.procs.values()) if (child.ppid === p.pid) child.ppid = 1;
  }

  after(ms: number, run: () => void): void {
    this.timers.push({ at: this.clock + ms, run });
  }

  private deliver(p: FakeProcess, signal: TreeSignal | 0): void {
    if (p.foreign) throw errno('EPERM');
    if (signal === 0 || p.state === 'Z') return;
    if (signal === 'SIGKILL') {
      if (!p.unkillable) this.die(p);
      return;
    }
    const onTerm = p.onTerm ?? 'die';
    if (onTerm === 'ignore') return;
    if (typeof onTerm === 'function') onTerm(this, p);
    else if (p.termDelayMs !== undefined) this.after(p.termDelayMs, () => this.die(p));
    else this.die(p);
  }

  kill = (target: number, signal: TreeSignal | 0): void => {
    if (signal !== 0) this.log.push(`${this.clock} ${signal} ${target}`);
    if (target < 0) {
      const members = [...this.procs.values()].filter((p) => p.pgid === -target);
      if (members.length === 0) throw errno('ESRCH');
      for (const p of members) {
        try {
          this.deliver(p, signal);
        } catch {
          // kill(-pgid) succeeds when it reaches any member.
        }
      }
      return;
    }
    const p = this.procs.get(target);
    if (p === undefined) throw errno('ESRCH');
    this.deliver(p, signal);
  };

  /** `ps -A -o pid=,ppid=,pgid=,stat=` as macOS prints it. */
  psOutput(): string {
    this.countSnapshot();
    this.onSnapshot?.(this, this.snapshots);
    return [...this.procs.values()]
      .map(
        (p) =>
          `${String(p.pid).padStart(5)} ${String(p.ppid).padStart(5)} ${String(p.pgid).padStart(5)} ${p.state}s`,
      )
      .join('\n');
  }

  private countSnapshot(): void {
    this.snapshots += 1;
    expect(this.snapshots, 'snapshots taken: the kill never ends').toBeLessThanOrEqual(MAX_SNAPSHOTS);
  }

  sleep = async (ms: number): Promise<void> => {
    this.sleeps += 1;
    this.slept.push(ms);
    this.clock += ms;
    expect(this.sleeps, 'sleeps: the kill never ends').toBeLessThanOrEqual(MAX_SLEEPS);
    expect(this.clock, 'simulated ms: the kill never ends').toBeLessThanOrEqual(MAX_CLOCK_MS);
    for (const timer of this.timers.splice(0).sort((a, b) => a.at - b.at)) {
      if (timer.at <= this.clock) timer.run();
      else this.timers.push(timer);
    }
  };

  /** The effects of the ps platform (macOS), wired to this world. */
  effects(overrides: PlatformDeps = {}): KillEffects {
    return killEffectsFor('darwin', {
      readPs: async () => this.psOutput(),
      kill: this.kill,
      selfPid: SELF,
      env: {},
      sleep: this.sleep,
      now: () => this.clock,
      ...overrides,
    });
  }

  /** The table as /proc would give it: markers included, start time = pid unless set. */
  table(): ProcessEntry[] {
    this.countSnapshot();
    this.onSnapshot?.(this, this.snapshots);
    return [...this.procs.values()].map((p) => ({
      pid: p.pid,
      ppid: p.ppid,
      pgid: p.pgid,
      state: p.state,
      startTime: p.startTime ?? p.pid,
      marker: p.marker,
    }));
  }

  /** Effects like Linux's: markers visible, zombies and reused pids known to be gone. */
  procfsEffects(selfMarker?: string): KillEffects {
    const base = this.effects();
    return {
      ...base,
      selfMarker,
      snapshot: async () => this.table(),
      groupOf: (entry) => {
        const p = this.procs.get(entry.pid);
        return p !== undefined && p.state !== 'Z' && (p.startTime ?? p.pid) === entry.startTime
          ? p.pgid
          : undefined;
      },
      isAlive: (entry) => {
        const p = this.procs.get(entry.pid);
        return p !== undefined && p.state !== 'Z' && (p.startTime ?? p.pid) === entry.startTime;
      },
    };
  }

  signals(signal: TreeSignal): string[] {
    return this.log.filter((line) => line.includes(signal));
  }
}
