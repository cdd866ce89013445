export { type BusyLoops, startBusyLoops } from './busy-loops.js';
export {
  cgroupMounts,
  leakedCgroups,
  orphanedCgroups,
  type ProcmuxCgroup,
  procmuxCgroups,
  removeCgroup,
} from './cgroups.js';
export { disposeAfterEach } from './dispose-after-each.js';
export {
  invalidOptionMessage,
  rejectionOf,
  rejectsWith,
  thrownBy,
  throwsWith,
  withoutUsage,
} from './errors.js';
export { announcedPids, type FixtureName, fixture, fixturePath } from './fixtures.js';
export { assertNoLeakedProcesses, leakedProcesses, trackPid } from './leaks.js';
export { descendantsOf, isAlive, type ProcessInfo, processTable } from './process-table.js';
export { propertyRuns } from './property-runs.js';
export {
  chromiumPath,
  nodeToolEffects,
  PS_PATH,
  type RequireToolOptions,
  requireTool,
  TOOLS,
  type Tool,
  type ToolEffects,
  underCi,
} from './require-tool.js';
export { assertNoSandboxDirs, privateTmpdir, sandboxDirs } from './sandbox-dirs.js';
export { isSleeping, waitForSleep } from './sleeping.js';
export { SSHD_PATH, sshdMissingReason, startTestSshd, type TestSshd } from './sshd.js';
export { checkLeaksAfterAll } from './teardown.js';
export { waitFor } from './wait-for.js';
export { makeWorkspace, testTmpdir } from './workspace.js';
