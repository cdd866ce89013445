export {
  checkKillMode,
  checkPtyInput,
  checkPtySize,
  MAX_PTY_TIMER_MS,
  type PtyKillTimings,
  resolveKillTimings,
} from './checks.js';
export { PtyAdapterBase } from './pty-adapter-base.js';
export {
  checkPtyCwd,
  checkPtyEnv,
  checkPtyOptions,
  resolvePtySize,
  resolvePtyTerm,
} from './spawn-checks.js';
