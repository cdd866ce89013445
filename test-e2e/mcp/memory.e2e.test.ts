// One one-shot printing 50 MB through `procmux mcp`: the server's peak stays within 1.5x the
// session's retained-history cap + 100 MB over idle, and the memory goes back once the
// session is pruned. Linux only: it reads /proc/<pid>/status.
import { rmSync } from 'node:fs';
import { assertNoLeakedProcesses, withoutUsage } from '@procmux/test-utils';
import { afterAll, expect, it } from 'vitest';
import { endStateDirs, memoryMb, startSdk, workspace } from './server.js';

const RETAINED_CAP_MB = 64 * 1.048576; // the default maxOutputBytes, 64 MiB, in MB
const root = workspace();

afterAll(async () => {
  rmSync(root, { recursive: true, force: true });
  endStateDirs();
  await assertNoLeakedProcesses();
});

it.skipIf(process.platform !== 'linux')(
  'holds a 50 MB one-shot within its memory target and gives the memory back once pruned',
  async () => {
    const server = await startSdk(root, ['--max-ended-sessions', '1']);
    try {
      await server.call('exec', { command: 'echo warm' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const idle = memoryMb(server.pid).rss;
      const big = await server.call('exec', {
        command: "head -c 50000000 /dev/zero | tr '\\0' a | fold -w 100",
      });
      expect(big.text.length).toBeLessThanOrEqual(30_000);
      expect(big.text).toMatch(/bytes left out here \(lines \d[\d,]*-499,\d{3}\)/);
      expect(withoutUsage(big.text).endsWith(`${'a'.repeat(100)}\n\nProcess exited with code 0.`)).toBe(true);
      const { peak } = memoryMb(server.pid);
      const target = 1.5 * RETAINED_CAP_MB + 100;
      console.log(
        `mcp 50 MB one-shot: idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (+${(peak - idle).toFixed(0)} MB; target +${target.toFixed(0)} MB)`,
      );
      expect(peak - idle).toBeLessThanOrEqual(target);
      // Two more calls: the first prunes the big session (only one ended session is kept).
      await server.call('exec', { command: 'echo prune' });
      await server.call('exec', { command: 'echo again' });
      let rss = memoryMb(server.pid).rss;
      for (let i = 0; i < 50 && rss - idle > target; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        rss = memoryMb(server.pid).rss;
      }
      console.log(`after the prune: ${rss.toFixed(0)} MB (${(peak - rss).toFixed(0)} MB given back)`);
      // The output itself never sits in memory past the log's 4 MiB hot window (the rest
      // spills to disk), so what is left after the prune must stay within the same bound.
      expect(rss - idle).toBeLessThanOrEqual(target);
    } finally {
      await server.close();
    }
  },
);
