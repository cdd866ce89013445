// What a procmux MCP server holds whatever its transport: one session registry (with
// persistence, --ssh, --view), the tools over it, and the one way to close it all.
import type { Logger, ProcessEvent } from '@procmux/core-types';
import { ensureSandboxSupport } from '@procmux/sandbox-linux';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import { createProcessTools, type ProcessTools } from '@procmux/tools';
import { serveView, type ViewServer } from '@procmux/view';
import { type Adoption, replicasOf, startAdoption } from './adoption.js';
import type { SandboxRequest, ViewRequest } from './args.js';
import { createMemoryReturn } from './memory-return.js';
import { openPersistence, type Persistence } from './persistence.js';
import { type RecoverRetry, retryUnreachable } from './recover-retry.js';
import type { ResourceSessions } from './resources.js';
import type { ResourceLimits } from './session-limit-args.js';
import type { SshRequest } from './ssh-args.js';
import { openSshBackend } from './ssh-serve.js';
import type { StoreRequest } from './store-args.js';

/** What a server holds whatever its transport (ServeOptions adds the stdio streams). */
export interface HostOptions {
  /** Workspace root. */
  cwd: string;
  maxSessions?: number | undefined;
  /** Ended sessions kept readable (default 100); past it the first ended are pruned first. */
  maxEndedSessions?: number | undefined;
  /** false: no PTY backend, so exec mode 'session' is refused. Default true. */
  pty?: boolean;
  /** Also serve the live view page (see @procmux/view). */
  view?: ViewRequest | undefined;
  /**
   * Where records and persisted (tmux) sessions live; the CLI passes one by default (see
   * state-dir.ts). Without it nothing is remembered and exec `persist: true` is refused.
   */
  stateDir?: string | undefined;
  /** Run every session on this host over SSH (`cwd` is a path there). */
  ssh?: SshRequest | undefined;
  /**
   * Run every session in an OS sandbox (@procmux/sandbox-linux): write only the workspace, the
   * `write` paths and a private temp dir; the state dir and the user's secrets hidden; network
   * only to `allowDomains`. A host without one fails here with ERR_PROCESS_UNSUPPORTED.
   */
  sandbox?: SandboxRequest | undefined;
  /** Where records and leases live (`--store`); default: SQLite in `stateDir`. */
  store?: StoreRequest | undefined;
  /** How long a lease lasts unrenewed (`--lease-ttl`), in ms. */
  leaseTtlMs?: number | undefined;
  /** Every session's cgroup limits (--session-memory, --session-pids, --session-cpu). */
  resourceLimits?: ResourceLimits | undefined;
  /** Diagnostics (never stdout, which carries the protocol). Default: stderr. */
  log?: (line: string) => void;
}

/** The registry and tools of one server, and how it stops. */
export interface ServerHost {
  readonly sessions: ProcessSessions;
  readonly tools: ProcessTools;
  readonly cwd: string;
  /** What every session runs inside (`--sandbox`), as asked. */
  readonly sandbox: SandboxRequest | undefined;
  /** The live view (`--view`), whose one-time pages take a person's answer to a hidden prompt. */
  readonly view: ViewServer | undefined;
  /** Hears every session event (start, end, control) until the disposer runs. */
  onSessionEvent(listener: (event: ProcessEvent) => void): () => void;
  /** Kills every session (persisted ones keep running) and closes what the host opened. */
  close(reason: string): Promise<void>;
}

