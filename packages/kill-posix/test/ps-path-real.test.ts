// The ps path (macOS, the BSDs) on real processes, with Linux's procps standing in for their
// ps: the group, setsid children and TERM-ignorers killed from ps output alone, and a setsid
// escapee found by its marker in ps -E style output. Kept apart from the pure suites so the
// mutation run (stryker.config.mjs), which runs those, spends no seconds per mutant here.
import { checkLeaksAfterAll, isAlive, requireTool } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { killTreeWith } from '../src/kill-tree.js';
import { killEffectsFor } from '../src/platform.js';
import { PS_ENV_COLUMNS, PS_PATH } from '../src/ps.js';
import { ignoresTerm, liveWithMarker, spawnTree, statOf, waitForValue } from './helpers.js';

// procps on Linux prints environments with the BSD-style `e` flag; macOS says -E, the BSDs -e.
// The output has the same shape, so the macOS path runs here on real processes.
const PROCPS_ENV_ARGS = ['-A', '-ww', '-o', PS_ENV_COLUMNS, 'e'];
// Under CI a missing ps fails the file (requireTool), never skips it.
describe.skipIf(process.platform !== 'linux' || requireTool('ps') !== undefined)(
  `the ps path (macOS, BSD) on real processes (Linux with ${PS_PATH})`,
  () => {
    it('kills the group, a setsid child whose parent lives, and a TERM-ignorer, from ps output alone', async () => {
      const tree = await spawnTree(`
        sleep 1000 & ( sleep 1000 & )
        setsid sleep 1000 & echo "setsid $!"
        bash -c "trap '' TERM; exec sleep 1000" & echo "ignorer $!"
        echo ready
        wait`);
      const setsid = tree.pids.get('setsid')!;
      const ignorer = tree.pids.get('ignorer')!;
      const members = await waitForValue(
        () => {
          const live = liveWithMarker(tree.marker);
          return live.length >= 5 && ignoresTerm(ignorer) && statOf(setsid).sid === setsid ? live : undefined;
        },
        10_000,
        'the tree to start',
      );

      const report = await killTreeWith(tree.root, { graceMs: 300 }, killEffectsFor('darwin'));
      expect(report.survivors).toEqual([]);
      expect(report.signalled).toEqual(expect.arrayContaining(members));
      for (const pid of members) expect(isAlive(pid)).toBe(false);
    });
  },
);

// Under CI a missing ps fails the file (requireTool), never skips it.
describe.skipIf(process.platform !== 'linux' || requireTool('ps') !== undefined)(
  `the ps path with environments on real processes (needs Linux's procps ${PS_PATH} to stand in for macOS ps -E)`,
  () => {
    // The escapee's parent (a subshell) exits at once, so only the marker ties it to the tree.
    const script = `
      ( setsid sleep 1000 & echo "escapee $!" )
      echo ready
      exec sleep 1000`;

    async function startTree() {
      const tree = await spawnTree(script);
      const escapee = tree.pids.get('escapee')!;
      await waitForValue(
        () => (statOf(escapee).ppid !== tree.root && statOf(escapee).sid === escapee ? true : undefined),
        10_000,
        'the escapee to be orphaned in its own session',
      );
      return { tree, escapee };
    }

    it('kills a setsid escapee whose parent already exited, found by its marker in ps output', async () => {
      const { tree, escapee } = await startTree();
      const effects = killEffectsFor('darwin', { psEnvArgs: PROCPS_ENV_ARGS });
      const table = await effects.snapshot();
      expect(table.find((p) => p.pid === escapee)?.marker).toBe(tree.marker);

      const report = await killTreeWith(tree.root, { graceMs: 300 }, effects);
      expect(report.survivors).toEqual([]);
      expect(report.signalled).toEqual(expect.arrayContaining([tree.root, escapee]));
      expect(isAlive(escapee)).toBe(false);
      expect(liveWithMarker(tree.marker)).toEqual([]);
    });

    it('without environments (plain ps) the same escapee is out of reach, which is why -E is asked for', async () => {
      const { tree, escapee } = await startTree();
      try {
        const report = await killTreeWith(
          tree.root,
          { graceMs: 300 },
          killEffectsFor('darwin', { psEnvArgs: null }),
        );
        expect(report.signalled).not.toContain(escapee);
        expect(isAlive(escapee)).toBe(true);
      } finally {
        process.kill(escapee, 'SIGKILL');
        await waitForValue(() => (isAlive(escapee) ? undefined : true), 10_000, 'the escapee to die');
      }
    });
  },
);

checkLeaksAfterAll();
