// Killing a 50-process tree that honours SIGTERM, in its own process group: time until every
// process of the tree is gone, and who survived, against tree-kill.
import { spawn } from 'node:child_process';
import treeKill from 'tree-kill';
import { alternate } from '../alternate.js';
import type { BenchCase, Measured } from '../case.js';
import { figure } from '../format.js';
import { benchEnv, descendantsOf, forceKill, isAlive, track, untrack } from '../processes.js';
import { loadKillPosix } from '../procmux-api.js';
import { median } from '../stats.js';
import { pollUntil, withTimeout } from '../timing.js';

const TREE_SIZE = 50;
// bash root + 7 subshells + 7 × 6 sleeps = 50; each subshell waits on its sleeps, so the
// tree is two levels deep below the root. All default SIGTERM handling: all honour it.
const TREE_SCRIPT =
  'for i in 1 2 3 4 5 6 7; do ( for j in 1 2 3 4 5 6; do sleep 600 & done; wait ) & done; wait';
const TARGET_MS = 50;
const GRACE_MS = 3_000;

interface Tree {
  root: number;
  pids: number[];
}

/** Starts the tree with setsid (its own session and group) and waits until all 50 exist. */
async function buildTree(): Promise<Tree> {
  const child = spawn('bash', ['-c', TREE_SCRIPT], { detached: true, stdio: 'ignore', env: benchEnv() });
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

/** Milliseconds from `start` until no process of the tree is alive (polled every ms). */
async function goneAfter(tree: Tree, start: number): Promise<number> {
  if (!(await pollUntil(() => alive(tree).length === 0, 10_000))) {
    throw new Error(`${alive(tree).length} processes of the tree outlived the kill by 10 s`);
  }
  return performance.now() - start;
}

export const killTree: BenchCase = {
  id: 'kill-tree',
  title: 'kill a 50-process tree that honours SIGTERM [tree-kill]',
  target: `≤ ${TARGET_MS} ms, 0 survivors, faster than tree-kill`,
  async run(ctx): Promise<Measured> {
    const { killProcessTree } = await loadKillPosix();
    let survivors = 0;
    let reportedSurvivors = 0;
    const { a, b } = await alternate({
      warmup: 1,
      runs: 5,
      onPair: (i) => ctx.progress(`kill-tree: pair ${i + 1}/5`),
      a: async () => {
        const tree = await buildTree();
        try {
          const start = performance.now();
          const report = await withTimeout(
            killProcessTree(tree.root, { graceMs: GRACE_MS }),
            GRACE_MS + 10_000,
            'killProcessTree',
          );
          // Checked independently of the report, the moment the kill says it is done.
          survivors += alive(tree).length;
          reportedSurvivors += report.survivors.length;
          return await goneAfter(tree, start);
        } finally {
          removeTree(tree);
        }
      },
      b: async () => {
        const tree = await buildTree();
        try {
          const start = performance.now();
          await withTimeout(
            new Promise<void>((resolve, reject) =>
              treeKill(tree.root, 'SIGTERM', (error) => (error ? reject(error) : resolve())),
            ),
            20_000,
            'tree-kill',
          );
          return await goneAfter(tree, start);
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
      ratio: `${ours < median(b) ? 'faster' : 'slower'}, ${survivors} survivors`,
      pass: ours <= TARGET_MS && survivors === 0 && reportedSurvivors === 0 && ours < median(b),
      notes: [
        `time until all ${TREE_SIZE} processes are gone; graceMs ${GRACE_MS}; 1 warm-up + 5 counted pairs; ` +
          `survivors counted from the process table when killProcessTree resolved (report said ${reportedSurvivors})`,
      ],
    };
  },
};
