/** Environment variables as Node passes them to a child: unset keys may be present as undefined. */
export type Env = Readonly<Record<string, string | undefined>>;

/** The shells procmux knows how to drive on Windows. */
export type WindowsShell = 'cmd' | 'powershell' | 'pwsh';

/** What to hand to `child_process.spawn(file, args, { windowsVerbatimArguments })`. */
export interface WrappedCommand {
  /** The shell executable: a name looked up on PATH by the spawner, or a path. */
  file: string;
  args: string[];
  /**
   * True for cmd: the arguments are already quoted for cmd and must reach it unescaped
   * (libuv would otherwise backslash-escape the quotes, which cmd does not understand).
   */
  windowsVerbatimArguments: boolean;
  /** Which shell was chosen: the POSIX shell's name or path, or a `WindowsShell`. */
  shell: string;
}

/** Tells whether an executable called `name` is found on the PATH of `env`. */
export type HasExecutable = (name: string, env: Env) => boolean;
