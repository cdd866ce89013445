import type {
  LeftoverProcess,
  Logger,
  ProcessEvent,
  SessionState,
  SignalName,
  StdinMode,
  StdioMode,
} from '@procmux/core-types';
import type { AgentIdentity, OwnershipScope, ProcessSessionLimits } from '@procmux/registry';
import type { SandboxOptions, SandboxPolicy, SandboxViolation } from '@procmux/sandbox-linux';
import type { Containment, ResourceLimits, ResourceUsage } from '@procmux/supervisor';
import type { LogResult, OutputPage } from '@procmux/transcript';
import type { ContainmentMode } from './backends/containment.js';
import type { ProcessPtyBackend } from './backends/pty-backend.js';
import type { ProcessSandboxBackend } from './backends/sandbox.js';
import type { DurabilityOptions } from './durable/options.js';
import type { InputWait } from './input-wait/input-watch.js';
import type { ExecutionPolicy } from './session/policy.js';
import type { TerminalRequest } from './session/terminal.js';

/**
 * `checkpoints`, `leases` and `ownerId` (this replica's unique name) turn durability on, all
 * three or none; `recoveryBackend` and `recoveryLimits` need them.
 */
export interface ProcessSessionsOptions extends DurabilityOptions {
  /** Workspace root: every session's cwd must resolve (symlinks too) inside it. */
  cwd: string;
  policy?: ExecutionPolicy;
  limits?: ProcessSessionLimits;
  /** Host sink for lifecycle events. A sink that throws is ignored, never breaks a session. */
  onEvent?: (event: ProcessEvent) => void;
  ownership?: OwnershipScope;
  identity?: AgentIdentity;
  sandbox?: ProcessSandboxBackend;
  /**
   * Runs every session in an OS sandbox (Linux: bubblewrap, see @procmux/sandbox-linux) with
   * this policy unless a start says otherwise (`sandbox` of the start request). `true`: the
   * default policy. Where no sandbox is possible, a start fails with ERR_PROCESS_UNSUPPORTED.
   */
  sandboxPolicy?: SandboxOptions | true;
  /** Undefined: the native backend. null: no PTY sessions (`pty: true` fails before spawn). */
  ptyBackend?: ProcessPtyBackend | null;
  /**
   * Where `lifetime: 'detached'` PTY sessions start when `ptyBackend` is not persistent (e.g.
   * native PTYs for everything else, a tmux backend for sessions meant to outlive the host).
   * Must declare `persistent: true`.
   */
  persistentPtyBackend?: ProcessPtyBackend;
  logger?: Logger;
  /** How long an ended session stays readable (get/list/poll/log): 30 min, up to 24 h. */
  finishedTtlMs?: number;
  /**
   * Most ended sessions kept readable at once: 100, from 1 to 10,000. Past it the sessions
   * that ended first are pruned first (their output with them), before their TTL.
   */
  maxEndedSessions?: number;
  /**
   * Where each session's output beyond `limits.maxOutputMemoryBytes` spills (default:
   * `procmux-output` in the OS temp dir). The file is unlinked once open, so nothing is left
   * there, whatever way the host ends.
   */
  outputSpillDir?: string;
  /**
   * How each session's process tree is held (see the README's containment table): 'auto'
   * (default) a cgroup per session where this host can make one (Linux), else a pid
   * namespace per session where one can be made, else the marker sweep; 'cgroup' and
   * 'pid-namespace' require that one (a start fails naming why); 'marker' makes neither.
   */
  containment?: ContainmentMode;
  /**
   * Every session's memory, process and CPU limits, enforced by its cgroup; a start's own
   * `resourceLimits` override them field by field. A limit that cannot be enforced on this
   * host fails the start with ERR_PROCESS_UNSUPPORTED naming why.
   */
  resourceLimits?: ResourceLimits;
}

