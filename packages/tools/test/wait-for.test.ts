import { waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { closingHarness, type Harness, idOf, lastLine } from './helpers.js';

let h: Harness | undefined;
const harness = closingHarness(() => {
  h = undefined;
});

/** A daemon started without the startup read, so all its output is still new. */
async function daemon(command: string): Promise<string> {
  h ??= harness({ startupWaitMs: 0 });
  return idOf(await h.exec({ command, mode: 'daemon' }));
}

describe('wait_for pattern', () => {
  it('waits for a line that comes later and returns everything seen meanwhile', async () => {
    const id = await daemon('echo booting; sleep 0.3; echo "listening on port 4000"; echo after; sleep 30');
    const r = await h!.proc({ action: 'wait_for', session_id: id, pattern: 'listening on port (\\d+)' });
    expect(r.text).toMatch(/^booting\nlistening on port 4000\n/);
    expect(r.text).toContain('Matched /listening on port (\\d+)/: "listening on port 4000".');
    expect(lastLine(r.text)).toBe('Process still running.');
    expect(r.data.wait).toMatchObject({ outcome: 'matched', match: 'listening on port 4000' });
  });

  it('counts output that arrived before the call but was not read yet', async () => {
    const id = await daemon('echo ready; sleep 30');
    await waitFor(() => h!.sessions.get(id).metadata().totalBytes > 0, 10_000, 'the output to arrive');
    const r = await h!.proc({ action: 'wait_for', session_id: id, pattern: '^ready$' });
    expect(r.data.wait?.outcome).toBe('matched');
  });

  it('matches on stderr too', async () => {
    const id = await daemon('sleep 0.2; echo "Error: port in use" >&2; sleep 30');
    const r = await h!.proc({ action: 'wait_for', session_id: id, pattern: 'Error: .*' });
    expect(r.data.wait?.match).toBe('Error: port in use');
    expect(r.text).toContain('[stderr]\nError: port in use');
  });

  it('stops when the process ends before the pattern appears', async () => {
    const id = await daemon('echo nope; exit 2');
    const r = await h!.proc({ action: 'wait_for', session_id: id, pattern: 'never' });
    expect(r.text).toBe('nope\n\nThe process ended before /never/ appeared.\nProcess exited with code 2.');
    expect(r.data.wait?.outcome).toBe('exited');
  });

  it('times out, saying so, when the pattern does not appear', async () => {
    const id = await daemon('echo something; sleep 30');
    const r = await h!.proc({ action: 'wait_for', session_id: id, pattern: 'never', timeout: 300 });
    expect(r.text).toBe(
      'something\n\nTimed out after 300 ms: /never/ did not appear.\nProcess still running.',
    );
    expect(r.data.wait?.outcome).toBe('timeout');
  });

  it('says, on a timeout, that the program waits at a prompt the pattern does not match', async () => {
    h = harness();
    const id = idOf(await h.exec({ command: 'python3 -q -i', mode: 'session' }));
    await h.proc({ action: 'wait_for', session_id: id, input: true, timeout: 10_000 });
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '\\$ $', timeout: 300 });
    expect(r.data.wait?.outcome).toBe('timeout');
    expect(r.text).toContain(
      'Timed out after 300 ms: /\\$ $/ did not appear.\nIt waits for input now, at a line /\\$ $/ does not match: wait_for input: true returns once it waits, whatever its prompt.\nProcess is waiting for input: ">>>".',
    );
    // A busy program gets no such note (the timeout above already says what did not appear).
    const busy = await daemon('echo something; sleep 30');
    const quiet = await h.proc({ action: 'wait_for', session_id: busy, pattern: 'never', timeout: 300 });
    expect(quiet.text).not.toContain('It waits for input');
  });

  it('waits for a REPL result after paste and submit', async () => {
    h = harness();
    const id = idOf(await h.exec({ command: 'python3 -i', mode: 'session' }));
    await h.proc({ action: 'paste', session_id: id, text: 'print("sum", sum(range(10)))' });
    await h.proc({ action: 'submit', session_id: id });
    const r = await h.proc({ action: 'wait_for', session_id: id, pattern: '^sum \\d+$' });
    expect(r.data.wait?.match).toBe('sum 45');
  });
});

