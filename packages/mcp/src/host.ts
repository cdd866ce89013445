// What a procmux MCP server holds whatever its transport: one session registry (with
// persistence, --ssh, --view), the tools over it, and the one way to close it all.
import type { Logger } from '@procmux/core-types';
import { ensureSandboxSupport } from '@procmux/sandbox-linux';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import { createProcessTools, type ProcessTools } from '@procmux/tools';
import { serveView, type ViewServer } from '@procmux/view';
import { createMemoryReturn } from './memory-return.js';
import { openPersistence } from './persistence.js';
import type { ServeOptions } from './serve.js';
import { openSshBackend } from './ssh-serve.js';

/** The registry and tools of one server, and how it stops. */
export interface ServerHost {
  readonly sessions: ProcessSessions;
  readonly tools: ProcessTools;
  readonly cwd: string;
  /** Kills every session (persisted ones keep running) and closes what the host opened. */
  close(reason: string): Promise<void>;
}

/** Opens the registry, persistence, --ssh and --view of a server, then its tools. */
export async function openServerHost(
  options: Omit<ServeOptions, 'stdin' | 'stdout' | 'maxMessageBytes'>,
  log: (line: string) => void,
): Promise<ServerHost> {
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
  if (options.sandbox) await ensureSandboxSupport();
  const sandboxPolicy = options.sandbox && {
    write: options.sandbox.write,
    allowDomains: options.sandbox.allowDomains,
    denyRead: options.stateDir !== undefined ? [options.stateDir] : [],
  };
  const sessions = createProcessSessions({
    ...persistence?.sessionsOptions,
    cwd: options.cwd,
    logger,
    ...(remote ? { sandbox: remote.sandbox, ptyBackend: remote.ptyBackend } : {}),
    ...(sandboxPolicy ? { sandboxPolicy } : {}),
    ...(options.maxSessions !== undefined ? { limits: { maxSessions: options.maxSessions } } : {}),
    ...(options.pty === false ? { ptyBackend: null } : {}),
    ...(options.maxEndedSessions !== undefined ? { maxEndedSessions: options.maxEndedSessions } : {}),
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
    // The job probe is a file on this host; a shell over SSH would not find it.
    reportBackgroundJobs: process.platform !== 'win32' && !options.ssh,
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
  return {
    sessions,
    tools,
    cwd: sessions.cwd,
    async close(reason) {
      log(
        `procmux mcp: ${reason}; killing every session${persistence ? ' not persisted (persisted ones keep running)' : ''}`,
      );
      await view?.close();
      // Persisted sessions are left running for the next server (sessions.dispose skips them).
      await sessions.dispose();
      await persistence?.close();
      remote?.close();
    },
  };
}