export interface ProcessStartRequest {
  /** The executable, run with `args` as its argv; a shell command line with `shell: true`. */
  command: string;
  args?: readonly string[];
  /**
   * Run `command` (and `args`, appended as given) through the platform shell (shell-wrap).
   * Default false: `command` is an executable, even without `args` (no expansion of any kind).
   */
  shell?: boolean;
  cwd?: string;
  /** Extra variables merged over the host's environment. Never in a fingerprint or event. */
  env?: Readonly<Record<string, string>>;
  pty?: boolean;
  /** 'pipe' lets a failing PTY spawn fall back to pipes (stdioMode tells). Default 'fail'. */
  ptyFallback?: 'pipe' | 'fail';
  terminal?: TerminalRequest;
  lifetimeMs?: number;
  owner?: string;
  releaseOnCancel?: boolean;
  timeoutMs?: number;
  noOutputTimeoutMs?: number;
  /** PTY sessions get a terminal screen unless this is false. */
  screen?: boolean;
  /**
   * Pipe sessions: 'open' (default), 'closed' (stdin at EOF after `input`), or 'terminal'
   * (POSIX host processes: stdin is a pseudo-terminal, stdout/stderr stay pipes; closeStdin
   * sends one end-of-file; a sandbox's process gets 'open').
   */
  stdin?: StdinMode;
  /**
   * End what of the tree still runs when the process itself exits, naming it first (Linux
   * pipe sessions on this host): metadata().leftovers. A one_shot's contract; see the
   * supervisor's SpawnOptions.endLeftovers. Default false.
   */
  endLeftovers?: boolean;
  /** Written to stdin first. */
  input?: string;
  /**
   * 'host' (default): the session ends with this host on every path (dispose, exit, crash,
   * SIGTERM, SIGKILL). 'detached': it may outlive the host; only on a persistent backend
   * (`ptyBackend.persistent`), else ERR_INVALID_OPTION.
   */
  lifetime?: 'host' | 'detached';
  /**
   * This start's OS sandbox: `true` the registry's policy (or the default one), a policy of
   * its own, or `false` none. Unset: the registry's `sandboxPolicy`, if any.
   */
  sandbox?: SandboxOptions | boolean;
  /** This session's limits, over the registry's `resourceLimits` field by field. */
  resourceLimits?: ResourceLimits;
}

export interface PollResult {
  /** Screen delta for emulated sessions, else ANSI-stripped stdout. */
  stdout: string;
  stderr: string;
  state: SessionState;
  exitCode: number | null;
  signal: SignalName | null;
  droppedBytes: number;
  /**
   * The line each stream stands on after this poll, whole: its start may have come in an earlier
   * poll. On a terminal, stdout's is the cursor's line as the screen shows it ('' on an empty
   * row); on pipes, the text after the last line break. A pattern matched against it sees the
   * line a person sees (a prompt written as `>` then `>>` is `>>>`). What the line held when
   * input was last written (the prompt just answered) is left out until a line break follows:
   * it is not the program's reply.
   */
  currentLine?: { stdout: string; stderr: string };
  /**
   * True when, after this poll, a terminal session's program is on the alternate screen (vim,
   * less, htop): `stdout` is then the rows it redrew, from the first that changed, and
   * `screen()` is the whole screen. Left out otherwise.
   */
  fullScreen?: true;
  /**
   * A terminal session's program drew lines again in place (a progress display moving on,
   * procps top's next frame): `stdout`'s first lines stand for this many lines at the end of the
   * text earlier polls returned. A reader holding that text can drop those lines and append
   * `stdout` to show what the terminal shows, not every state it went through. Never for a
   * cleared or reset screen, or the alternate screen. Left out when 0.
   */
  redrawnLines?: number;
  /**
   * A terminal session's poll that brought stdout: its number among such polls of the session
   * (1, 2, ...). `redrawnLines` counts lines the poll numbered one less returned; a reader that
   * did not make that poll (two calls reading one session) does not hold them.
   */
  stdoutRead?: number;
}

