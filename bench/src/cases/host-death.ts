// A host SIGKILLed with 4 sessions of 5 processes each (all honour SIGTERM): time from the
// SIGKILL until the last of the 20 is gone, which the registry's watchdog achieves alone.
// Raw: killProcessTree called directly on 4 such trees (the floor the watchdog builds on).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { alternate } from '../alternate.js';
import type { BenchCase, Measured } from '../case.js';
import { figure } from '../format.js';
import { HOST_SESSIONS, PROCESSES_PER_SESSION, TREE_COMMAND } from '../host-death-child.js';
import { benchEnv, descendantsOf, forceKill, isAlive, track, untrack } from '../processes.js';
import { loadKillPosix } from '../procmux-api.js';
import { median } from '../stats.js';
import { pollUntil, withTimeout } from '../timing.js';

const GRACE_MS = 3_000;
const ALLOWANCE_MS = 200;
const TOTAL = HOST_SESSIONS * PROCESSES_PER_SESSION;
const CHILD = fileURLToPath(new URL('../host-death-child.js', import.meta.url));

/** The 20 session processes under `roots`, once they all exist. */
async function treesOf(roots: number[]): Promise<number[]> {
  let pids: number[] = [];
  const complete = await pollUntil(
    () => {
      pids = roots.flatMap((root) => [root, ...descendantsOf(root)]);
      return pids.length >= TOTAL;
    },
    15_000,
    5,
  );
  if (!complete) throw new Error(`the sessions reached ${pids.length} of ${TOTAL} processes`);
  return pids;
}

async function goneAfter(pids: number[], start: number): Promise<number> {
  if (!(await pollUntil(() => pids.every((pid) => !isAlive(pid)), GRACE_MS + 10_000))) {
    throw new Error(`${pids.filter(isAlive).length} of ${TOTAL} processes outlived their host by 13 s`);
  }
  return performance.now() - start;
}

/** Starts the host; resolves to it and the session roots it printed. */
async function startHost(): Promise<{ host: number; roots: number[] }> {
  const child = spawn(process.execPath, [CHILD, 'run'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: benchEnv(),
  });
  track(child.pid);
  const line = await withTimeout(
    new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0]!);
      });
      child.once('exit', () => reject(new Error(`the host exited before it was ready: ${out}`)));
    }),
    30_000,
    'the host to start its sessions',
  );
  const roots = line.split(' ').slice(1).map(Number);
  if (!line.startsWith('ready') || roots.length !== HOST_SESSIONS || roots.some((pid) => !(pid > 0))) {
    throw new Error(`the host said "${line}"`);
  }
  return { host: child.pid!, roots };
}

export const hostDeathCleanup: BenchCase = {
  id: 'host-death-cleanup',
  title: `host SIGKILL → last of ${TOTAL} session processes (${HOST_SESSIONS} sessions) gone [killProcessTree direct]`,
  target: `≤ grace + ${ALLOWANCE_MS} ms (${GRACE_MS + ALLOWANCE_MS} ms)`,
  async run(ctx): Promise<Measured> {
    const { killProcessTree } = await loadKillPosix();
    const { a, b } = await alternate({
      warmup: 1,
      runs: 5,
      onPair: (i) => ctx.progress(`host-death-cleanup: pair ${i + 1}/5`),
      a: async () => {
        const { host, roots } = await startHost();
        const pids = await treesOf(roots);
        try {
          const start = performance.now();
          process.kill(host, 'SIGKILL');
          return await goneAfter(pids, start);
        } finally {
          for (const pid of pids) forceKill(pid);
          untrack(host);
        }
      },
      b: async () => {
        const roots = Array.from({ length: HOST_SESSIONS }, () => {
          const child = spawn('bash', ['-c', TREE_COMMAND], {
            detached: true,
            stdio: 'ignore',
            env: benchEnv(),
          });
          track(-child.pid!);
          return child.pid!;
        });
        const pids = await treesOf(roots);
        try {
          const start = performance.now();
          await Promise.all(roots.map((root) => killProcessTree(root, { graceMs: GRACE_MS })));
          return await goneAfter(pids, start);
        } finally {
          for (const pid of pids) forceKill(pid);
          for (const root of roots) untrack(-root);
        }
      },
    });
    const ours = median(a);
    return {
      status: 'measured',
      procmux: figure(a, 'ms'),
      raw: figure(b, 'ms'),
      ratio: `+${(ours - median(b)).toFixed(1)} ms`,
      pass: ours <= GRACE_MS + ALLOWANCE_MS,
      notes: [
        `${HOST_SESSIONS} pipe sessions × ${PROCESSES_PER_SESSION} processes, default grace ${GRACE_MS} ms; ` +
          'time from the SIGKILL of the host until every process is gone (polled every ms); 1 warm-up + 5 counted pairs',
      ],
    };
  },
};