describe('wait_for idle_ms and exit', () => {
  it('returns once the output has been quiet for idle_ms', async () => {
    const id = await daemon('for i in 1 2 3; do echo $i; sleep 0.1; done; sleep 30');
    const r = await h!.proc({ action: 'wait_for', session_id: id, idle_ms: 700, timeout: 10_000 });
    expect(r.text).toBe('1\n2\n3\n\nThe output was quiet for 700 ms.\nProcess still running.');
    expect(r.data.wait?.outcome).toBe('quiet');
  });

  it('times out when the output never goes quiet', async () => {
    const id = await daemon('while true; do echo x; sleep 0.05; done');
    const r = await h!.proc({ action: 'wait_for', session_id: id, idle_ms: 500, timeout: 1_000 });
    expect(r.text).toContain('Timed out after 1000 ms: the output never went quiet for 500 ms.');
  });

  it('waits for the exit', async () => {
    const id = await daemon('sleep 0.3; echo bye; exit 5');
    const r = await h!.proc({ action: 'wait_for', session_id: id, exit: true });
    expect(r.text).toBe('bye\n\nProcess exited with code 5.');
    expect(r.data.wait?.outcome).toBe('exited');
  });

  it('times out when the process does not end', async () => {
    const id = await daemon('sleep 30');
    const r = await h!.proc({ action: 'wait_for', session_id: id, exit: true, timeout: 200 });
    expect(r.text).toBe(
      '(no new output)\n\nTimed out after 200 ms: the process has not ended.\nProcess still running.',
    );
  });

  it('stops when the caller aborts', async () => {
    const id = await daemon('sleep 30');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const r = await h!.tools.process.run(
      { action: 'wait_for', session_id: id, exit: true },
      { signal: controller.signal },
    );
    expect(r.data.wait?.outcome).toBe('cancelled');
    expect(r.text).toContain('Cancelled while waiting.');
  });
});

describe('wait_for never stalls the server', () => {
  it('answers a concurrent list while ^(a+)+$ runs against 27 a\'s and a "!"', async () => {
    // A backtracking engine takes ~10 s on this input (doubling per "a"), and blocks every
    // other call meanwhile; the linear-time one is done at once and the wait just times out.
    const id = await daemon(`printf '${'a'.repeat(27)}!\\n'; sleep 30`);
    const order: string[] = [];
    const waiting = h!.tools.process
      .run({ action: 'wait_for', session_id: id, pattern: '^(a+)+$', timeout: 5_000 })
      .then((r) => {
        order.push('wait_for');
        return r;
      });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const list = await h!.proc({ action: 'list' });
    order.push('list');
    expect(list.text).toContain(id);
    const r = await waiting;
    expect(order).toEqual(['list', 'wait_for']);
    expect(r.data.wait?.outcome).toBe('timeout');
    expect(r.text).toContain(`${'a'.repeat(27)}!`);
  });

  it('accepts JavaScript \\u escapes and finds the match', async () => {
    const id = await daemon(`printf 'caf\\303\\251 open\\n'; sleep 30`);
    const r = await h!.proc({ action: 'wait_for', session_id: id, pattern: 'caf\\u00e9 \\w+' });
    expect(r.data.wait).toMatchObject({ outcome: 'matched', match: 'café open' });
  });
});

describe('wait_for parameters', () => {
  it.each([
    [
      {},
      'wait_for needs at least one of pattern (a regular expression), fail_pattern, input: true, exit: true, idle_ms (a quiet period) or port (a loopback TCP port) (got none)',
    ],
    [{ input: false }, 'input must be true'],
    [{ port: 70_000 }, 'port must be an integer from 1 to 65535 (got 70000)'],
    [{ exit: false }, 'exit must be true (wait for the process to end); leave it out otherwise'],
    [{ pattern: '' }, 'pattern must not be empty'],
    [
      { pattern: '(unclosed' },
      'pattern "(unclosed" cannot be used: missing closing ): `(unclosed`. Patterns run on a linear-time engine',
    ],
    [{ pattern: '(a)\\1' }, 'pattern "(a)\\\\1" cannot be used: invalid escape sequence: `\\1`'],
    [
      { pattern: 'x(?=y)' },
      'pattern "x(?=y)" cannot be used: invalid or unsupported Perl syntax: `(?=`. Patterns run on a linear-time engine (RE2 syntax): character classes, \\d \\w \\s \\b, quantifiers, groups, alternation, (?i) work; backreferences (\\1, \\k<name>) and lookaround ((?=, (?!, (?<=, (?<!) do not.',
    ],
    [{ pattern: 'a'.repeat(5_000) }, 'pattern is 5,000 characters; at most 4096'],
    [{ idle_ms: 5_000, timeout: 1_000 }, 'idle_ms (5000) must be less than timeout (1000 ms)'],
    [{ exit: true, timeout: 2_000_000 }, 'timeout must be an integer from 1 to 1800000 (got 2000000)'],
  ])('refuses %o with an error text', async (params, message) => {
    const id = await daemon('sleep 30');
    const r = await h!.tools.process.run({ action: 'wait_for', session_id: id, ...params });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`Error [ERR_INVALID_OPTION]: ${message}`);
  });
});
