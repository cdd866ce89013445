// Loads the byte streams recorded by test/fixtures/record.mjs.
import { readFileSync } from 'node:fs';

export interface FixtureMeta {
  description: string;
  command: string[];
  cols: number;
  rows: number;
  bytes: number;
  marks: Record<string, number>;
  chunks: number[];
}

export interface Fixture {
  meta: FixtureMeta;
  /** The recorded bytes, exactly. */
  bytes: Buffer;
  /** The output as the PTY delivered it: one UTF-8 string per chunk. */
  chunks: string[];
  /** Path of the .bin file. */
  path: string;
  /** The chunks before the named mark (what had arrived when that step of the recording ran). */
  before(mark: string): string[];
  /** The chunks from the named mark on. */
  from(mark: string): string[];
}

export function loadFixture(name: string): Fixture {
  const path = new URL(`./fixtures/${name}.bin`, import.meta.url).pathname;
  const bytes = readFileSync(path);
  const meta = JSON.parse(
    readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'),
  ) as FixtureMeta;
  if (bytes.length !== meta.bytes)
    throw new Error(`${name}.bin has ${bytes.length} bytes, ${name}.json says ${meta.bytes}`);
  const chunks: string[] = [];
  let offset = 0;
  for (const length of meta.chunks) {
    chunks.push(bytes.subarray(offset, offset + length).toString('utf8'));
    offset += length;
  }
  const markIndex = (mark: string): number => {
    const index = meta.marks[mark];
    if (index === undefined) throw new Error(`${name} has no mark ${mark}`);
    return index;
  };
  return {
    meta,
    bytes,
    chunks,
    path,
    before: (mark) => chunks.slice(0, markIndex(mark)),
    from: (mark) => chunks.slice(markIndex(mark)),
  };
}
