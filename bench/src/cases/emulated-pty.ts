// An emulated PTY session: coloured lines through the supervisor into a TerminalScreen,
// ending with a render, against node-pty feeding @xterm/headless in the same process and
// reading its buffer at the end.
import xterm from '@xterm/headless';
import { alternate } from '../alternate.js';
import type { BenchCase, Measured } from '../case.js';
import { figure, num } from '../format.js';
import { expectSuccess, supervisedRun } from '../procmux.js';
import { loadScreen, loadSupervisor, quietLogger } from '../procmux-api.js';
import { rawPty } from '../raw.js';
import { median } from '../stats.js';
import { colouredCommand } from '../workload.js';

const { Terminal } = xterm;
const COLS = 120;
const ROWS = 30;
const SCROLLBACK = 5_000;
const RUN_TIMEOUT_MS = 300_000;

/** Resolves once xterm has parsed everything written before this call. */
function flushed(term: InstanceType<typeof Terminal>): Promise<void> {
  return new Promise((resolve) => term.write('', resolve));
}

/** What a raw caller does to read the result: every line of scrollback and screen as text. */
function readBuffer(term: InstanceType<typeof Terminal>): string {
  const buffer = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? '');
  return lines.join('\n');
}

export const emulatedPty: BenchCase = {
  id: 'emulated-pty',
  title: 'emulated PTY session, 20 MB of coloured lines [node-pty → @xterm/headless write, same process]',
  target: '≥ 0.8× raw',
  async run(ctx): Promise<Measured> {
    const { TerminalScreen } = await loadScreen();
    const { ProcessSupervisor } = await loadSupervisor();
    const workload = colouredCommand(ctx.tmpDir, ctx.quick ? 2e6 : 20e6);
    const supervisor = new ProcessSupervisor({ logger: quietLogger() });
    const mbPerSecond = (start: number) => workload.bytes / 1e6 / ((performance.now() - start) / 1000);
    try {
      const { a, b } = await alternate({
        warmup: 1,
        runs: 5,
        onPair: (i) => ctx.progress(`emulated-pty: pair ${i + 1}/5`),
        a: async () => {
          const screen = new TerminalScreen({ cols: COLS, rows: ROWS, scrollback: SCROLLBACK });
          try {
            const start = performance.now();
            const exit = await supervisedRun(
              supervisor,
              { command: workload.command, mode: 'pty', cols: COLS, rows: ROWS, screen, maxCaptureBytes: 0 },
              RUN_TIMEOUT_MS,
            );
            await screen.renderNew();
            const rate = mbPerSecond(start);
            expectSuccess(exit, 'procmux emulated PTY run');
            return rate;
          } finally {
            screen.dispose?.();
          }
        },
        b: async () => {
          const term = new Terminal({
            cols: COLS,
            rows: ROWS,
            scrollback: SCROLLBACK,
            allowProposedApi: true,
          });
          try {
            const start = performance.now();
            const code = await rawPty(
              workload.command,
              { onData: (chunk) => term.write(chunk) },
              RUN_TIMEOUT_MS,
              {
                cols: COLS,
                rows: ROWS,
              },
            );
            await flushed(term);
            readBuffer(term);
            const rate = mbPerSecond(start);
            expectSuccess(code, 'raw emulated PTY run');
            return rate;
          } finally {
            term.dispose();
          }
        },
      });
      const ratio = median(a) / median(b);
      return {
        status: 'measured',
        procmux: figure(a, 'MB/s'),
        raw: figure(b, 'MB/s'),
        ratio: `${num(ratio)}×`,
        pass: ratio >= 0.8,
        notes: [
          `${num(workload.bytes / 1e6)} MB of coloured lines per run, ${COLS}×${ROWS}, ` +
            `${SCROLLBACK} lines scrollback, 1 warm-up + 5 counted pairs; ends after the final render`,
        ],
      };
    } finally {
      await supervisor.cancelAll();
    }
  },
};
