import { assertNoLeakedProcesses, startBusyLoops } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { pickInterpreter, runDemo } from '../src/demo.js';
import { nodeInterpreter, PYTHON } from '../src/demo-script.js';

afterAll(async () => {
  await assertNoLeakedProcesses();
});

describe('runDemo', () => {
  it('runs to the end 20 times in a row beside two busy loops, each finding the prompt by wait_for', async () => {
    const busy = startBusyLoops(2);
    const failed: string[] = [];
    try {
      for (let run = 0; run < 20; run++) {
        let out = '';
        const code = await runDemo({ write: (t) => (out += t), interpreter: PYTHON });
        // The prompt is always waited for, whether exec's reply showed it or not.
        const prompts = out.match(
          /^│ .*Matched \/\^>>>\/(: ">>>"| on the current line \(already shown\))\.$/gm,
        );
        if (code !== 0 || prompts?.length !== 2) failed.push(`run ${run + 1}:\n${out}`);
      }
    } finally {
      await busy.stop();
    }
    expect(failed).toEqual([]);
  }, 600_000);

  it('falls back to Node where there is no python3, with the same steps', async () => {
    let out = '';
    const code = await runDemo({ write: (t) => (out += t), interpreter: nodeInterpreter(process.execPath) });
    expect(code, out).toBe(0);
    expect(out).toContain('(node for the interactive parts)');
    expect(out).toMatch(/^│ 832040$/m);
    expect(out).toMatch(/Script execution was interrupted by `SIGINT`/);
    expect(out).toMatch(/^│ still here: 55$/m);
    expect(out).toMatch(/^│ listening on port \d+$/m);
    expect(out).toMatch(/^│ GET \/ 200$/m);
    expect(out).toContain('Demo finished: every process has ended.');
  });

  it('exits 1 and kills everything when a step does not show what it should', async () => {
    let out = '';
    const broken = { ...PYTHON, repl: 'echo "no REPL here"' };
    const code = await runDemo({ write: (t) => (out += t), interpreter: broken });
    expect(code).toBe(1);
    expect(out).toContain('Demo stopped: expected a running session. Every session is killed now.');
  });

  it('colours calls and headings for a terminal', async () => {
    let out = '';
    const broken = { ...PYTHON, repl: 'exit 1' };
    await runDemo({ write: (t) => (out += t), interpreter: broken, color: true });
    expect(out).toContain('\x1b[1;33m▶ exec');
    expect(out).toContain('\x1b[1;31mDemo stopped');
  });

  it('uses python3 when it runs here', () => {
    expect(pickInterpreter().name).toBe('python');
  });
});
