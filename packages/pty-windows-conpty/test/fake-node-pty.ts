// A stand-in for node-pty on Windows: records what the adapter asks of it and lets a test
// play the program's side (output, exit). Injected through the adapter's `nodePty` option,
// the same parameter production code leaves to the real import.
import type { ConptyDisposable, ConptyModule, ConptySpawnOptions, ConptyTerminal } from '../src/index.js';

export interface SpawnCall {
  file: string;
  args: string | string[];
  options: ConptySpawnOptions;
}

export class FakeTerminal implements ConptyTerminal {
  readonly pid = 4242;
  readonly writes: (string | Buffer)[] = [];
  readonly resizes: [number, number][] = [];
  kills = 0;
  #data = new Set<(data: string) => void>();
  #exit = new Set<(event: { exitCode: number; signal?: number }) => void>();

  onData(listener: (data: string) => void): ConptyDisposable {
    this.#data.add(listener);
    return { dispose: () => this.#data.delete(listener) };
  }

  onExit(listener: (event: { exitCode: number; signal?: number }) => void): ConptyDisposable {
    this.#exit.add(listener);
    return { dispose: () => this.#exit.delete(listener) };
  }

  write(data: string | Buffer): void {
    this.writes.push(data);
  }

  resize(cols: number, rows: number): void {
    this.resizes.push([cols, rows]);
  }

  kill(): void {
    this.kills += 1;
  }

  /** The program prints. */
  print(data: string): void {
    for (const listener of this.#data) listener(data);
  }

  /** The program ends (node-pty on Windows gives no signal). */
  exit(exitCode: number): void {
    for (const listener of this.#exit) listener({ exitCode });
  }

  get dataListeners(): number {
    return this.#data.size;
  }
}

export class FakeNodePty implements ConptyModule {
  readonly calls: SpawnCall[] = [];
  readonly terminal = new FakeTerminal();
  failWith: Error | undefined;

  spawn(file: string, args: string | string[], options: ConptySpawnOptions): ConptyTerminal {
    this.calls.push({ file, args, options });
    if (this.failWith) throw this.failWith;
    return this.terminal;
  }
}
