// A cgroup per session (Linux): killing a 50-process tree through its cgroup (one write to
// cgroup.kill) beside today's verified tree kill, and what making and joining the cgroup adds
// to the first byte of `echo hi`. Skipped where this host cannot make a cgroup.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { alternate } from '../alternate.js';
import type { BenchCase, BenchContext, Measured } from '../case.js';
import { figure, signedMs } from '../format.js';
import { benchEnv, descendantsOf, forceKill, isAlive, track, untrack } from '../processes.js';
import { expectSuccess, supervisedRun } from '../procmux.js';
import {
  loadKillPosix,
  loadSupervisor,
  quietLogger,
  type SessionCgroupView,
  type SupervisorModule,
} from '../procmux-api.js';
import { rawPipe } from '../raw.js';
import { median } from '../stats.js';
import { pollUntil, withTimeout } from '../timing.js';

const TREE_SIZE = 50;
const TREE_SCRIPT =
  'for i in 1 2 3 4 5 6 7; do ( for j in 1 2 3 4 5 6; do sleep 600 & done; wait ) & done; wait';
const KILL_TARGET_MS = 10;
const GRACE_MS = 3_000;
const ALLOWANCE_MS = 2;

function newCgroup(module: SupervisorModule): SessionCgroupView {
  return module.SessionCgroup.create({
    layout: module.hostCgroupLayout(),
    id: `bench-${randomBytes(4).toString('hex')}`,
  });
}

/** Why this host cannot make a cgroup, or undefined when it can. */
async function unavailable(): Promise<string | undefined> {
  if (process.platform !== 'linux') return 'cgroups are Linux only';
  const module = await loadSupervisor();
  try {
    await newCgroup(module).close();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

interface Tree {
  root: number;
  pids: number[];
}

// The root joins the cgroup before it forks anything, as a session's first process does.
async function buildTree(cgroup: SessionCgroupView | undefined): Promise<Tree> {
  const join = cgroup ? `for f in ${cgroup.procsFiles.join(' ')}; do echo $$ > "$f"; done; ` : '';
  const child = spawn('bash', ['-c', `${join}${TREE_SCRIPT}`], {
    detached: true,
    stdio: 'ignore',
    env: benchEnv(),
  });
  const root = child.pid;
  if (root === undefined) throw new Error('could not start the process tree');
  track(-root);
  track(root);
  let pids: number[] = [];
  const complete = await pollUntil(
    () => {
      pids = [root, ...descendantsOf(root)];
      return pids.length >= TREE_SIZE;
    },
    10_000,
    5,
  );
  if (!complete) throw new Error(`the process tree reached ${pids.length} of ${TREE_SIZE} processes`);
  return { root, pids };
}

function removeTree(tree: Tree): void {
  forceKill(-tree.root);
  for (const pid of tree.pids) forceKill(pid);
  untrack(-tree.root);
  untrack(tree.root);
}

const alive = (tree: Tree) => tree.pids.filter((pid) => isAlive(pid));

export const killTreeCgroup: BenchCase = {
  id: 'kill-tree-cgroup',
  title: 'kill a 50-process tree through its cgroup (cgroup.kill) [killProcessTree]',
  target: `≤ ${KILL_TARGET_MS} ms, 0 survivors`,
  async run(ctx): Promise<Measured> {
    const why = await unavailable();
    if (why) throw new Error(`no cgroup can be made here: ${why}`);
    const module = await loadSupervisor();
    const { killProcessTree } = await loadKillPosix();
    let survivors = 0;
    const { a, b } = await alternate({
      warmup: 1,
      runs: 5,
      onPair: (i) => ctx.progress(`kill-tree-cgroup: pair ${i + 1}/5`),
      a: async () => {
        const cgroup = newCgroup(module);
        const tree = await buildTree(cgroup);
        try {
          const start = performance.now();
          const report = await cgroup.kill();
          const elapsed = performance.now() - start;
          survivors += alive(tree).length + report.survivors.length;
          return elapsed;
        } finally {
          removeTree(tree);
          await cgroup.close();
        }
      },
      b: async () => {
        const tree = await buildTree(undefined);
        try {
          const start = performance.now();
          await withTimeout(
            killProcessTree(tree.root, { graceMs: GRACE_MS }),
            GRACE_MS + 10_000,
            'killProcessTree',
          );
          if (!(await pollUntil(() => alive(tree).length === 0, 10_000)))
            throw new Error('tree outlived the kill');
          return performance.now() - start;
        } finally {
          removeTree(tree);
        }
      },
    });
    const ours = median(a);
    return {
      status: 'measured',
      procmux: figure(a, 'ms'),
      raw: figure(b, 'ms'),
      ratio: `${(median(b) / ours).toFixed(1)}× faster than today's tree kill, ${survivors} survivors`,
      pass: ours <= KILL_TARGET_MS && survivors === 0,
      notes: [
        `cgroup.kill, then until cgroup.procs is empty (members counted from /proc as well); the raw column is ` +
          `today's killProcessTree (SIGTERM, graceMs ${GRACE_MS}) on the same tree; 1 warm-up + 5 counted pairs`,
      ],
    };
  },
};

async function firstByte(ctx: BenchContext): Promise<Measured> {
  const why = await unavailable();
  if (why) throw new Error(`no cgroup can be made here: ${why}`);
  const module = await loadSupervisor();
  const supervisor = new module.ProcessSupervisor({ logger: quietLogger(), watchdog: true });
  const runs = ctx.quick ? 15 : 50;
  try {
    const { a, b } = await alternate({
      warmup: 3,
      runs,
      onPair: (i) => {
        if ((i + 1) % 10 === 0) ctx.progress(`first-byte-cgroup: ${i + 1}/${runs}`);
      },
      a: async () => {
        let at: number | undefined;
        const start = performance.now();
        // Making the cgroup is part of starting a session: it is inside the clock.
        const cgroup = newCgroup(module);
        const exit = await supervisedRun(
          supervisor,
          { command: 'echo hi', mode: 'pipe', cgroup, onStdout: () => (at ??= performance.now()) },
          15_000,
        );
        expectSuccess(exit, 'procmux pipe echo hi in a cgroup');
        if (at === undefined) throw new Error('echo hi produced no output');
        return at - start;
      },
      b: async () => {
        let at: number | undefined;
        const start = performance.now();
        expectSuccess(
          await rawPipe('echo hi', { onData: () => (at ??= performance.now()) }, 15_000),
          'raw pipe',
        );
        if (at === undefined) throw new Error('echo hi produced no output');
        return at - start;
      },
    });
    const extra = median(a) - median(b);
    return {
      status: 'measured',
      procmux: figure(a, 'ms'),
      raw: figure(b, 'ms'),
      ratio: signedMs(extra),
      pass: extra <= ALLOWANCE_MS,
      notes: [
        `a cgroup made and joined per run (v2 + the v1 memory and pids hierarchies here); median of ${runs} runs per side`,
      ],
    };
  } finally {
    await supervisor.dispose?.();
  }
}

export const firstByteCgroup: BenchCase = {
  id: 'first-byte-cgroup',
  title: 'spawn → first byte of `echo hi` on pipes, in a cgroup of its own [child_process]',
  target: `≤ raw + ${ALLOWANCE_MS} ms`,
  run: firstByte,
};
