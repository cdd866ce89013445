export { type AdoptCheck, adoptRefusal } from './cgroup/adopt.js';
export { type CgroupEffects, killAndRemove, killCgroup } from './cgroup/kill.js';
export { type CgroupLayout, discoverLayout, type V1Controller } from './cgroup/layout.js';
export { CGROUP_PREFIX, type CgroupPlan, planCgroup } from './cgroup/plan.js';
export {
  hostCgroupLayout,
  nodeCgroupEffects,
  SessionCgroup,
  type SessionCgroupOptions,
} from './cgroup/session-cgroup.js';
export type { Containment, ResourceLimits, ResourceUsage } from './cgroup/types.js';
export { ChildAdapter, type ChildAdapterOptions, type TreeKill } from './child-adapter.js';
export { hostPidNamespaceSupport } from './pid-namespace/node-support.js';
export { namespacedProgramPid } from './pid-namespace/program-pid.js';
export {
  type PidNamespaceEffects,
  type PidNamespaceSupport,
  pidNamespaceSupport,
} from './pid-namespace/support.js';
export { readWaiterExit } from './pid-namespace/waiter-status.js';
export {
  PID_NAMESPACE_INIT,
  type PidNamespaceSpec,
  PROGRAM_STARTED_MARK,
  pidNamespaceTarget,
} from './pid-namespace/wrap.js';
export {
  currentPlatform,
  loadPlatform,
  type ModuleImporter,
  type PlatformLoader,
  type PlatformModules,
  type PlatformPackages,
  platformPackages,
} from './platform.js';
export { assertExecutable } from './spawn-errors.js';
export { MAX_TIMEOUT_MS, type SpawnOptions } from './spawn-options.js';
export { consoleLogger, ProcessSupervisor, type ProcessSupervisorOptions } from './supervisor.js';
export { endScopeAfterExit, killScopeArgv, type ScopeCommand } from './systemd-scope/end-scope.js';
export { hostSystemdScopeSupport } from './systemd-scope/node-support.js';
export {
  type SystemdScopeEffects,
  type SystemdScopeSupport,
  systemdScopeSupport,
  systemdScopeTarget,
} from './systemd-scope/support.js';
export { HostWatchdog, type HostWatchdogOptions, type WatchdogSpawner } from './watchdog/host-watchdog.js';
