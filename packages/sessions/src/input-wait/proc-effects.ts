/** What the kernel detector reads; injected so the logic runs against fixtures anywhere. */
export interface ProcEffects {
  /** A /proc file's text, undefined when it cannot be read (gone, no permission). */
  readFile(path: string): Promise<string | undefined>;
  readlink(path: string): Promise<string | undefined>;
  /** Bytes of a process's memory (/proc/<pid>/mem), undefined when not readable. */
  readMemory(pid: number, address: bigint, length: number): Promise<Uint8Array | undefined>;
  /** The terminal's echo flag (termios ECHO), undefined when it cannot be read. */
  terminalEcho(path: string): Promise<boolean | undefined>;
  /** The names in a directory (a process's descriptors); undefined when it cannot be read. */
  listDir?(path: string): Promise<string[] | undefined>;
  /**
   * The inode of the socket a Unix socket (by inode) is connected to; undefined when it is
   * none, not known, or cannot be asked (/proc names no peer: the kernel's socket diagnostics do).
   */
  unixPeer?(inode: number): Promise<number | undefined>;
}
