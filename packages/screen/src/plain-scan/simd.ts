// The plain-text scan as a WebAssembly SIMD loop: 16 characters a step. Under a PTY flood
// the regex it replaces (/[^\t\n\r\x20-\x7e]/) and the line-feed count after it were the
// largest single cost a session added per chunk, ~5 µs per 4 KiB read; this is ~0.8 µs,
// the copy into its memory included (issue 31).
import { moduleBytes, op, type } from './wasm.js';

const PAGES = 4;
const PAD = 16;

// Locals: the byte count (the parameter), the position, the line feeds, the 16 bytes at hand.
const LENGTH = 0;
const AT = 1;
const FEEDS = 2;
const BYTES = 3;

const splat = (byte: number) => [...op.i32Const(byte), ...op.i8x16Splat];
const lanesEqual = (byte: number) => [...op.localGet(BYTES), ...splat(byte), ...op.i8x16Eq];

// scan(length): -1 if a byte is outside tab, LF, CR and 0x20–0x7e; else the number of LFs.
// The bytes past `length` up to the next 16 are spaces (the caller writes them).
const body = [
  ...op.block,
  ...op.loop,
  ...op.localGet(AT),
  ...op.localGet(LENGTH),
  ...op.i32GeU,
  ...op.brIf(1),
  ...op.localGet(AT),
  ...op.v128Load,
  ...op.localSet(BYTES),
  // Controls (< 0x20) but tab, LF and CR; and DEL or anything above (non-ASCII in UTF-8).
  ...op.localGet(BYTES),
  ...splat(0x20),
  ...op.i8x16LtU,
  ...lanesEqual(0x09),
  ...lanesEqual(0x0a),
  ...op.v128Or,
  ...lanesEqual(0x0d),
  ...op.v128Or,
  ...op.v128AndNot,
  ...op.localGet(BYTES),
  ...splat(0x7e),
  ...op.i8x16GtU,
  ...op.v128Or,
  ...op.v128AnyTrue,
  ...op.if,
  ...op.i32Const(-1),
  ...op.return,
  ...op.end,
  ...lanesEqual(0x0a),
  ...op.i8x16Bitmask,
  ...op.i32Popcnt,
  ...op.localGet(FEEDS),
  ...op.i32Add,
  ...op.localSet(FEEDS),
  ...op.localGet(AT),
  ...op.i32Const(16),
  ...op.i32Add,
  ...op.localSet(AT),
  ...op.br(0),
  ...op.end,
  ...op.end,
  ...op.localGet(FEEDS),
];

/** The scan, for texts of at most `capacity` characters. */
export interface SimdScan {
  readonly capacity: number;
  /** -1 if `text` holds anything but printable ASCII, tab, CR and LF; else its line feeds. */
  scan(text: string): number;
}

/** Undefined where WebAssembly or its SIMD is not available (--jitless, an old engine). */
export function createSimdScan(): SimdScan | undefined {
  if (typeof WebAssembly !== 'object') return undefined;
  const bytes = moduleBytes(
    {
      name: 'scan',
      params: [type.i32],
      result: type.i32,
      locals: [
        [2, type.i32],
        [1, type.v128],
      ],
      body,
    },
    PAGES,
  );
  if (!WebAssembly.validate(bytes)) return undefined;
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes));
  const scan = exports.scan as (length: number) => number;
  const memory = new Uint8Array((exports.memory as WebAssembly.Memory).buffer);
  const capacity = memory.length - PAD;
  const into = memory.subarray(0, capacity);
  const encoder = new TextEncoder();
  return {
    capacity,
    scan(text) {
      const { read, written } = encoder.encodeInto(text, into);
      // Only a character of more than one byte leaves text unread within the capacity.
      if (read < text.length) return -1;
      memory.fill(0x20, written, written + PAD);
      return scan(written);
    },
  };
}