/** Opens the registry, persistence, --ssh and --view of a server, then its tools. */
export async function openServerHost(options: HostOptions, log: (line: string) => void): Promise<ServerHost> {
  const listeners = new Set<(event: ProcessEvent) => void>();
  const logger: Logger = { warn: (message) => log(`procmux mcp: ${message}`) };
  const remote = options.ssh ? await openSshBackend(options.ssh, log) : undefined;
  if (options.sandbox) await ensureSandboxSupport();
  const sandboxPolicy = options.sandbox && {
    write: options.sandbox.write,
    allowDomains: options.sandbox.allowDomains,
    denyRead: options.stateDir !== undefined ? [options.stateDir] : [],
  };
  // With --ssh, persisted sessions live on a tmux server on that host, so any host reaching it
  // (and sharing the store) can re-attach to them.
  let persistence: Persistence | undefined;
  try {
    persistence =
      options.stateDir !== undefined
        ? await openPersistence(
            options.stateDir,
            options.cwd,
            {
              store: options.store,
              leaseTtlMs: options.leaseTtlMs,
              logger,
              persistentBackend: remote
                ? async () => {
                    const { createSshTmuxBackend } = await import('@procmux/backend-ssh');
                    return createSshTmuxBackend(remote, { workspace: options.cwd });
                  }
                : undefined,
            },
            { sandboxed: options.sandbox !== undefined },
          )
        : undefined;
  } catch (error) {
    remote?.close();
    throw error;
  }
  const sessions = createProcessSessions({
    ...persistence?.sessionsOptions,
    cwd: options.cwd,
    logger,
    ...(remote ? { sandbox: remote.sandbox, ptyBackend: remote.ptyBackend } : {}),
    ...(sandboxPolicy ? { sandboxPolicy } : {}),
    ...(options.maxSessions !== undefined ? { limits: { maxSessions: options.maxSessions } } : {}),
    ...(options.pty === false ? { ptyBackend: null } : {}),
    ...(options.maxEndedSessions !== undefined ? { maxEndedSessions: options.maxEndedSessions } : {}),
    ...(options.resourceLimits !== undefined ? { resourceLimits: options.resourceLimits } : {}),
    onEvent: (event) => {
      for (const listener of listeners) listener(event);
      // A person at the view took or gave back a session's keyboard: worth a line in the log.
      if (event.type === 'human_control_started' || event.type === 'human_control_ended') {
        log(`procmux mcp: ${event.type} ${event.sessionId}${event.reason ? ` (${event.reason})` : ''}`);
      }
    },
  });
  let adoption: Adoption | undefined;
  let retry: RecoverRetry | undefined;
  try {
    const report = await persistence?.recover(sessions, log);
    // A lone server looks again for what it could not look up; a standby's ticks do that.
    if (persistence && !persistence.shared && report) retry = retryUnreachable(sessions, report, log);
    if (persistence?.shared && report) {
      const checkpoints = persistence.sessionsOptions.checkpoints!;
      adoption = startAdoption({
        sessions,
        checkpoints,
        // A twentieth of the TTL (100-500 ms): a lapsed lease is taken soon after it lapsed,
        // leaving most of the extra second to the re-attach (one SSH exec, 0.8 s measured on a
        // loaded 2-core machine); the cost is one acquire per foreign record each time.
        intervalMs: Math.min(500, Math.max(100, Math.floor((options.leaseTtlMs ?? 15_000) / 20))),
        log,
      });
      adoption.absorb(report, await replicasOf(checkpoints));
    }
  } catch (error) {
    adoption?.dispose();
    await retry?.dispose();
    await sessions.dispose();
    await persistence?.close();
    remote?.close();
    throw error;
  }
  let view: ViewServer | undefined;
  if (options.view) {
    try {
      view = await serveView(sessions, {
        port: options.view.port,
        host: options.view.host,
        allowNonLoopback: true,
        log,
      });
    } catch (error) {
      adoption?.dispose();
      await retry?.dispose();
      await sessions.dispose();
      await persistence?.close();
      remote?.close();
      throw error;
    }
    log(`procmux view: ${view.url}`);
  }
  const tools = createProcessTools(sessions, {
    // What a one_shot leaves running is named from this host's /proc: not for a shell over SSH.
    reportBackgroundJobs: process.platform === 'linux' && !options.ssh,
    persistUnavailable: persistence
      ? persistence.persistUnavailable
      : 'this server was started without a state directory (procmux mcp --state-dir)',
    // A port is looked for on this host's loopback (or a sandbox's network): not over SSH.
    ...(options.ssh
      ? {
          portsUnavailable: `the sessions run on ${options.ssh.host} over SSH, and this host cannot see its ports`,
        }
      : {}),
  });
  if (persistence) persistFirst(tools.exec, persistence);
  if (adoption) {
    adoption.wrap(tools.exec);
    adoption.wrap(tools.process);
  }
  const memory = createMemoryReturn(() => sessions.list().map((s) => s.id));
  for (const tool of [tools.exec, tools.process]) {
    const run = tool.run.bind(tool);
    tool.run = async (params, context) => {
      try {
        return await run(params, context);
      } finally {
        memory.afterCall();
      }
    };
  }
  return {
    sessions,
    tools,
    view,
    cwd: sessions.cwd,
    sandbox: options.sandbox,
    onSessionEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close(reason) {
      log(
        `procmux mcp: ${reason}; killing every session${persistence ? ' not persisted (persisted ones keep running)' : ''}`,
      );
      adoption?.dispose();
      await retry?.dispose();
      await view?.close();
      // Persisted sessions are left running for the next server (sessions.dispose skips them).
      await sessions.dispose();
      await persistence?.close();
      remote?.close();
    },
  };
}

/** A `persist: true` start opens (makes) the state dir first, so its record is written there. */
function persistFirst(tool: ProcessTools['exec'], persistence: Persistence): void {
  const run = tool.run.bind(tool);
  tool.run = async (params, context) => {
    const persist =
      typeof params === 'object' && params !== null && (params as { persist?: unknown }).persist;
    if (persist === true && persistence.persistUnavailable === undefined) await persistence.ensureDir();
    return run(params, context);
  };
}

/** The registry as resources see it, with the host's session events. */
export function resourceSessions(host: ServerHost): ResourceSessions {
  return {
    get: (id, owner) => host.sessions.get(id, owner),
    list: (owner) => host.sessions.list(owner),
    onSessionEvent: (listener) => host.onSessionEvent(listener),
  };
}
