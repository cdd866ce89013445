import type { Readable, Writable } from 'node:stream';

/** The process the CLI runs in: streams, cwd and signal hooks, injectable for tests. */
export interface CliProcess {
  /** The MCP protocol's input. */
  stdin: Readable;
  /** The MCP protocol's output, or the demo's. */
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable;
  cwd(): string;
  env: NodeJS.ProcessEnv;
  /** Calls `handler` on SIGINT, SIGTERM and SIGHUP; returns a disposer. */
  onStopSignal(handler: (signal: NodeJS.Signals) => void): () => void;
  /** Calls `handler` on an uncaught exception or unhandled rejection; returns a disposer. */
  onCrash(handler: (error: unknown) => void): () => void;
}
