// What the server tells a model at initialize: how the tools go together, and, under
// --sandbox, what its commands may touch (before, a model learned it from its first refused
// write to /tmp or its first curl of a server another session ran).

/** What the sessions of a sandboxed server run inside. */
export interface SandboxFacts {
  /** The workspace, writable. */
  workspace: string;
  /** Other writable paths (`--sandbox-write`). */
  write: readonly string[];
  /** Domains the proxy lets through (`--sandbox-allow-domain`). */
  allowDomains: readonly string[];
}

const TOOLS =
  'procmux runs processes for you. exec runs a command: one_shot (default) waits for it and returns output ' +
  'and exit code; session opens an interactive program in a terminal; daemon starts a long-running one. ' +
  'The process tool reads (poll, wait_for, log), drives (paste, submit, send_keys, write) and stops (kill) ' +
  'sessions. Kill sessions and daemons you no longer need.';

/** The server's instructions; with `sandbox`, what every command may touch. */
export function serverInstructions(sandbox?: SandboxFacts): string {
  if (!sandbox) return TOOLS;
  const writable = [sandbox.workspace, ...sandbox.write].join(', ');
  const domains =
    sandbox.allowDomains.length > 0 ? sandbox.allowDomains.join(', ') : 'nothing (no domain is allowed)';
  return [
    TOOLS,
    `Every command runs in an OS sandbox. It can write only to ${writable} and to its session's own temp dir, $TMPDIR (gone when the session ends); /tmp, the home directory and the rest are read-only, and the user's secrets (~/.ssh, cloud credentials) cannot be read.`,
    `The network is reached only through a proxy that lets through ${domains}. Each session has its own localhost: run a server and its client in one session.`,
    'What the sandbox refused is said at the end of a result.',
  ].join('\n');
}
