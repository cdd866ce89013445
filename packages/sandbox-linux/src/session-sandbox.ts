// One session's sandbox: its private directory (filter, denied file, proxy socket, temp dir),
// its proxy, the wrapped argv and environment, and the violations seen. Closed once.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { basename, isAbsolute, join } from 'node:path';
import { invalidOption, ProcmuxError } from '@procmux/core-types';
import { chooseForwarder } from './forwarder-choice.js';
import { heldLaunchFile } from './launch-file.js';
import {
  type Forwarder,
  type LaunchSpec,
  type LaunchTarget,
  launchArgs,
  launchEnv,
  type Outer,
  type SandboxFiles,
  sandboxDefaultEnv,
  sandboxEnv,
} from './launcher.js';
import { builtSandboxInit } from './native.js';
import type { SandboxPolicy } from './policy.js';
import { type SandboxProxy, startProxy } from './proxy.js';
import { seccompProgram } from './seccomp.js';
import { exitOfSignalled, sandboxedProgramPid } from './signals.js';
import { checkSandboxSupport } from './support.js';
import {
  hostRealPath,
  LineScanner,
  REFUSAL_WORDS,
  type SandboxViolation,
  type ScanContext,
  type ScanEffects,
  scanLine,
} from './violations.js';
import { findExecutableOnPath } from './which.js';

/** Most violations a session keeps (the oldest go first); every one is still an event. */
export const MAX_KEPT_VIOLATIONS = 100;

export interface WrapOptions {
  /**
   * Start through the outer shell, not this host's held sandbox-launch: for a launch this
   * process does not spawn itself (a tmux pane's command). Default false.
   */
  outerShell?: boolean;
}

export interface SessionSandbox {
  readonly policy: SandboxPolicy;
  /**
   * The session's private directory on the host (`procmux-sandbox-*` under the temp dir): what
   * a host-death watchdog or a persistent backend removes once the process is gone.
   */
  readonly dir: string;
  /**
   * What to spawn instead of `target`, with `cwd` as its working directory inside and `env`
   * the program's environment (the sandbox's own variables, `env` here, go over it). Spawn
   * the returned file and args with the returned environment: the host's PATH, and `env`
   * under names nothing outside the sandbox reads (launcher.ts: a caller's BASH_ENV, PATH or
   * LD_PRELOAD must not act on the host's side of the launch).
   */
  wrap(
    target: LaunchTarget,
    cwd: string,
    env: Readonly<Record<string, string>>,
    options?: WrapOptions,
  ): LaunchSpec;
  /** The sandbox's own variables (TMPDIR, the proxy's), which wrap() puts over the program's. */
  readonly env: Record<string, string>;
  /** Feeds output (either stream) to the violation scanner. */
  scan(stream: 'stdout' | 'stderr', chunk: string): void;
  /** Called for every violation seen, in order. */
  onViolation(listener: (violation: SandboxViolation) => void): void;
  /** Violations seen, oldest first (the last MAX_KEPT_VIOLATIONS). */
  readonly violations: readonly SandboxViolation[];
  /** Total violations seen, including those no longer kept. */
  readonly violationCount: number;
  /**
   * Sends `name` to the program inside the sandbox whose bwrap is `hostPid` (not to bwrap,
   * which ignores INT and QUIT and would end the whole sandbox on others).
   */
  signal(hostPid: number, name: NodeJS.Signals): void;
  /** The program's end as bwrap reports it: 128 + N after signal N sent here is that signal. */
  exitOf(exitCode: number | null): { exitCode: number | null; signal: NodeJS.Signals | null };
  /** Stops the proxy and removes the private directory (the temp dir with it). */
  close(): Promise<void>;
  /**
   * The host lets the process go on without it (a released tmux-held session): stops the
   * proxy, keeps the private directory, which the process still uses (its backend removes it
   * when the process ends).
   */
  release(): Promise<void>;
}

let support: Promise<void> | undefined;

