// Shared helpers for the tests that run real programs on a PTY.
import { waitFor } from '@procmux/test-utils';
import { type PosixPtyOptions, PtyAdapter } from '../src/index.js';

/** A started adapter whose output is being collected. */
export interface Collected {
  pty: PtyAdapter;
  output(): string;
  /** Resolves once the output contains `text`. */
  until(text: string | RegExp, what?: string): Promise<string>;
}

export async function start(options: PosixPtyOptions): Promise<Collected> {
  const pty = await PtyAdapter.create(options);
  let out = '';
  pty.onStdout((chunk) => {
    out += chunk;
  });
  return {
    pty,
    output: () => out,
    until: async (text, what) => {
      const seen = () => (typeof text === 'string' ? out.includes(text) : text.test(out));
      await waitFor(seen, 20_000, what ?? `output ${String(text)}`);
      return out;
    },
  };
}

/** Runs a program to its end; returns what it printed and how it ended. */
export async function run(options: PosixPtyOptions) {
  const collected = await start(options);
  const result = await collected.pty.wait();
  return { ...collected, result, out: collected.output() };
}
