import { ProcessSupervisor } from './supervisor.js';

let shared: ProcessSupervisor | undefined;

/**
 * One ProcessSupervisor for callers that do not manage their own, created on first use
 * (never at import) with the console logger. Hosts that need isolation (one per session or
 * per connection, so cancelAll() ends exactly their runs) construct their own.
 */
export function getDefaultSupervisor(): ProcessSupervisor {
  shared ??= new ProcessSupervisor();
  return shared;
}
