import type { Readable, Writable } from 'node:stream';
import { type HostOptions, openServerHost, resourceSessions } from './host.js';
import { createProcmuxServer } from './server.js';
import { stderrLog } from './stderr-log.js';
import { BoundedStdioServerTransport } from './stdio-transport.js';

export interface ServeOptions extends HostOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** Longest message read from stdin, in bytes (default 8 MiB); a longer one is answered with an error. */
  maxMessageBytes?: number;
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
  const { log, dispose } = options.log ? { log: options.log, dispose: () => {} } : stderrLog();
  const host = await openServerHost(options, log).catch((error: unknown) => {
    dispose();
    throw error;
  });
  const server = createProcmuxServer(host.tools, {
    sessions: resourceSessions(host),
    ...(host.view ? { secretPages: host.view } : {}),
    ...(host.sandbox ? { sandbox: { workspace: host.cwd, ...host.sandbox } } : {}),
  });
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  let closing: Promise<void> | undefined;
  const close = (reason = 'asked to stop') => {
    closing ??= (async () => {
      await host.close(reason);
      await server.close().catch(() => {});
      dispose();
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
  log(`procmux mcp: serving the exec and process tools on stdio (workspace ${host.cwd})`);
  return { closed, close };
}
