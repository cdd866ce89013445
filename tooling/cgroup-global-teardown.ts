// After a whole vitest run (every test file of a package or of test-e2e): no cgroup procmux
// made may be left, whoever made it. Every host of this run has exited by now, so any
// `procmux-<pid>-…` cgroup whose host is gone is a leak; it is listed, then removed. Another
// package's run may be going on beside this one (turbo runs two): a host it has just
// SIGKILLed leaves its cgroups to its watchdog, so a cgroup counts only once it stayed past
// a settle in which that watchdog has long finished.
import { orphanedCgroups, removeCgroup } from './test-utils/src/cgroups.ts';

const SETTLE_MS = 15_000;

export default function setup(): () => Promise<void> {
  return async () => {
    const deadline = Date.now() + SETTLE_MS;
    let left = orphanedCgroups();
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const still = new Set(orphanedCgroups().map((c) => c.dir));
      left = left.filter((c) => still.has(c.dir));
    }
    for (const { dir } of left) removeCgroup(dir);
    if (left.length > 0) {
      throw new Error(`procmux cgroups left after the test run:\n  ${left.map((c) => c.dir).join('\n  ')}`);
    }
  };
}
