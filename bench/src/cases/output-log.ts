// OutputLog's hot path on its own: append a 16 KiB chunk, drain it, repeat. The raw column
// copies the same 16 KiB into a 64 MiB ring buffer: the memory-bandwidth ceiling.
import { alternate } from '../alternate.js';
import type { BenchCase, Measured } from '../case.js';
import { figure, num } from '../format.js';
import { loadRegistry } from '../procmux-api.js';
import { median } from '../stats.js';

const CHUNK_BYTES = 16 * 1024;
const TARGET_GBPS = 1;

function textChunk(): string {
  const line = 'output-log bench 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMN\n';
  return line.repeat(Math.ceil(CHUNK_BYTES / line.length)).slice(0, CHUNK_BYTES);
}

export const outputLog: BenchCase = {
  id: 'output-log',
  title: 'OutputLog append + drain, 16 KiB chunks [Buffer copy loop]',
  target: `≥ ${TARGET_GBPS} GB/s`,
  async run(ctx): Promise<Measured> {
    const { OutputLog } = await loadRegistry();
    const total = ctx.quick ? 128 * 2 ** 20 : 2 ** 30;
    const count = total / CHUNK_BYTES;
    const chunk = textChunk();
    const gbPerSecond = (start: number) => total / 1e9 / ((performance.now() - start) / 1000);
    let sink = 0;
    const { a, b } = await alternate({
      warmup: 1,
      runs: 5,
      a: async () => {
        const log = new OutputLog({});
        const start = performance.now();
        for (let i = 0; i < count; i++) {
          log.append('stdout', chunk);
          sink += log.drain().stdout.length;
        }
        return gbPerSecond(start);
      },
      b: async () => {
        // Zero-filled, so every page is mapped before the clock starts.
        const ring = Buffer.alloc(64 * 2 ** 20);
        const source = Buffer.from(chunk);
        const start = performance.now();
        let offset = 0;
        for (let i = 0; i < count; i++) {
          sink += source.copy(ring, offset);
          offset = (offset + CHUNK_BYTES) % ring.length;
        }
        return gbPerSecond(start);
      },
    });
    const ratio = median(a) / median(b);
    return {
      status: 'measured',
      procmux: figure(a, 'GB/s'),
      raw: figure(b, 'GB/s'),
      ratio: `${num(ratio)}×`,
      pass: median(a) >= TARGET_GBPS,
      notes: [
        `${total / 2 ** 20} MiB per run in ${count} chunks, drain() after every append; ` +
          `1 warm-up + 5 counted pairs (${sink > 0 ? 'output consumed' : 'no output'})`,
      ],
    };
  },
};
