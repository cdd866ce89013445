// What a model does with a terminal session through `procmux mcp`: type a command that floods
// (a build log, a test run), then wait_for its last line. The reply is gathered from the
// terminal screen poll by poll, so this is the path the tools' gatherer and the screen take,
// which no throughput case reads (they wait for the exit).
import { alternate } from '../alternate.js';
import type { BenchCase, BenchContext, Measured } from '../case.js';
import { figure, num } from '../format.js';
import { rawFlood } from '../raw.js';
import { median } from '../stats.js';
import { cpuMs, startServer } from './mcp.js';

const PAIRS = 5;

export const mcpSessionFlood: BenchCase = {
  id: 'mcp-session-flood',
  title:
    '`procmux mcp`, a bash session: write `seq 1 N; echo END` → wait_for `^END` [node-pty running the same command]',
  target: 'report',
  async run(ctx: BenchContext): Promise<Measured> {
    const lines = ctx.quick ? 500_000 : 3_000_000;
    const flood = `seq 1 ${lines}`;
    const server = await startServer(ctx.tmpDir);
    try {
      const started = await server.tool('exec', { command: 'bash --norc -i', mode: 'session' });
      const id = /(proc_[a-z2-9]{7})/.exec(started.text)?.[1];
      if (started.isError || id === undefined) throw new Error(`no session: ${started.text}`);
      const process = (args: Record<string, unknown>) => server.tool('process', { session_id: id, ...args });
      const serverCpu: number[] = [];
      const { a, b } = await alternate({
        warmup: 1,
        runs: PAIRS,
        onPair: (i) => ctx.progress(`mcp-session-flood: pair ${i + 1}/${PAIRS}`),
        a: async () => {
          const cpuBefore = cpuMs(server.pid);
          const start = performance.now();
          // The quotes keep the typed line's echo from matching the pattern.
          await process({ action: 'write', data: `${flood}; echo FLOOD""_END\r` });
          const r = await process({ action: 'wait_for', pattern: '^FLOOD_END', timeout: 300_000 });
          const took = performance.now() - start;
          serverCpu.push(cpuMs(server.pid) - cpuBefore);
          if (r.isError || !r.text.includes('Matched /^FLOOD_END/'))
            throw new Error(`no match: ${r.text.slice(-300)}`);
          return took;
        },
        b: async () => {
          const run = await rawFlood('pty', `${flood}; echo FLOOD_END`, 300_000);
          if (run.code !== 0) throw new Error(`raw flood exited with ${run.code}`);
          return run.ms;
        },
      });
      await process({ action: 'kill' });
      const ratio = median(a) / median(b);
      return {
        status: 'measured',
        procmux: figure(a, 'ms'),
        raw: figure(b, 'ms'),
        ratio: `${num(ratio)}×`,
        pass: true,
        notes: [
          `${flood} (${num(lines)} lines), 1 warm-up + ${PAIRS} counted pairs in one session; server CPU per call pair (user + system, /proc): median ${num(median(serverCpu.slice(1)))} ms`,
          'raw: node-pty running bash -c with the same command until it exits, output counted',
        ],
      };
    } finally {
      await server.close();
    }
  },
};
