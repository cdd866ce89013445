// Standby adoption over a shared store: every host re-runs recover() a few times per lease
// TTL. A record whose lease its host stopped renewing is free, so the first host to ask takes
// the lease (a higher fencing token: the old host can never write it again), re-attaches to the
// session through the persistent backend and replays from the last delivered offset. What the
// model reads says so once; a session another host drives is refused here, naming that host.
import { type CheckpointStore, RECOVERY_NAMESPACE } from '@procmux/core-types';
import type { ProcessSessions, RecoveryReport } from '@procmux/sessions';
import type { ProcessTool, ToolResult } from '@procmux/tools';

export interface Adoption {
  /** Folds a recover() report in (the startup one too). */
  absorb(report: RecoveryReport, replicas: ReadonlyMap<string, string>): void;
  /** Wraps a tool so it shows the adoption note once, and refuses sessions another host drives. */
  wrap(tool: ProcessTool): void;
  dispose(): void;
}

/** The replica (host) that last wrote each record, by session id. */
export async function replicasOf(checkpoints: CheckpointStore): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await checkpoints.list(RECOVERY_NAMESPACE)) {
    try {
      const replica = (JSON.parse(entry.data) as { replica?: unknown }).replica;
      if (typeof replica === 'string') out.set(entry.key, replica);
    } catch {}
  }
  return out;
}

/** Looks for lapsed leases while this many earlier looks are still re-attaching. */
const MAX_TICKS_IN_FLIGHT = 3;

export function startAdoption(options: {
  sessions: ProcessSessions;
  checkpoints: CheckpointStore;
  /** How often to look for lapsed leases (a fraction of the lease TTL). */
  intervalMs: number;
  log(line: string): void;
}): Adoption {
  const { sessions, checkpoints, log } = options;
  // Sessions adopted here, with the host they came from, until the model has read the note.
  const unread = new Map<string, string>();
  // Sessions whose lease another live host holds: that host's id.
  const foreign = new Map<string, string>();
  // Sessions whose adoption failed or had to wait, told once: an operator sees why a session
  // the dead host ran is not here (the model sees the session unknown, or not at all).
  const told = new Set<string>();
  const absorb = (report: RecoveryReport, replicas: ReadonlyMap<string, string>, before?: Set<string>) => {
    for (const o of report.outcomes) {
      if (o.code === 'ERR_RECOVERY_OWNERSHIP') {
        foreign.set(o.id, replicas.get(o.id) ?? 'another host');
        continue;
      }
      foreign.delete(o.id);
      if (o.outcome === 'unknown' && o.code !== undefined && before !== undefined && !told.has(o.id)) {
        told.add(o.id);
        const from = replicas.get(o.id) ?? 'another host';
        const what = o.written ? 'could not adopt' : 'did not adopt yet';
        log(`procmux mcp: ${what} ${o.id} from host ${from}: ${o.reason ?? 'no reason given'} (${o.code})`);
      }
      if (o.outcome === 'reattached' && before !== undefined && !before.has(o.id)) {
        const from = replicas.get(o.id) ?? 'another host';
        unread.set(o.id, from);
        log(`procmux mcp: adopted ${o.id} from host ${from} after its lease ran out`);
      }
    }
  };
  // A tick that re-attaches waits on the remote host (an SSH exec: 0.5 s on a loaded machine);
  // later ticks still look, so a lease that lapses meanwhile is taken at once, not after it
  // (recover() leaves a record another run is taking over to that run). Bounded, so a store
  // that stops answering does not pile ticks up.
  let running = 0;
  const tick = async () => {
    if (running >= MAX_TICKS_IN_FLIGHT) return;
    running += 1;
    try {
      const before = new Set(sessions.list().map((s) => s.id));
      const replicas = await replicasOf(checkpoints);
      absorb(await sessions.recover(), replicas, before);
    } catch (error) {
      log(`procmux mcp: looking for sessions to adopt failed: ${(error as Error).message}`);
    } finally {
      running -= 1;
    }
  };
  const timer = setInterval(() => void tick(), options.intervalMs);
  timer.unref();
  return {
    absorb: (report, replicas) => absorb(report, replicas),
    wrap(tool) {
      const run = tool.run.bind(tool);
      tool.run = async (params, context): Promise<ToolResult> => {
        const p = (typeof params === 'object' && params !== null ? params : {}) as Record<string, unknown>;
        const id = typeof p.session_id === 'string' ? p.session_id : undefined;
        // A session this host has is its own, even before the report that adopted it is in.
        const mine = (sid: string) => sessions.list().some((s) => s.id === sid);
        const owner = id === undefined || mine(id) ? undefined : foreign.get(id);
        if (id !== undefined && owner !== undefined) {
          const message = `session ${id} is driven by host ${owner}, which holds its lease; this host cannot drive it`;
          return {
            text: `Error [ERR_RECOVERY_OWNERSHIP]: ${message}`,
            isError: true,
            data: { tool: tool.name, action: undefined, error: { code: 'ERR_RECOVERY_OWNERSHIP', message } },
          } as ToolResult;
        }
        const result = await run(params, context);
        const others = [...foreign].filter(([sid]) => !mine(sid));
        if (p.action === 'list' && others.length > 0) {
          const lines = others.map(([sid, host]) => `${sid}: driven by host ${host} (not this one)`);
          result.text = `${result.text}\n${lines.join('\n')}`;
        }
        const from = id === undefined ? undefined : unread.get(id);
        if (id !== undefined && from !== undefined) {
          unread.delete(id);
          result.text = `adopted from host ${from} after its lease ran out\n${result.text}`;
        }
        return result;
      };
    },
    dispose: () => clearInterval(timer),
  };
}