/** Checks support once per process (a bwrap probe, ~5 ms), then reuses the answer. */
export function ensureSandboxSupport(): Promise<void> {
  support ??= checkSandboxSupport({
    platform: process.platform,
    arch: process.arch,
    sandboxInit: builtSandboxInit(process.arch),
    which: (name) => findExecutableOnPath(name, process.env.PATH),
    run: (file, args) =>
      new Promise((resolve) => {
        const child = spawn(file, [...args], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', (error) => resolve({ code: null, stderr: error.message }));
        child.on('close', (code) => resolve({ code, stderr }));
      }),
  });
  return support;
}

export interface OpenOptions {
  policy: SandboxPolicy;
  /** The session's cwd on the host (relative paths in error lines resolve there). */
  cwd: string;
  commandText(): string;
  /**
   * The forwarder to the proxy inside: the package's sandbox-init (the default; where it was
   * not built a start is ERR_PROCESS_UNSUPPORTED) or socat, used only when asked for: it does
   * not refuse the program's unix sockets (sandbox-init stacks a filter that does).
   */
  forwarder?: 'sandbox-init' | 'socat';
}

/** Prepares a session's sandbox; ERR_PROCESS_UNSUPPORTED when this host has none. */
export async function openSessionSandbox(options: OpenOptions): Promise<SessionSandbox> {
  await ensureSandboxSupport();
  const forwarder = forwarderFor(options.forwarder);
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'procmux-sandbox-')));
  const files = filesIn(dir);
  try {
    writeFileSync(files.filter, seccompProgram(process.arch));
    writeFileSync(files.denied, '');
    chmodSync(files.denied, 0o000);
    mkdirSync(files.tmp, { mode: 0o700 });
    return await sandboxIn(dir, options, forwarder);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

export interface AdoptOptions extends OpenOptions {
  /** The private directory the sandbox was made with (`SessionSandbox.dir` of its first host). */
  dir: string;
}

/**
 * The sandbox of a process another host started (a tmux-held session recovered after its
 * host died): its refusals are told again from here, its signals reach the program inside, and
 * its proxy listens again on the socket the sandbox's forwarder connects to. The policy is the
 * one the sandbox was made with (its record): the process is confined by the sandbox itself,
 * which a wrong policy here could not widen, only misreport.
 */
export async function adoptSessionSandbox(options: AdoptOptions): Promise<SessionSandbox> {
  const { dir } = options;
  if (!isAbsolute(dir) || !basename(dir).startsWith('procmux-sandbox-') || dir.split('/').includes('..'))
    throw invalidOption(
      'dir',
      'an absolute path whose last part starts with "procmux-sandbox-", without ".."',
      {
        value: dir,
      },
    );
  const files = filesIn(dir);
  // The dead host's socket: nothing listens on it, and listen() refuses an existing path.
  rmSync(files.proxySocket, { force: true });
  // Its forwarder already runs inside; nothing is launched with this handle.
  return sandboxIn(options.dir, options, undefined);
}

function forwarderFor(asked: OpenOptions['forwarder']): Forwarder {
  return chooseForwarder(asked, {
    arch: process.arch,
    sandboxInit: builtSandboxInit(process.arch),
    which: (name) => findExecutableOnPath(name, process.env.PATH),
  });
}

function filesIn(dir: string): SandboxFiles {
  return {
    filter: join(dir, 'filter.bpf'),
    denied: join(dir, 'denied'),
    proxySocket: join(dir, 'proxy.sock'),
    tmp: join(dir, 'tmp'),
  };
}

/** The handle over a private directory that holds the sandbox's files. */
async function sandboxIn(
  dir: string,
  options: OpenOptions,
  forwarder: Forwarder | undefined,
): Promise<SessionSandbox> {
  const { policy } = options;
  const files = filesIn(dir);
  const listeners: ((v: SandboxViolation) => void)[] = [];
  const kept: SandboxViolation[] = [];
  let count = 0;
  const record = (violation: SandboxViolation) => {
    count += 1;
    kept.push(violation);
    if (kept.length > MAX_KEPT_VIOLATIONS) kept.shift();
    for (const listener of listeners) listener(violation);
  };
  const proxy: SandboxProxy = await startProxy(files.proxySocket, policy.allowDomains, (target) =>
    record({ kind: 'network', target, at: Date.now() }),
  );
  const context: ScanContext = { policy, cwd: options.cwd, commandText: options.commandText };
  const effects: ScanEffects = { hostPidExists, realPath: hostRealPath(realpathSync), isSocket };
  const scanners = {
    stdout: new LineScanner(
      (line) => scanLine(line, context, effects, Date.now()).forEach(record),
      REFUSAL_WORDS,
    ),
    stderr: new LineScanner(
      (line) => scanLine(line, context, effects, Date.now()).forEach(record),
      REFUSAL_WORDS,
    ),
  };
  let closed: Promise<void> | undefined;
  let released: Promise<void> | undefined;
  const stop = () => {
    released ??= (async () => {
      scanners.stdout.flush();
      scanners.stderr.flush();
      await proxy.close();
    })();
    return released;
  };
  const sent = new Set<number>();
  return {
    policy,
    dir,
    env: sandboxEnv(files),
    wrap: (target, cwd, env, wrapOptions = {}) => {
      if (forwarder === undefined)
        throw new ProcmuxError(
          'ERR_PROCESS_UNSUPPORTED',
          'an adopted sandbox launches nothing: its process runs already (open a sandbox with openSessionSandbox to start one)',
        );
      const program = { ...sandboxDefaultEnv(files), ...env, ...sandboxEnv(files) };
      return {
        ...launchArgs(target, policy, files, cwd, kindOf, forwarder, outerFor(wrapOptions)),
        env: launchEnv(program, process.env.PATH),
      };
    },
    scan: (stream, chunk) => scanners[stream].feed(chunk),
    onViolation: (listener) => listeners.push(listener),
    get violations() {
      return kept;
    },
    get violationCount() {
      return count;
    },
    signal(hostPid, name) {
      const pid = sandboxedProgramPid(hostPid, childrenOf, nameOf);
      if (pid === undefined) return;
      sent.add(constants.signals[name]);
      try {
        process.kill(pid, name);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    },
    exitOf(exitCode) {
      const exit = exitOfSignalled(exitCode, sent);
      return { exitCode: exit.exitCode, signal: exit.signal === null ? null : signalName(exit.signal) };
    },
    close() {
      closed ??= (async () => {
        await stop();
        // Synchronous on purpose (~3 ms of the host's thread, --cpu-prof): an async rm still
        // running when the host exits (procmux mcp shutting down) left the directory behind.
        rmSync(dir, { recursive: true, force: true });
      })();
      return closed;
    },
    release: stop,
  };
}

let bash: string | null | undefined;
let bwrap: string | null | undefined;

/**
 * sandbox-launch where this host holds it (one exec where the shell is a bash start: ~2 ms
 * here), else bash (the descriptor-closing prologue then runs in it), else /bin/sh.
 */
function outerFor(options: WrapOptions): Outer {
  bwrap ??= findExecutableOnPath('bwrap', process.env.PATH) ?? null;
  const launcher = options.outerShell === true || bwrap === null ? undefined : heldLaunchFile();
  if (launcher !== undefined && bwrap !== null) return { kind: 'launcher', path: launcher, bwrap };
  bash ??= findExecutableOnPath('bash', process.env.PATH) ?? null;
  return { kind: 'shell', path: bash ?? '/bin/sh' };
}

function kindOf(path: string): 'dir' | 'file' {
  return statSync(path).isDirectory() ? 'dir' : 'file';
}

function isSocket(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isSocket() === true;
}

function hostPidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function nameOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trimEnd();
  } catch {
    return undefined;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function signalName(signal: number): NodeJS.Signals | null {
  const entry = Object.entries(constants.signals).find(([, n]) => n === signal);
  return entry ? (entry[0] as NodeJS.Signals) : null;
}
