// The slice of node-pty's public API (typings/node-pty.d.ts) this package uses on Windows,
// written out so a fake can stand in for it in tests on any platform.

/** Options of node-pty's `spawn` as this package passes them. */
export interface ConptySpawnOptions {
  name: string;
  cols: number;
  rows: number;
  cwd: string;
  env: Record<string, string>;
  useConpty: true;
}

/** node-pty's IDisposable. */
export interface ConptyDisposable {
  dispose(): void;
}

/** node-pty's IPty on Windows. */
export interface ConptyTerminal {
  readonly pid: number;
  onData(listener: (data: string) => void): ConptyDisposable;
  onExit(listener: (event: { exitCode: number; signal?: number }) => void): ConptyDisposable;
  write(data: string | Buffer): void;
  resize(cols: number, rows: number): void;
  /** Closes the pseudoconsole; every process attached to it ends. */
  kill(signal?: string): void;
}

/** The node-pty module: `spawn(file, args, options)`. A string `args` is used verbatim. */
export interface ConptyModule {
  spawn(file: string, args: string | string[], options: ConptySpawnOptions): ConptyTerminal;
}

/** True when `value` looks like node-pty (has `spawn`). */
export function isConptyModule(value: unknown): value is ConptyModule {
  return (
    typeof value === 'object' && value !== null && typeof (value as { spawn?: unknown }).spawn === 'function'
  );
}
