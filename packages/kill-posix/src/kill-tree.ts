// The tree kill itself: snapshot, SIGTERM, wait, SIGKILL, sweep, confirm.
import type { KillReport } from '@procmux/core-types';
import { resolveGraceMs, validateMarker, validateOptions, validatePid } from './options.js';
import { currentKillEffects } from './platform.js';
import { collectTree, isLiveEntry, sameProcess, type TreeContext, treeMarkers } from './tree.js';
import type { KillEffects, ProcessEntry, TreeSignal } from './types.js';

/** Options of the POSIX tree kill. */
export interface PosixKillOptions {
  /** Milliseconds between SIGTERM and SIGKILL (default 3000); an integer from 0 to 60000; 0 kills at once. */
  graceMs?: number;
  /**
   * A tree marker to sweep besides the root's own (Linux). Lets a caller whose root already
   * exited still reach the setsid escapees it left behind.
   */
  marker?: string;
}

/**
 * Liveness polls run every FIRST_POLL_MS for FAST_POLL_FOR_MS (most trees die within tens of
 * ms; a doubling from the start slept to 75 ms for a tree gone at 36), then back off to
 * MAX_POLL_MS. A poll checks every process known (a /proc read each on Linux), so a big tree
 * waits at least POLL_COST_FACTOR times as long as its last poll took: polling never takes
 * more than a fifth of the time.
 */
const MAX_POLL_MS = 100;
const FIRST_POLL_MS = 5;
const FAST_POLL_FOR_MS = 100;
const POLL_COST_FACTOR = 4;

/** The next poll delay: FIRST_POLL_MS in the fast phase, then doubling up to MAX_POLL_MS. */
function nextDelay(delay: number, elapsed: number, pollCost: number): number {
  const planned = elapsed < FAST_POLL_FOR_MS ? FIRST_POLL_MS : Math.min(delay * 2, MAX_POLL_MS);
  return Math.max(planned, Math.min(POLL_COST_FACTOR * pollCost, MAX_POLL_MS));
}
/** How long SIGKILLed processes get to disappear before they count as survivors. */
export const KILL_SETTLE_MS = 2_000;
/** Snapshot-and-SIGKILL rounds after the grace, to catch children forked meanwhile. */
const MAX_KILL_ROUNDS = 5;

function identity(entry: ProcessEntry): string {
  return `${entry.pid}@${entry.startTime ?? ''}`;
}

class TreeKill {
  private readonly known = new Map<number, ProcessEntry>();
  private readonly signalled = new Set<number>();
  private readonly killed = new Set<string>();

  constructor(
    private readonly effects: KillEffects,
    private readonly context: TreeContext,
  ) {}

  /** Folds a snapshot's tree into what is known; returns the members not seen before. */
  absorb(table: readonly ProcessEntry[]): {
    fresh: ProcessEntry[];
    members: ProcessEntry[];
    groups: number[];
  } {
    const found = collectTree(table, this.context, this.known);
    const fresh: ProcessEntry[] = [];
    for (const entry of found.all.values()) {
      const before = this.known.get(entry.pid);
      if (before === undefined || !sameProcess(before, entry)) {
        this.known.set(entry.pid, entry);
        if (isLiveEntry(entry)) fresh.push(entry);
      }
    }
    return { fresh, members: found.members, groups: found.groups };
  }

  /**
   * Groups first, so a member forking right now cannot slip out between the pid signals. A
   * member still in a group that was just signalled gets no SIGTERM by pid: a second one
   * arriving after its handler ran ran the handler twice (a shell's TERM trap printed its
   * cleanup twice, under load). One that left its group before the group signal gets it by pid.
   */
  send(entries: readonly ProcessEntry[], groups: readonly number[], signal: TreeSignal): void {
    const reached = new Set(groups.filter((pgid) => this.effects.signal(-pgid, signal) === 'sent'));
    for (const entry of entries) {
      if (signal === 'SIGTERM' && reached.has(entry.pgid) && this.effects.groupOf?.(entry) === entry.pgid) {
        this.signalled.add(entry.pid);
        continue;
      }
      // A member the group signal already killed (and its parent reaped) answers ESRCH here.
      const sent = this.effects.signal(entry.pid, signal) === 'sent';
      if (sent || reached.has(entry.pgid)) this.signalled.add(entry.pid);
      if (signal === 'SIGKILL') this.killed.add(identity(entry));
    }
  }

  alive(): ProcessEntry[] {
    return [...this.known.values()].filter((entry) => isLiveEntry(entry) && this.effects.isAlive(entry));
  }

