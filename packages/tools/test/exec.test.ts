import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, waitFor, withoutUsage } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { closingHarness, type Harness, idOf, lastLine } from './helpers.js';

let h: Harness | undefined;
const harness = closingHarness(() => {
  h = undefined;
});

describe('exec one_shot', () => {
  it('ends a one_shot reply with the cpu time and peak memory where the session had a cgroup', async () => {
    h = harness();
    const r = await h.exec({ command: 'echo used' });
    const usage = / \(cpu \d+\.\d\d s, peak memory [\d.]+ [MG]iB\)$/;
    const session = h.sessions.get(idOf(r));
    if (session.metadata().containment === 'cgroup') expect(lastLine(r.text)).toMatch(usage);
    else expect(lastLine(r.text)).toBe('Process exited with code 0.');
    expect(withoutUsage(r.text)).toBe('used\n\nProcess exited with code 0.');
  });

  it('returns the output and the exit status', async () => {
    h = harness();
    const r = await h.exec({ command: 'echo hello; echo oops >&2; exit 3' });
    expect(withoutUsage(r.text)).toBe('hello\noops\n\nProcess exited with code 3.');
    expect(r.data).toMatchObject({ tool: 'exec', action: 'one_shot', backgrounded: false });
    expect(r.data.session).toMatchObject({ state: 'exited', exitCode: 3, signal: null, stdioMode: 'pipe' });
  });

  it('is the default mode, and says so when there is no output', async () => {
    h = harness();
    const r = await h.exec({ command: 'true' });
    expect(withoutUsage(r.text)).toBe('(no output)\n\nProcess exited with code 0.');
    expect(r.data.action).toBe('one_shot');
  });

  it.runIf(process.platform === 'linux')(
    'stops a command that reads its stdin and says so, rather than feeding it end of input',
    async () => {
      h = harness();
      const r = await h.tools.exec.run({ command: 'cat; echo "read done"' });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(
        'procmux stopped it: it was waiting for input with no prompt on its last line',
      );
      expect(r.text).toContain(
        "or pass the answer on its stdin (`printf 'y\\n' | COMMAND`, `COMMAND < FILE`) or another way",
      );
      expect(r.text).not.toContain('read done');
      expect(r.data.session?.state).toBe('killed');
      // As it says: the answer on its stdin.
      const piped = await h.exec({ command: `printf 'y\\n' | { cat; echo "read done"; }` });
      expect(withoutUsage(piped.text)).toBe('y\nread done\n\nProcess exited with code 0.');
    },
  );

  it.skipIf(process.platform === 'linux')(
    'starts with stdin at end of input where detection is a guess, so a command reading stdin returns',
    async () => {
      h = harness();
      const r = await h.exec({ command: 'cat; echo "read done"' });
      expect(withoutUsage(r.text)).toBe('read done\n\nProcess exited with code 0.');
    },
  );

  it('runs in a cwd inside the workspace and refuses one outside', async () => {
    h = harness();
    mkdirSync(join(h.root, 'sub'));
    const r = await h.exec({ command: 'pwd', cwd: 'sub' });
    expect(r.text.split('\n')[0]).toBe(realpathSync(join(h.root, 'sub')));
    const outside = await h.tools.exec.run({ command: 'pwd', cwd: '..' });
    expect(outside.isError).toBe(true);
    expect(outside.text).toMatch(/^Error \[ERR_PROCESS_POLICY\]: cwd "\.\." resolves outside the workspace/);
    expect(outside.data.error?.code).toBe('ERR_PROCESS_POLICY');
  });

  it('stops a command that goes quiet past noOutputTimeoutMs, and says how to avoid it', async () => {
    h = harness();
    const r = await h.exec({ command: 'echo waiting; sleep 30', no_output_timeout_ms: 300 });
    expect(r.text).toContain('waiting\n');
    expect(r.text).toContain('it printed nothing for no_output_timeout_ms (300 ms)');
    expect(r.text).toContain("run it with mode 'session'");
    expect(withoutUsage(lastLine(r.text))).toMatch(/^Process killed by SIG[A-Z]+\.$/);
    expect(r.data.session?.state).toBe('killed');
  });

  it('stops a command that runs past timeoutMs even while it prints', async () => {
    h = harness();
    const r = await h.exec({ command: 'while true; do echo tick; sleep 0.05; done', timeout_ms: 400 });
    expect(r.text).toContain('tick');
    expect(r.text).toContain('it ran past timeout_ms (400 ms)');
    expect(withoutUsage(lastLine(r.text))).toMatch(/^Process killed by SIG[A-Z]+\.$/);
  });

  it('hands a command still running after yieldMs to the background and returns its id', async () => {
    h = harness();
    const r = await h.exec({ command: 'echo started; sleep 30', yield_ms: 300 });
    const id = idOf(r);
    expect(r.data.backgrounded).toBe(true);
    expect(r.text).toContain('started\n');
    expect(r.text).toContain(`goes on in the background as session ${id}`);
    expect(r.text).toContain('its 120000 ms timeout and 60000 ms no-output timeout still apply');
    expect(lastLine(r.text)).toBe('Process still running.');
    // What the yield returned is not returned again by the next poll.
    const poll = await h.proc({ action: 'poll', session_id: id });
    expect(poll.text).toBe('(no new output)\n\nProcess still running.');
    const pid = r.data.session!.pid!;
    const kill = await h.proc({ action: 'kill', session_id: id });
    expect(lastLine(kill.text)).toMatch(/^Process killed by SIG[A-Z]+\.$/);
    expect(isAlive(pid)).toBe(false);
  });

  it('waits for a command that ends before yieldMs as usual', async () => {
    h = harness();
    const r = await h.exec({ command: 'echo quick', yield_ms: 30_000 });
    expect(r.data.backgrounded).toBe(false);
    expect(withoutUsage(r.text)).toBe('quick\n\nProcess exited with code 0.');
  });

  it('kills the command when the caller aborts', async () => {
    h = harness();
    const controller = new AbortController();
    const pending = h.tools.exec.run({ command: 'echo begun; sleep 30' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const r = await pending;
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(
      /^Cancelled: the command was killed before it finished\.\nProcess killed by SIG[A-Z]+\.$/,
    );
    expect(isAlive(r.data.session!.pid!)).toBe(false);
  });

  it('kills at once when the signal was already aborted', async () => {
    h = harness();
    const r = await h.tools.exec.run({ command: 'sleep 30' }, { signal: AbortSignal.abort() });
    expect(r.isError).toBe(true);
    expect(r.data.session?.state).toBe('killed');
  });

  it('cuts long output to the budget and the notice pages exactly the missing lines', async () => {
    h = harness({ outputBudget: 2_000 });
    const r = await h.exec({ command: 'seq 1 20000' });
    const id = idOf(r);
    expect(r.text.length).toBeLessThanOrEqual(2_000);
    expect(r.text.startsWith('1\n2\n3\n')).toBe(true);
    expect(withoutUsage(r.text).endsWith('19999\n20000\n\nProcess exited with code 0.')).toBe(true);
    const cut = r.data.cut!;
    const notice = r.text.split('\n').find((l) => l.includes('bytes left out'))!;
    const offset = Number(/offset=(\d+)/.exec(notice)![1]);
    expect(notice).toContain(`session_id=${id}`);
    expect(offset).toBe(cut.firstOmittedLine - 1);
    const page = await h.proc({ action: 'log', session_id: id, offset, limit: 3 });
    expect(page.text.split('\n').slice(0, 3)).toEqual([
      String(cut.firstOmittedLine),
      String(cut.firstOmittedLine + 1),
      String(cut.firstOmittedLine + 2),
    ]);
  });

  it('keeps the error line from the middle of a million-character output, and its notice pages the cut lines', async () => {
    h = harness();
    // 5 MB: 12,000 numbered rows, an error and a coloured row, 12,000 rows more (past the
    // 1,000,000 characters a transcript is held whole up to).
    const rows = (from: number, to: number) =>
      `seq -f 'row %06g of a flood: ${'0123456789 '.repeat(18)}' ${from} ${to}`;
    const r = await h.exec({
      command: `${rows(1, 12_000)}; echo 'Error: deep in the middle'; printf '\\033[31mred\\033[0m\\n'; ${rows(12_001, 24_000)}`,
    });
    const id = idOf(r);
    expect(r.text.length).toBeLessThanOrEqual(30_000);
    expect(r.text).toContain('[line 12,001] Error: deep in the middle');
    expect(r.data.cut).toMatchObject({ keptErrorLines: 1, lastOmittedLine: expect.any(Number) });
    const cut = r.data.cut!;
    const notice = r.text.split('\n').find((l) => l.includes('bytes left out'))!;
    expect(notice).toContain(
      `(lines ${cut.firstOmittedLine.toLocaleString('en-US')}-${cut.lastOmittedLine.toLocaleString('en-US')})`,
    );
    const offset = Number(/offset=(\d+)/.exec(notice)![1]);
    expect(offset).toBe(cut.firstOmittedLine - 1);
    // The log's lines: 24,002 in all, the cut ones exactly those the reply does not show.
    const session = h.sessions.get(id);
    expect((await session.log({ limit: 1 })).totalLines).toBe(24_002);
    expect((await session.log({ offset: 12_001, limit: 1 })).text).toBe('red');
    const around = (await session.log({ offset: offset - 1, limit: 2 })).text.split('\n');
    expect(around[0]).toBe(r.text.split('\n')[offset - 1]);
    expect(r.text).not.toContain(around[1]);
    const last = (await session.log({ limit: 1 })).text;
    expect(withoutUsage(r.text).endsWith(`${last}\n\nProcess exited with code 0.`)).toBe(true);
  });
});

describe('exec session', () => {
  it('starts a program in a terminal and returns its first screen', async () => {
    h = harness();
    const r = await h.exec({ command: 'python3 -i', mode: 'session' });
    const id = idOf(r);
    expect(r.text).toMatch(new RegExp(`^Started session ${id} \\(pid \\d+, terminal\\): python3 -i\n`));
    expect(r.text).toContain('Python 3');
    // At its prompt the REPL reads the terminal: on Linux the state line says so once checked.
    expect(lastLine(r.text)).toMatch(/^Process (still running\.|is waiting for input: ">>>"\.)$/);
    // The first screen is what came before startup went quiet; on a loaded machine the prompt
    // may come later, and then the next poll brings it.
    if (!r.text.includes('>>>')) {
      const session = h.sessions.get(id);
      await waitFor(async () => (await session.screen()).includes('>>>'), 20_000, 'the python prompt');
    }
    expect(r.data.session).toMatchObject({ stdioMode: 'pty', emulated: true, state: 'running' });
  });

  it('has no timeouts unless asked, and reports a program that ended during startup', async () => {
    h = harness();
    const r = await h.exec({ command: 'echo bye; exit 4', mode: 'session' });
    expect(r.text).toContain('bye');
    expect(withoutUsage(lastLine(r.text))).toBe('Process exited with code 4.');
  });

  it('is an error text with a way forward when no PTY is available', async () => {
    h = harness({}, { ptyBackend: null });
    const r = await h.tools.exec.run({ command: 'python3 -i', mode: 'session' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Error \[ERR_PROCESS_PTY_UNSUPPORTED\]: .*\nRun it with exec mode 'daemon'/);
  });
});

describe('exec daemon', () => {
  it('starts a program on pipes in the background and returns its first output', async () => {
    h = harness();
    const r = await h.exec({ command: 'echo ready; sleep 30', mode: 'daemon' });
    const id = idOf(r);
    expect(r.text).toMatch(
      new RegExp(`^Started daemon ${id} \\(pid \\d+, pipes\\): echo ready; sleep 30\nready\n`),
    );
    expect(lastLine(r.text)).toBe('Process still running.');
    expect(r.data.session).toMatchObject({ stdioMode: 'pipe', emulated: false });
  });

  it('says when nothing was printed during the startup wait', async () => {
    h = harness({ startupWaitMs: 100 });
    const r = await h.exec({ command: 'sleep 30', mode: 'daemon' });
    expect(r.text).toMatch(/\n\(no output in the first \d+ ms\)\n/);
  });

  // How the settle times a daemon's start is tested on a fake clock (gather.test.ts): a real
  // `sleep 0.15` between two lines came back after the 300 ms quiet on a loaded machine. Here,
  // on real processes, only what holds however slow the machine is: a silent daemon is not held
  // for the startup wait (what the reply says it waited is under it), and lines it writes at
  // once (bash's first builtins, 25 ms at most at load 8 on 2 cores) show.
  it('a silent daemon returns after a short settle, not the whole startup wait; early output still shows', async () => {
    h = harness({ startupWaitMs: 10_000 });
    const silent = await h.exec({ command: 'sleep 30', mode: 'daemon' });
    const waited = /\n\(no output in the first (?:(\d+) ms|(\d+\.\d) s)\)\n/.exec(silent.text);
    expect(waited, silent.text).not.toBeNull();
    expect(waited![1] !== undefined ? Number(waited![1]) : Number(waited![2]) * 1000).toBeLessThan(10_000);
    expect(lastLine(silent.text)).toBe('Process still running.');
    const early = await h.exec({
      command: 'echo listening on 8080; echo a; echo b; sleep 30',
      mode: 'daemon',
    });
    expect(early.text).toMatch(/\nlistening on 8080\na\nb\n/);
    expect(lastLine(early.text)).toBe('Process still running.');
  });

  it('still takes the old camelCase names for one release, as aliases of the snake_case ones', async () => {
    h = harness();
    const r = await h.exec({ command: 'echo waiting; sleep 30', noOutputTimeoutMs: 300 });
    expect(r.text).toContain('it printed nothing for no_output_timeout_ms (300 ms)');
    const id = idOf(await h.exec({ command: 'sleep 30', mode: 'daemon' }));
    const polled = await h.proc({ action: 'poll', sessionId: id });
    expect(polled.data.session?.id).toBe(id);
    const schema = h.tools.exec.parameters as { properties: Record<string, { description: string }> };
    expect(schema.properties.yieldMs!.description).toBe(
      'Old name of yield_ms, accepted until the next major release.',
    );
  });

  it('refuses yield_ms, which only a one_shot takes', async () => {
    h = harness();
    const r = await h.tools.exec.run({ command: 'sleep 1', mode: 'daemon', yield_ms: 10 });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'Error [ERR_INVALID_OPTION]: yield_ms does not apply to mode daemon; it takes command, mode, cwd, env, timeout_ms, no_output_timeout_ms, persist',
    );
    expect(h.sessions.list()).toHaveLength(0);
  });
});

describe('exec parameters', () => {
  it.each([
    [{}, 'command is required'],
    [{ command: '  ' }, 'command must not be empty'],
    [
      { command: 'ls', mode: 'background' },
      'mode must be one of one_shot, session, daemon (got "background")',
    ],
    [{ command: 'ls', timeout_ms: 0 }, 'timeout_ms must be an integer from 1 to 86400000 (got 0)'],
    [{ command: 'ls', timeoutMs: 0 }, 'timeout_ms must be an integer from 1 to 86400000 (got 0)'],
    [{ command: 'ls', timeout_ms: 5, timeoutMs: 5 }, 'pass timeout_ms or its old name timeoutMs, not both'],
    [{ command: 'ls', yield_ms: 200_000 }, 'yield_ms must be an integer from 0 to 120000 (got 200000)'],
    [{ command: 'ls', env: { A: 1 } }, 'env.A must be a string'],
    [{ command: 'ls', shell: true }, 'unknown parameter "shell" for exec; allowed: command, mode, cwd, env'],
    ['ls', 'exec takes an object of named parameters (got "ls")'],
  ])('refuses %o with an error text that says what is allowed', async (params, message) => {
    h = harness();
    const r = await h.tools.exec.run(params);
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`Error [ERR_INVALID_OPTION]: ${message}`);
    expect(r.data.error?.code).toBe('ERR_INVALID_OPTION');
  });

  it('says what to do when the session limit is reached', async () => {
    h = harness({}, { limits: { maxSessions: 1 } });
    await h.exec({ command: 'sleep 30', mode: 'daemon' });
    const r = await h.tools.exec.run({ command: 'sleep 30', mode: 'daemon' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Error \[ERR_PROCESS_LIMIT\]: .*\nKill a session you no longer need/);
  });
});
