// The log a server writes when its embedder gives none: this process's stderr. A client that
// died takes that pipe with it, and a failed write there is an 'error' on process.stderr that,
// unheard, is an uncaught error: a host embedding serveStdio crashed (exit 1) when its client
// went, where it should stop as asked (the CLI listens for it itself). The listener is the
// server's while it logs there, removed when it has closed, so the host's own handling of
// stderr is untouched after.

/** The default log, and how to stop listening for its stream's errors. */
export interface StderrLog {
  readonly log: (line: string) => void;
  dispose(): void;
}

export function stderrLog(stream: NodeJS.WritableStream = process.stderr): StderrLog {
  // A lost log line is lost: the closed stdin or stdout is what stops the server.
  const ignore = () => {};
  stream.on('error', ignore);
  return {
    log: (line) => {
      stream.write(`${line}\n`);
    },
    dispose: () => {
      stream.off('error', ignore);
    },
  };
}