export interface WaitOutcome {
  exitCode: number | null;
  signal: SignalName | null;
  state: SessionState;
}

export interface SessionMetadata {
  id: string;
  owner: string | undefined;
  command: string;
  args: readonly string[];
  /** True when `command` ran through the platform shell; false: it is the executable. */
  shell: boolean;
  cwd: string;
  fingerprint: string;
  state: SessionState;
  pid: number | undefined;
  startedAt: number;
  endedAt: number | null;
  exitCode: number | null;
  signal: SignalName | null;
  /** How the run is wired, as resolved: 'pipe' for a PTY start that fell back (see ptyFellBack). */
  stdioMode: StdioMode;
  /** Every byte the process wrote, both streams, including what the caps dropped. */
  totalBytes: number;
  /** Bytes of history still held (log, transcript, output pages). */
  retainedBytes: number;
  /** Oldest bytes the history cap (maxOutputBytes) dropped: the history is complete when 0. */
  droppedBytes: number;
  /**
   * True once any cap dropped output: the history cap, or the unread-output cap between two
   * polls (then poll's droppedBytes said how much, while the history may still hold it).
   */
  truncated: boolean;
  /** Of retainedBytes, those held in memory (at most limits.maxOutputMemoryBytes). */
  memoryBytes: number;
  /** Of retainedBytes, those in the session's spill file (paged from there). */
  diskBytes: number;
  /**
   * Why the spill file stopped taking output (e.g. `ENOSPC: no space left on device`): the
   * history older than the memory window was dropped (droppedBytes says how much). Null while
   * spilling works.
   */
  spillError: string | null;
  /** The last 2,000 characters of retained output, both streams, ANSI-stripped. */
  tail: string;
  /** Whether a PTY was asked for. */
  pty: boolean;
  /** True when a PTY was asked for (ptyFallback: 'pipe') and the run fell back to pipes. */
  ptyFellBack: boolean;
  emulated: boolean;
  backend: 'native' | 'pty-backend' | 'sandbox';
  /**
   * Why it ended, when it did not simply exit: 'overall-timeout', 'no-output-timeout',
   * 'signal', 'kill', 'lifetime', or the words of a release/unknown. Null while it lives.
   */
  endReason: string | null;
  /**
   * Null, or the program waits for input: since when, whether the terminal echoes, the prompt
   * line, and whether the kernel said so ('kernel', Linux) or a guess did ('heuristic').
   */
  input: InputWait | null;
  /**
   * Which shell ran `command` (with `shell: true`): `bash` (or its path), `sh` where the
   * target has no bash, cmd/powershell/pwsh on Windows; null for an executable run without a
   * shell, or a sandbox that does not say.
   */
  shellName: string | null;
  backendMetadata?: Record<string, unknown>;
  /** Set when the session runs in an OS sandbox: its policy and what it refused so far. */
  sandbox?: SessionSandboxState;
  /**
   * What holds the session's processes together: 'cgroup' (a kernel cgroup of its own: no
   * process can leave it, its kill is one write), 'pid-namespace' (a pid namespace of its own:
   * when the session's process ends every process in it is killed), or 'marker' (process group,
   * parent chain and the PROCMUX_TREE variable: a daemon that clears its environment escapes).
   */
  containment: Containment;
  /** The limits in force (from its cgroup); {} without any. */
  resourceLimits: ResourceLimits;
  /** What it used, from its cgroup (kept once it ended); null without a cgroup. */
  usage: ResourceUsage | null;
  /**
   * With `endLeftovers`, once ended: the processes of its tree still alive when its own
   * process exited (what ended with it, or outlived it); absent otherwise.
   */
  leftovers?: LeftoverProcess[];
}

export interface SessionSandboxState {
  policy: SandboxPolicy;
  /** The last refusals seen (at most 100), oldest first. */
  violations: SandboxViolation[];
  /** Every refusal seen, including those no longer kept. */
  violationCount: number;
}

export type { LogResult, OutputPage };
