// The programs the cases run. Both sides of a case run the same command line through
// `bash -c`, so the producer costs the same on each side and only the reading differs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FLOOD_LINE = 'procmux bench 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJK';

/** Exactly `bytes` bytes of 64-byte ASCII lines, written as fast as coreutils can. */
export function floodCommand(bytes: number): string {
  return `yes '${FLOOD_LINE}' | head -c ${bytes}`;
}

export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A line of coloured log output like a build tool's: 256-colour, bold and dim runs. */
function colouredLine(i: number): string {
  const stamp = `12:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
  const level = i % 7 === 0 ? '\x1b[1;33mWARN\x1b[0m' : '\x1b[1;32mINFO\x1b[0m';
  const hash = ((i * 2654435761) >>> 0).toString(16).padStart(8, '0');
  return (
    `\x1b[38;5;${16 + (i % 216)}m${stamp}\x1b[0m ${level} worker-${i % 8}: ` +
    `processed item ${i} in ${(i % 997) / 10} ms \x1b[2m(${hash})\x1b[0m\n`
  );
}

export interface ColouredWorkload {
  command: string;
  /** Bytes the program writes (before the terminal turns \n into \r\n). */
  bytes: number;
}

/**
 * A command that prints about `bytes` of coloured lines: a 1 MB block written once to
 * `dir`, then `cat` repeated, so producing the output costs next to nothing.
 */
export function colouredCommand(dir: string, bytes: number): ColouredWorkload {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < 1_000_000; i++) {
    const line = colouredLine(i);
    lines.push(line);
    size += Buffer.byteLength(line);
  }
  const file = join(dir, 'coloured-block.txt');
  writeFileSync(file, lines.join(''));
  const repeats = Math.max(1, Math.round(bytes / size));
  return {
    command: `for i in $(seq ${repeats}); do cat ${shellQuote(file)}; done`,
    bytes: repeats * size,
  };
}
