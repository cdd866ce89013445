// renderNew() must cost the same whatever the history: it may not re-render 5,000 lines of
// scrollback to find what is new. Screen A holds 5,000 lines of history, screen B 50; each
// then gets one new coloured line per call. The "raw" column is screen B.
import { alternate } from '../alternate.js';
import type { BenchCase, Measured } from '../case.js';
import { figure, num } from '../format.js';
import { loadScreen, type ScreenModule } from '../procmux-api.js';
import { median } from '../stats.js';

const COLS = 120;
const ROWS = 30;
const SCROLLBACK = 5_000;
const MAX_RATIO = 1.5;

function line(i: number): string {
  return `\x1b[36m${String(i).padStart(6)}\x1b[0m build step ${i}: compiled module-${i % 97}.ts in ${i % 89} ms\r\n`;
}

/** Mean microseconds per renderNew() after feeding one line, on a screen with `history` lines. */
async function costPerCall(screens: ScreenModule, history: number, calls: number): Promise<number> {
  const screen = new screens.TerminalScreen({ cols: COLS, rows: ROWS, scrollback: SCROLLBACK });
  try {
    let filler = '';
    for (let i = 0; i < history + ROWS; i++) filler += line(i);
    screen.feed(filler);
    await screen.renderNew();
    const start = performance.now();
    for (let i = 0; i < calls; i++) {
      screen.feed(line(history + ROWS + i));
      await screen.renderNew();
    }
    return ((performance.now() - start) * 1000) / calls;
  } finally {
    screen.dispose?.();
  }
}

export const renderNew: BenchCase = {
  id: 'render-new',
  title: '`renderNew()` with 5,000 lines of scrollback vs 50 lines',
  target: `cost ratio ≤ ${MAX_RATIO}`,
  async run(ctx): Promise<Measured> {
    const screens = await loadScreen();
    const calls = ctx.quick ? 20 : 50;
    const { a, b } = await alternate({
      warmup: 1,
      runs: 5,
      a: () => costPerCall(screens, SCROLLBACK, calls),
      b: () => costPerCall(screens, 50, calls),
    });
    const ratio = median(a) / median(b);
    return {
      status: 'measured',
      procmux: figure(a, 'µs/call'),
      raw: figure(b, 'µs/call'),
      ratio: `${num(ratio)}×`,
      pass: ratio <= MAX_RATIO,
      notes: [
        `procmux column: ${SCROLLBACK} lines of history; raw column: 50 lines; ${COLS}×${ROWS}; ` +
          `${calls} calls per run (feed one line, await renderNew()); fresh screens each run; 1 warm-up + 5 counted pairs`,
      ],
    };
  },
};
