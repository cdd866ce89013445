// Just enough of the WebAssembly binary format to write the one small function simd.ts needs,
// so the program is readable source here instead of a committed binary. Names follow the
// specification's text format; see https://webassembly.github.io/spec/core/binary/.

export type Code = readonly number[];

/** Unsigned LEB128. */
export function u32(value: number): number[] {
  const out: number[] = [];
  let rest = value >>> 0;
  do {
    const low = rest & 0x7f;
    rest >>>= 7;
    out.push(rest === 0 ? low : low | 0x80);
  } while (rest !== 0);
  return out;
}

/** Signed LEB128 (for i32.const). */
export function s32(value: number): number[] {
  const out: number[] = [];
  let rest = value | 0;
  for (;;) {
    const low = rest & 0x7f;
    rest >>= 7;
    if ((rest === 0 && (low & 0x40) === 0) || (rest === -1 && (low & 0x40) !== 0)) {
      out.push(low);
      return out;
    }
    out.push(low | 0x80);
  }
}

const simd = (op: number): Code => [0xfd, ...u32(op)];

export const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  if: [0x04, 0x40],
  end: [0x0b],
  br: (depth: number): Code => [0x0c, ...u32(depth)],
  brIf: (depth: number): Code => [0x0d, ...u32(depth)],
  return: [0x0f],
  localGet: (index: number): Code => [0x20, ...u32(index)],
  localSet: (index: number): Code => [0x21, ...u32(index)],
  i32Const: (value: number): Code => [0x41, ...s32(value)],
  i32GeU: [0x4f],
  i32Popcnt: [0x69],
  i32Add: [0x6a],
  // v128.load with alignment 2^4 and offset 0.
  v128Load: [...simd(0x00), 4, 0],
  i8x16Splat: simd(0x0f),
  i8x16Eq: simd(0x23),
  i8x16LtU: simd(0x26),
  i8x16GtU: simd(0x28),
  v128AndNot: simd(0x4f),
  v128Or: simd(0x50),
  v128AnyTrue: simd(0x53),
  i8x16Bitmask: simd(0x64),
} as const;

export const type = { i32: 0x7f, v128: 0x7b } as const;

const section = (id: number, content: Code): Code => [id, ...u32(content.length), ...content];
const name = (text: string): Code => [...u32(text.length), ...Buffer.from(text, 'ascii')];

export interface ExportedFunction {
  name: string;
  params: readonly number[];
  result: number;
  /** Locals after the parameters: [count, type] runs. */
  locals: readonly (readonly [number, number])[];
  body: Code;
}

/** A module of one function and one memory of `pages` 64 KiB pages, exported as "memory". */
export function moduleBytes(fn: ExportedFunction, pages: number): Uint8Array<ArrayBuffer> {
  const locals = fn.locals.flatMap(([count, kind]) => [...u32(count), kind]);
  const code = [...u32(fn.locals.length), ...locals, ...fn.body, ...op.end];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, ...u32(fn.params.length), ...fn.params, 1, fn.result]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, ...u32(pages)]),
    ...section(7, [2, ...name(fn.name), 0, 0, ...name('memory'), 2, 0]),
    ...section(10, [1, ...u32(code.length), ...code]),
  ]);
}
