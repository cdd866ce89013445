// A session's OS sandbox, kept apart from the spawn paths: the
// wrapped target, environment and output scanning its native spawn uses.
import { ProcmuxError } from '@procmux/core-types';
import { openSessionSandbox, type SandboxPolicy, type SessionSandbox } from '@procmux/sandbox-linux';
import { shellWrap } from '@procmux/shell-wrap';
import { assertExecutable, currentPlatform } from '@procmux/supervisor';
import type { LiveSession } from './session/live-session.js';
import { type StartPlan, shellLine } from './start-plan.js';

/** Where a sandbox cannot go: the host's own sandbox backend or a host PTY backend (tmux). */
export function sandboxUnsupportedOn(where: string): ProcmuxError {
  return new ProcmuxError(
    'ERR_PROCESS_UNSUPPORTED',
    `an OS-sandboxed session cannot run on ${where}; only native sessions (pipes and PTYs) and a PTY backend on this host (tmux) are sandboxed`,
  );
}

export interface SandboxedSpawn {
  box: SessionSandbox;
  file: string;
  args: string[];
  env: Record<string, string>;
}

/** Opens the session's sandbox and wraps its target; the session reports what it refuses. */
export async function openSandboxedSpawn(
  session: LiveSession,
  plan: StartPlan & { sandbox: SandboxPolicy },
): Promise<SandboxedSpawn> {
  // The launcher is what gets spawned: a missing program would end the sandbox with 127, where
  // unsandboxed it is ERR_PROCESS_SPAWN. Looked up as inside: the same cwd and PATH, / read-only.
  if (!plan.shell) assertExecutable(plan.command, plan.cwd, plan.env, currentPlatform());
  const commandLine = shellLine(plan);
  // A terminal echoes what is typed, so recent output shows an interactive TIOCSTI attempt too.
  let recent = '';
  const box = await openSessionSandbox({
    policy: plan.sandbox,
    cwd: plan.cwd,
    commandText: () => `${commandLine}\n${recent}`,
  });
  const scan = box.scan.bind(box);
  box.scan = (stream, chunk) => {
    recent = chunk.length >= 4096 ? chunk.slice(-4096) : (recent + chunk).slice(-4096);
    scan(stream, chunk);
  };
  session.attachSandbox(box);
  const target = plan.shell
    ? shellWrap(commandLine, { env: plan.env })
    : { file: plan.command, args: plan.args };
  const wrapped = box.wrap({ file: target.file, args: [...target.args] }, plan.cwd);
  return { box, file: wrapped.file, args: [...wrapped.args], env: { ...plan.env, ...box.env } };
}
