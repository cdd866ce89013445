// The five bugs procmux exists to fix, each driven through the model-facing tools on the
// built packages: lost tail, surviving children, hanging prompt, timeout that leaves the
// process alive (redraws are covered by the screen and REPL suites).
import { assertNoLeakedProcesses, isAlive, waitFor, withoutUsage } from '@procmux/test-utils';
import { expect, it } from 'vitest';
import { toolsOnSessions } from '../helpers/tools-on-sessions.js';

const setup = toolsOnSessions();

it('keeps the last line of a large PTY output at exit, 20 runs out of 20', async () => {
  const { run, sessions: reg } = setup();
  for (let i = 0; i < 20; i += 1) {
    const started = await run('exec', { command: 'seq 1 100000; echo __END__', mode: 'session' });
    const id = started.data.session?.id as string;
    await run('process', { action: 'wait_for', session_id: id, exit: true, timeout: 60_000 });
    const all: string[] = [];
    let cursor = 0;
    for (;;) {
      const page = await reg.get(id).output({ cursor });
      all.push(page.data);
      if (page.eof) break;
      cursor = page.cursor;
    }
    expect(all.join('')).toMatch(/100000\r\n__END__\r\n$/);
  }
});

it('kills every child of a shell, not just the shell', async () => {
  const { run, sessions: reg } = setup();
  const started = await run('exec', {
    command: 'sleep 300 & sleep 300 & (setsid sleep 300 &) ; echo up; wait',
    mode: 'daemon',
  });
  const id = started.data.session?.id as string;
  await waitFor(
    async () => (await reg.get(id).output({ cursor: 0 })).data.includes('up'),
    20_000,
    'the tree',
  );
  const killed = await run('process', { action: 'kill', session_id: id });
  expect(killed.isError).toBe(false);
  await assertNoLeakedProcesses();
});

it('does not hang on a hidden prompt: a one_shot read is stopped (Linux) or reads EOF', async () => {
  const { run } = setup();
  const result = await run('exec', { command: 'read -s -p "Password: " secret && echo "got [$secret]"' });
  expect(result.text).not.toContain('got [');
  if (process.platform === 'linux') {
    // The kernel says it blocks reading stdin: stopped and reported, never a silent EOF.
    expect(result.isError).toBe(true);
    expect(result.text).toContain('procmux stopped it: it was waiting for input');
    expect(result.text).toContain('mode "session"');
    expect(result.text).toMatch(/Process killed by SIG(TERM|KILL)\.$/);
  } else {
    // read fails at EOF instead of waiting for a person; the exit status says so.
    expect(withoutUsage(result.text)).toMatch(/Process exited with code 1\.$/);
  }
  await assertNoLeakedProcesses();
});

it('ends the whole tree when a one_shot timeout fires', async () => {
  const { run } = setup();
  const result = await run('exec', { command: 'sleep 300 & sleep 300; echo never', timeout_ms: 500 });
  expect(result.text).not.toContain('never');
  expect(result.isError).toBe(false);
  // The exact note and state line a model reads (only the measured run time varies).
  expect(withoutUsage(result.text)).toMatch(
    /\nprocmux stopped it after (\d+ ms|\d+\.\d s): it ran past timeout_ms \(500 ms\)\. Raise timeout_ms, pass yield_ms to let it go on in the background, or start it as a daemon\.\n(Ended with it: .*\n)?Process killed by SIG(TERM|KILL)\.$/,
  );
  const session = result.data.session;
  expect(session?.state).toBe('killed');
  const pid = session?.pid;
  expect(pid).toEqual(expect.any(Number));
  expect(pid).toBeGreaterThan(1);
  expect(isAlive(pid as number)).toBe(false);
  await assertNoLeakedProcesses();
});
