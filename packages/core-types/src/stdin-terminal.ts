/**
 * A terminal for a pipe child's stdin only (the supervisor's `stdin: 'terminal'`): made by
 * @procmux/pty-posix, used by the supervisor's ChildAdapter. Pass `slaveFd` as the child's
 * fd 0, then call `exited()` once the child has exited.
 */
export interface StdinTerminal {
  /** The slave end, blocking and close-on-exec in this process (libuv dup2s it to fd 0). */
  readonly slaveFd: number;
  /** e.g. /dev/pts/7 */
  readonly path: string;
  /**
   * The child has exited: this process closes its copy of the slave. It holds one until then,
   * so the terminal cannot hang up while the program runs, even when the program closed its
   * stdin (with no slave file left the master reads EIO, and closing the master then would
   * hang up the program's controlling terminal: SIGHUP to a program that was still working).
   */
  exited(): void;
  /** Bytes typed at the terminal (what a keyboard would send). */
  write(data: string | Uint8Array): void;
  /**
   * End of input: one EOT, which a canonical-mode read takes as end-of-file. The master stays
   * open: closing it would hang the terminal up (EIO on read, SIGHUP when it became the
   * child's controlling terminal, as bash makes it), not end the input.
   */
  endInput(): void;
  /**
   * What the program writes to its terminal (`/dev/tty`, where getpass, sudo and ssh prompt)
   * until the first byte is typed: nobody typed, so none of it is echo. From the first typed
   * byte on, the terminal's output mixes in the echo of the input and is dropped. Returns a
   * disposer. Optional: an opener that has no master to read may leave it out.
   */
  onOutput?(listener: (text: string) => void): () => void;
  /** Settles once the master has nothing more to read (every slave holder is gone). Optional. */
  drained?(): Promise<void>;
  /** Closes both ends (the run is over). Idempotent. */
  close(): void;
}
