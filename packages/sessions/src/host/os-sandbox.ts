// A session's OS sandbox, kept apart from the spawn paths: the
// wrapped target, environment and output scanning its native spawn uses.
import { type ManagedRun, type ProcessRecord, ProcmuxError } from '@procmux/core-types';
import {
  adoptSessionSandbox,
  openSessionSandbox,
  type SandboxPolicy,
  type SessionSandbox,
  type WrapOptions,
} from '@procmux/sandbox-linux';
import { shellWrap } from '@procmux/shell-wrap';
import { assertExecutable, currentPlatform } from '@procmux/supervisor';
import type { LiveSession } from '../session/live-session.js';
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
  wrapOptions: WrapOptions = {},
): Promise<SandboxedSpawn> {
  // The launcher is what gets spawned: a missing program would end the sandbox with 127, where
  // unsandboxed it is ERR_PROCESS_SPAWN. Looked up as inside: the same cwd and PATH, / read-only.
  if (!plan.shell) assertExecutable(plan.command, plan.cwd, plan.env, currentPlatform());
  const commandLine = shellLine(plan);
  const recent = new RecentOutput();
  const box = await openSessionSandbox({
    policy: plan.sandbox,
    cwd: plan.cwd,
    commandText: () => `${commandLine}\n${recent.text()}`,
  });
  const scan = box.scan.bind(box);
  box.scan = (stream, chunk) => {
    recent.push(chunk);
    scan(stream, chunk);
  };
  session.attachSandbox(box);
  const target = plan.shell
    ? shellWrap(commandLine, { env: plan.env })
    : { file: plan.command, args: plan.args };
  // The program's environment goes in through the sandbox: what is spawned here (the
  // launcher, bwrap) runs with the host's own (sandbox-linux's launchEnv).
  const wrapped = box.wrap({ file: target.file, args: [...target.args] }, plan.cwd, plan.env, wrapOptions);
  return { box, file: wrapped.file, args: [...wrapped.args], env: wrapped.env };
}

/**
 * The last 4 KiB (at least) of a session's output: a terminal echoes what is typed, so it
 * shows an interactive TIOCSTI attempt too. Kept as the chunks themselves, joined only when a
 * refusal line asks (copying 4 KiB per chunk cost more than the refusal scan on a flood).
 */
export class RecentOutput {
  readonly #chunks: string[] = [];
  #length = 0;

  push(chunk: string): void {
    this.#chunks.push(chunk);
    this.#length += chunk.length;
    while (this.#length - this.#chunks[0]!.length >= RECENT_CHARS)
      this.#length -= this.#chunks.shift()!.length;
  }

  text(): string {
    return this.#chunks.join('').slice(-RECENT_CHARS);
  }
}

const RECENT_CHARS = 4096;

/**
 * The proxy and the private directory live as long as the process does; signals aim at the
 * program inside, not bwrap. They go once the exit is reported, not before: removing the
 * directory while the sandbox's mount namespace is still being torn down made each rmdir
 * detach its mounts there (~6.5 ms of the host's thread per session, --cpu-prof), on the way
 * to wait(). dispose() closes what is still open (box.close() is idempotent).
 */
export function closeWithRun(run: ManagedRun, box: SessionSandbox): void {
  aimSignalsInside(run, box);
  const close = () => {
    setImmediate(() => void box.close().catch(() => {}));
  };
  void run.wait().then(close, close);
}

/** A released session goes on without this host: its proxy stops, its directory stays. */
export function releaseWithSandbox(handle: { release?(): void | Promise<void> }, box: SessionSandbox): void {
  const release = handle.release?.bind(handle);
  handle.release = async () => {
    await release?.();
    await box.release();
  };
}

/**
 * A sandboxed run's pid is bwrap's: a signal goes to the program inside instead, as it would
 * to the program unsandboxed, and an exit bwrap reports as 128 + that signal is the signal.
 */
function aimSignalsInside(run: ManagedRun, box: SessionSandbox): void {
  const wait = run.wait.bind(run);
  const exit = wait().then((result) => ({ ...result, ...box.exitOf(result.exitCode) }));
  exit.catch(() => {});
  run.wait = () => exit;
  run.signal = async (name) => {
    if (run.pid !== undefined) box.signal(run.pid, name);
  };
}

/**
 * The sandbox of a session recovered from its record (a tmux-held one whose host died): its
 * refusals are told again and signals reach the program inside. Undefined when it cannot be
 * had (its private dir is gone: the process ended with it); the process stays confined anyway.
 */
export async function adoptRecordedSandbox(
  session: LiveSession,
  record: ProcessRecord,
  recent: RecentOutput,
): Promise<SessionSandbox | undefined> {
  const recorded = record.sandbox;
  if (!recorded) return undefined;
  const commandLine = record.shell ? [record.command, ...record.args].join(' ') : record.command;
  const box = await adoptSessionSandbox({
    dir: recorded.privateDir,
    cwd: record.cwd,
    policy: {
      write: [...recorded.write],
      denyRead: [...recorded.denyRead],
      allowDomains: recorded.allowDomains.map((d) => ({ ...d })),
      tempDir: 'private',
      network: 'allow-list-proxy',
      pidNamespace: true,
    },
    // The replayed history, delivered part included: a TIOCSTI attempt typed before the
    // recovery (echoed there) names the refusal that follows it, whichever host scans that.
    commandText: () => `${commandLine}\n${recent.text()}`,
  }).catch(() => undefined);
  if (box) session.attachSandbox(box);
  return box;
}
