// Issue 16 through the model-facing tools on the built packages: output a model can trust
// (the whole PTY history paged, footers that name what was shown, ends that are told, fast
// ends of shells and silent daemons, one naming style).

import { withoutUsage } from '@procmux/test-utils';
import { expect, it } from 'vitest';
import { toolsOnSessions } from '../helpers/tools-on-sessions.js';

const setup = toolsOnSessions();

it('pages a PTY session from its first line, footer by footer, with no line skipped', async () => {
  const { run } = setup({ outputBudget: 4_000 });
  const started = await run('exec', { command: 'seq 1 100000', mode: 'session' });
  const id = started.data.session?.id as string;
  expect(id.length).toBeLessThanOrEqual(12);
  await run('process', { action: 'wait_for', session_id: id, exit: true, timeout: 60_000 });
  const head = await run('process', { action: 'log', session_id: id, offset: 0, limit: 3 });
  expect(head.text.split('\n').slice(0, 3)).toEqual(['1', '2', '3']);
  expect(head.data.lines?.total).toBe(100_000);
  // Follow the footers from deep in the history: each page starts where the last one ended.
  let call = { offset: 12_585, limit: 5_000 };
  let expected = 12_586;
  for (let i = 0; i < 3; i += 1) {
    const page = await run('process', { action: 'log', session_id: id, ...call });
    expect(page.text.length).toBeLessThanOrEqual(4_000);
    const { count, next } = page.data.lines!;
    const lines = page.text.split('\n').slice(0, count);
    expect(lines[0]).toBe(String(expected));
    expect(lines.at(-1)).toBe(String(expected + count - 1));
    expect(page.text).toContain(`offset=${next!.offset} limit=${next!.limit}`);
    expected += count;
    call = next!;
  }
});

it('tells once that a daemon ended unseen; a silent daemon returns at once; old names still work', async () => {
  const { run } = setup();
  const started = await run('exec', { command: 'echo one; sleep 0.8', mode: 'daemon' });
  const id = started.data.session?.id as string;
  expect(started.text).toContain('Process still running.');
  await run('process', { action: 'wait_for', session_id: id, idle_ms: 1_500, timeout: 10_000 });
  const polled = await run('process', { action: 'poll', sessionId: id });
  if (polled.data.alreadyDelivered) {
    expect(polled.text).toContain('already delivered by an earlier call, not new:)\none\n');
  }
  expect(withoutUsage(polled.text)).toMatch(/Process exited with code 0\.$/);
  const again = await run('process', { action: 'poll', session_id: id });
  expect(withoutUsage(again.text)).toBe('(no new output)\n\nProcess exited with code 0.');

  const silent = await run('exec', { command: 'sleep 30', mode: 'daemon', timeout_ms: 60_000 });
  expect(silent.text).toMatch(/\(no output in the first \d+ ms\)/);
});

it('ends an interactive shell by hanging up its terminal, and says what ended it', async () => {
  const { run } = setup();
  const started = await run('exec', { command: 'bash --norc --noprofile -i', mode: 'session' });
  const id = started.data.session?.id as string;
  // exec's first screen may already hold the prompt; wait_for only sees output after it.
  if (!/[$#] ?$/m.test(started.text.split('\n\n')[0]!))
    await run('process', { action: 'wait_for', session_id: id, pattern: '[$#] ?$', timeout: 10_000 });
  const killed = await run('process', { action: 'kill', session_id: id });
  expect(killed.text).toMatch(/Process killed by SIGHUP\.$/);
});
