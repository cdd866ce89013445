import type { Readable, Writable } from 'node:stream';
import type { Logger } from '@procmux/core-types';
import { createProcessSessions } from '@procmux/sessions';
import { createProcessTools } from '@procmux/tools';
import { serveView, type ViewServer } from '@procmux/view';
import type { ViewRequest } from './args.js';
import { createMemoryReturn } from './memory-return.js';
import { openPersistence } from './persistence.js';
import { createProcmuxServer } from './server.js';
import type { ResourceLimits } from './session-limit-args.js';
import type { SshRequest } from './ssh-args.js';
import { openSshBackend } from './ssh-serve.js';
import { BoundedStdioServerTransport } from './stdio-transport.js';

export interface ServeOptions {
  /** Workspace root. */
  cwd: string;
  maxSessions?: number | undefined;
  /** Ended sessions kept readable (default 100); past it the first ended are pruned first. */
  maxEndedSessions?: number | undefined;
  /** false: no PTY backend, so exec mode 'session' is refused. Default true. */
  pty?: boolean;
  stdin?: Readable;
  stdout?: Writable;
  /** Longest message read from stdin, in bytes (default 8 MiB); a longer one is answered with an error. */
  maxMessageBytes?: number;
  /** Also serve the live view page (see @procmux/view). */
  view?: ViewRequest | undefined;
  /**
   * Where records and persisted (tmux) sessions live; the CLI passes one by default (see
   * state-dir.ts). Without it nothing is remembered and exec `persist: true` is refused.
   */
  stateDir?: string | undefined;
  /** Run every session on this host over SSH (`cwd` is a path there). */
  ssh?: SshRequest | undefined;
  /** Every session's cgroup limits (--session-memory, --session-pids, --session-cpu). */
  resourceLimits?: ResourceLimits | undefined;
  /** Diagnostics (never stdout, which carries the protocol). Default: stderr. */
  log?: (line: string) => void;
}

export interface ServeHandle {
  /** Resolves once the server stopped and every session it started is dead. */
  readonly closed: Promise<void>;
  /** Stops serving and kills every session; the same promise however often it is called. */
  close(reason?: string): Promise<void>;
}

/**
 * Serves the procmux tools over MCP on stdio with one session registry. The client closing
 * stdin, the transport closing, or close() (wired to SIGINT/SIGTERM by the CLI) kills every
 * session before `closed` resolves.
 */
export async function serveStdio(options: ServeOptions): Promise<ServeHandle> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const logger: Logger = { warn: (message) => log(`procmux mcp: ${message}`) };
  // Sessions on another host are not remembered here: their records would name processes this
  // machine's tmux cannot re-attach (so persist: true is refused with --ssh).
  const persistence =
    options.stateDir !== undefined && !options.ssh
      ? openPersistence(options.stateDir, options.cwd)
      : undefined;
  if (options.ssh && options.stateDir !== undefined) {
    log('procmux mcp: with --ssh, sessions are not remembered across restarts (persist: true is refused)');
  }
  const remote = options.ssh ? await openSshBackend(options.ssh, log) : undefined;
  const sessions = createProcessSessions({
    ...persistence?.sessionsOptions,
    cwd: options.cwd,
    logger,
    ...(remote ? { sandbox: remote.sandbox, ptyBackend: remote.ptyBackend } : {}),
    ...(options.maxSessions !== undefined ? { limits: { maxSessions: options.maxSessions } } : {}),
    ...(options.pty === false ? { ptyBackend: null } : {}),
    ...(options.maxEndedSessions !== undefined ? { maxEndedSessions: options.maxEndedSessions } : {}),
    ...(options.resourceLimits !== undefined ? { resourceLimits: options.resourceLimits } : {}),
    onEvent: (event) => {
      // A person at the view took or gave back a session's keyboard: worth a line in the log.
      if (event.type === 'human_control_started' || event.type === 'human_control_ended') {
        log(`procmux mcp: ${event.type} ${event.sessionId}${event.reason ? ` (${event.reason})` : ''}`);
      }
    },
  });
  try {
    await persistence?.recover(sessions, log);
  } catch (error) {
    await sessions.dispose();
    await persistence?.close();
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
      await sessions.dispose();
      await persistence?.close();
      remote?.close();
      throw error;
    }
    log(`procmux view: ${view.url}`);
  }
  const tools = createProcessTools(sessions, {
    persistUnavailable: persistence
      ? persistence.persistUnavailable
      : 'this server was started without a state directory (procmux mcp --state-dir)',
  });
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
  const server = createProcmuxServer(tools);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = (reason = 'asked to stop') => {
    closing ??= (async () => {
      log(
        `procmux mcp: ${reason}; killing every session${persistence ? ' not persisted (persisted ones keep running)' : ''}`,
      );
      await view?.close();
      // Persisted sessions are left running for the next server (sessions.dispose skips them).
      await sessions.dispose();
      await persistence?.close();
      remote?.close();
      await server.close().catch(() => {});
      resolveClosed();
    })();
    return closing;
  };
  stdin.once('end', () => void close('the client closed stdin'));
  stdin.once('close', () => void close('stdin closed'));
  // A client gone without closing our stdin shows up as a broken pipe on stdout.
  stdout.on('error', () => void close('stdout is gone'));
  server.onclose = () => void close('the connection closed');
  await server.connect(
    new BoundedStdioServerTransport(stdin, stdout, {
      log,
      ...(options.maxMessageBytes !== undefined ? { maxMessageBytes: options.maxMessageBytes } : {}),
    }),
  );
  log(`procmux mcp: serving the exec and process tools on stdio (workspace ${sessions.cwd})`);
  return { closed, close };
}
