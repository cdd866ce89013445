// Small Node programs for process-driving tests that must run on every OS: no shell, no
// POSIX tools, only the Node that runs the tests.
import { fileURLToPath } from 'node:url';

/**
 * lines [N] [K]: N lines then exit K · ignore-term: ignores SIGTERM/SIGINT · tree: root,
 * child, detached grandchild · answer: reads a line and answers · prompt-loop: REPL-like
 * "> " loop · flood [BYTES]: that many bytes of output.
 */
export type FixtureName = 'lines' | 'ignore-term' | 'tree' | 'answer' | 'prompt-loop' | 'flood';

/** Absolute path of a fixture script. */
export function fixturePath(name: FixtureName): string {
  return fileURLToPath(new URL(`../fixtures/${name}.mjs`, import.meta.url));
}

/** `{ file, args }` that runs a fixture with this Node, as the supervisor takes it. */
export function fixture(name: FixtureName, ...args: string[]): { file: string; args: string[] } {
  return { file: process.execPath, args: [fixturePath(name), ...args] };
}

/** Pids a fixture announced as `<name> <pid>` lines (tree, ignore-term). */
export function announcedPids(output: string): Map<string, number> {
  const pids = new Map<string, number>();
  for (const match of output.matchAll(/^(\w+) (\d+)\r?$/gm)) pids.set(match[1]!, Number(match[2]));
  return pids;
}
