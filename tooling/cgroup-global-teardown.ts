// After a whole vitest run (every test file of a package or of test-e2e): no cgroup procmux
// made may be left, whoever made it. Every host of this run has exited by now, so any
// `procmux-<pid>-…` cgroup whose host is gone is a leak; it is listed, then removed.
import { leakedCgroups, removeCgroup } from './test-utils/src/cgroups.ts';

export default function setup(): () => void {
  return () => {
    const left = leakedCgroups();
    for (const { dir } of left) removeCgroup(dir);
    if (left.length > 0) {
      throw new Error(`procmux cgroups left after the test run:\n  ${left.map((c) => c.dir).join('\n  ')}`);
    }
  };
}
