export { chooseForwarder, type ForwarderEffects } from './forwarder-choice.js';
export { heldLaunchFile, holdLaunchFile, type LaunchFileEffects } from './launch-file.js';
export {
  bwrapArgs,
  FORWARDER_DIED,
  FORWARDER_NOT_LISTENING,
  type Forwarder,
  type LaunchSpec,
  type LaunchTarget,
  launchArgs,
  launchEnv,
  type Outer,
  PROGRAM_ENV_PREFIX,
  PROXY_PORT,
  SANDBOX_DEFAULT_ENV,
  type SandboxFiles,
  sandboxEnv,
} from './launcher.js';
export {
  builtNativeHelper,
  builtSandboxInit,
  type NativeHelper,
  nativeHelperName,
  sandboxInitName,
} from './native.js';
export {
  type AllowedDomain,
  domainAllowed,
  type PolicyContext,
  parseDomain,
  resolveSandboxPolicy,
  type SandboxOptions,
  type SandboxPolicy,
  SECRET_PATHS,
} from './policy.js';
export { type SandboxProxy, startProxy } from './proxy.js';
export { type SeccompArch, seccompProgram, TIOCLINUX, TIOCSTI } from './seccomp.js';
export {
  type AdoptOptions,
  adoptSessionSandbox,
  ensureSandboxSupport,
  MAX_KEPT_VIOLATIONS,
  type OpenOptions,
  openSessionSandbox,
  type SessionSandbox,
  type WrapOptions,
} from './session-sandbox.js';
export { checkSandboxSupport, type SupportEffects } from './support.js';
export {
  LineScanner,
  REFUSAL_WORDS,
  type SandboxViolation,
  type SandboxViolationKind,
  type ScanContext,
  type ScanEffects,
  scanLine,
  violationLine,
} from './violations.js';