  /** SIGTERM, then wait up to the grace; true when the whole tree (newcomers too) is gone. */
  async terminate(members: ProcessEntry[], groups: number[], graceMs: number): Promise<boolean> {
    const start = this.effects.now();
    const deadline = start + graceMs;
    this.send(members, groups, 'SIGTERM');
    let delay = FIRST_POLL_MS;
    for (;;) {
      const polled = this.effects.now();
      const alive = this.alive().length;
      const pollCost = this.effects.now() - polled;
      if (alive === 0) {
        // Someone may have forked while dying (a cleanup child, a setsid escapee).
        const { fresh, groups: current } = this.absorb(await this.effects.snapshot());
        if (fresh.length === 0) return true;
        this.send(fresh, current, 'SIGTERM');
      }
      const left = deadline - this.effects.now();
      if (left <= 0) return false;
      await this.effects.sleep(Math.min(delay, left));
      delay = nextDelay(delay, this.effects.now() - start, pollCost);
    }
  }

  /** SIGKILL everything of the tree, re-snapshotting until no newcomer appears. */
  async kill(table: readonly ProcessEntry[]): Promise<void> {
    let current = table;
    for (let round = 0; round < MAX_KILL_ROUNDS; round++) {
      const { members, groups } = this.absorb(current);
      if (round > 0 && members.every((entry) => this.killed.has(identity(entry)))) return;
      // Survivors of earlier rounds get SIGKILL again along with the newcomers: it is harmless.
      this.send(members, groups, 'SIGKILL');
      current = await this.effects.snapshot();
    }
  }

  /** Waits (bounded) for the SIGKILLed to vanish; what is left, confirmed by a snapshot, survived. */
  async settle(): Promise<number[]> {
    const start = this.effects.now();
    const deadline = start + KILL_SETTLE_MS;
    let delay = FIRST_POLL_MS;
    for (;;) {
      const polled = this.effects.now();
      const alive = this.alive().length;
      const pollCost = this.effects.now() - polled;
      if (alive === 0 || this.effects.now() >= deadline) break;
      await this.effects.sleep(Math.min(delay, Math.max(deadline - this.effects.now(), 0)));
      delay = nextDelay(delay, this.effects.now() - start, pollCost);
    }
    const left = this.alive();
    if (left.length === 0) return [];
    // Where liveness is only kill(pid, 0) (macOS), a zombie looks alive: the table says better.
    const table = await this.effects.snapshot();
    return left
      .filter((entry) => table.some((row) => sameProcess(row, entry) && isLiveEntry(row)))
      .map((entry) => entry.pid);
  }

  report(survivors: number[]): KillReport {
    return {
      signalled: [...this.signalled].sort((a, b) => a - b),
      survivors: [...survivors].sort((a, b) => a - b),
    };
  }
}

/** Our own process group, read from the same snapshot. */
function selfPgidIn(table: readonly ProcessEntry[], selfPid: number): number | undefined {
  return table.find((entry) => entry.pid === selfPid)?.pgid;
}

/** The tree context a first snapshot establishes. */
export function treeContextFor(
  table: readonly ProcessEntry[],
  rootPid: number,
  effects: Pick<KillEffects, 'selfPid' | 'selfMarker'>,
  marker: string | undefined,
): TreeContext {
  return {
    rootPid,
    selfPid: effects.selfPid,
    selfPgid: selfPgidIn(table, effects.selfPid),
    markers: treeMarkers(table, rootPid, effects.selfMarker, marker),
  };
}

/**
 * killProcessTree with its effects injected: what src/platform.ts wires to the real OS and
 * tests wire to a simulated one.
 */
export async function killTreeWith(pid: number, options: unknown, effects: KillEffects): Promise<KillReport> {
  const rootPid = validatePid(pid, effects.selfPid);
  const opts = validateOptions<PosixKillOptions>(options);
  const graceMs = resolveGraceMs(opts.graceMs);
  const marker = validateMarker(opts.marker);

  const first = await effects.snapshot();
  const run = new TreeKill(effects, treeContextFor(first, rootPid, effects, marker));
  const { members, groups } = run.absorb(first);
  if (members.length === 0 && groups.length === 0) return run.report([]);

  if (graceMs > 0 && (await run.terminate(members, groups, graceMs))) return run.report([]);
  await run.kill(graceMs > 0 ? await effects.snapshot() : first);
  return run.report(await run.settle());
}

/**
 * Kills a process and its whole tree. SIGTERM goes to the process groups the tree leads and
 * (once per process on Linux) to every process of a snapshot taken first: the root, its
 * descendants by parent pid, and (Linux) every process carrying the root's PROCMUX_TREE
 * marker, which catches setsid escapees even after their parent exited. Resolves as soon as
 * all are gone; whatever is left after `graceMs` gets SIGKILL, as do children forked
 * meanwhile. A pid that is already gone resolves with nothing signalled.
 *
 * Rejects with ERR_INVALID_OPTION for a pid that is not a positive integer (or is 1, or our
 * own) and a graceMs that is not an integer from 0 to 60000; ERR_PROCESS_UNSUPPORTED when the process table
 * cannot be read.
 *
 * @example
 * const report = await killProcessTree(child.pid!, { graceMs: 2000 });
 * if (report.survivors.length > 0) console.warn('still alive:', report.survivors);
 */
export async function killProcessTree(pid: number, options?: PosixKillOptions): Promise<KillReport> {
  return killTreeWith(pid, options, currentKillEffects());
}
