import { createRequire } from 'node:module';

// xterm.js is the terminal the screen package emulates; the parity tests use it as an oracle
// for "what a terminal shows" (a devDependency only: the package itself depends on nothing).
const require = createRequire(import.meta.url);

interface BufferLine {
  readonly isWrapped: boolean;
  translateToString(trimRight?: boolean): string;
}

export interface HeadlessTerminal {
  write(data: string, callback?: () => void): void;
  readonly modes: { readonly bracketedPasteMode: boolean; readonly applicationCursorKeysMode: boolean };
  readonly buffer: {
    readonly active: { readonly length: number; getLine(y: number): BufferLine | undefined };
  };
  dispose(): void;
}

interface TerminalOptions {
  cols: number;
  rows: number;
  scrollback?: number;
  convertEol?: boolean;
  allowProposedApi?: boolean;
  logLevel?: 'off';
}

const { Terminal } = require('@xterm/headless') as {
  Terminal: new (options: TerminalOptions) => HeadlessTerminal;
};

/** Writes data to a fresh terminal and returns it once parsed. */
export async function terminalAfter(data: string, options: TerminalOptions): Promise<HeadlessTerminal> {
  const terminal = new Terminal({ allowProposedApi: true, logLevel: 'off', ...options });
  await new Promise<void>((resolve) => terminal.write(data, resolve));
  return terminal;
}

/** The terminal's text as logical lines: soft-wrapped rows joined, trailing blanks trimmed. */
export function logicalLines(terminal: HeadlessTerminal): string[] {
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const row = buffer.getLine(y);
    if (row === undefined) break;
    const next = buffer.getLine(y + 1);
    const text = row.translateToString(!next?.isWrapped);
    if (row.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  return lines.map((line) => line.trimEnd());
}
