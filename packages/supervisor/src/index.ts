export { ChildAdapter, type ChildAdapterOptions, type TreeKill } from './child-adapter.js';
export {
  currentPlatform,
  loadPlatform,
  type ModuleImporter,
  type PlatformLoader,
  type PlatformModules,
  type PlatformPackages,
  platformPackages,
} from './platform.js';
export { MAX_TIMEOUT_MS, type SpawnOptions } from './spawn-options.js';
export { consoleLogger, ProcessSupervisor, type ProcessSupervisorOptions } from './supervisor.js';
export { HostWatchdog, type HostWatchdogOptions, type WatchdogSpawner } from './watchdog/host-watchdog.js';
