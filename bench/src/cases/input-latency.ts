// Waiting-for-input detection latency: a prompt printed → metadata().input showing it, while
// someone waits (watchInput, as a poll or wait_for holds it). The program is bash in a PTY
// reading with `read -p` in a loop, each prompt numbered so every round is a new state. There
// is no raw baseline: nothing else answers this question; the target is absolute.
import type { BenchCase, Measured } from '../case.js';
import { figure } from '../format.js';
import { BENCH_MARKER_ENV, runMarker } from '../processes.js';
import { loadSessions } from '../procmux-api.js';
import { median } from '../stats.js';
import { withTimeout } from '../timing.js';

const TARGET_MS = 100;
const SAMPLE_TIMEOUT_MS = 10_000;
const LOOP = 'i=0; while true; do i=$((i+1)); read -r -p "ask $i> " x; done';

type WatchEvent = { type: string; data?: string; input?: { prompt: string } | null };

interface InputSession {
  input(data: string): Promise<void>;
  kill(): Promise<unknown>;
  watch(listener: (event: WatchEvent) => void): () => void;
  watchInput(): () => void;
}

export const inputLatency: BenchCase = {
  id: 'input-latency',
  title: 'waiting-for-input: prompt printed → metadata().input set (kernel, bash read -p in a PTY) [none]',
  target: `≤ ${TARGET_MS} ms median`,
  async run(ctx): Promise<Measured> {
    if (process.platform !== 'linux') throw new Error('kernel-grounded detection is Linux only');
    const { createProcessSessions } = await loadSessions();
    const runs = ctx.quick ? 20 : 50;
    const sessions = createProcessSessions({ cwd: ctx.tmpDir });
    try {
      const session = (await sessions.start({
        shell: true,
        command: LOOP,
        pty: true,
        env: { [BENCH_MARKER_ENV]: runMarker() },
      })) as unknown as InputSession;
      const printed = new Map<number, number>();
      const seen = new Map<number, number>();
      let text = '';
      let wake: (() => void) | undefined;
      const stopWatch = session.watch((event) => {
        const now = performance.now();
        if (event.type === 'output' && event.data) {
          text = (text + event.data).slice(-200);
          for (const m of text.matchAll(/ask (\d+)> /g)) {
            const n = Number(m[1]);
            if (!printed.has(n)) printed.set(n, now);
          }
        }
        if (event.type === 'input' && event.input) {
          const n = Number(/ask (\d+)>/.exec(event.input.prompt)?.[1]);
          if (!seen.has(n)) seen.set(n, now);
          wake?.();
        }
      });
      const stopInput = session.watchInput();
      const samples: number[] = [];
      try {
        for (let n = 1; n <= runs + 5; n++) {
          await withTimeout(
            new Promise<void>((resolve) => {
              wake = () => seen.has(n) && resolve();
              wake();
            }),
            SAMPLE_TIMEOUT_MS,
            `prompt ${n} to be seen waiting`,
          );
          if (n > 5) samples.push(seen.get(n)! - printed.get(n)!);
          await session.input('\r');
        }
      } finally {
        stopInput();
        stopWatch();
        await session.kill();
      }
      const mid = median(samples);
      return {
        status: 'measured',
        procmux: figure(samples, 'ms'),
        raw: null,
        ratio: `${mid.toFixed(1)} ms`,
        pass: mid <= TARGET_MS,
        notes: [
          `${runs} prompts after 5 warm-up ones; measured from the prompt's output event to the input event`,
        ],
      };
    } finally {
      await sessions.dispose();
    }
  },
};
