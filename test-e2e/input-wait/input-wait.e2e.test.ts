import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { ProcessEvent } from '@procmux/core-types';
import { createProcessSessions, type InputWait, type ProcessSession } from '@procmux/sessions';
import { assertNoLeakedProcesses, testTmpdir } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';

// Kernel-grounded detection reads /proc: Linux only. Elsewhere the heuristic has its own unit tests.
const linux = process.platform === 'linux';
const cwd = mkdtempSync(join(testTmpdir(), 'procmux-input-'));
const events: ProcessEvent[] = [];
const sessions = createProcessSessions({ cwd, onEvent: (e) => events.push(e) });

afterAll(async () => {
  await sessions.dispose();
  await assertNoLeakedProcesses();
});

/** Waits (generous deadline, against hangs only) until metadata().input is set. */
async function waiting(session: ProcessSession, deadlineMs = 20_000): Promise<InputWait> {
  const stop = session.watchInput();
  try {
    const deadline = Date.now() + deadlineMs;
    for (;;) {
      const input = session.metadata().input;
      if (input) return input;
      if (!session.metadata().state.match(/running|starting/))
        throw new Error(`ended: ${session.metadata().state}`);
      if (Date.now() > deadline) throw new Error(`never waiting; output:\n${(await session.log()).text}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    stop();
  }
}

/** Watches for `ms` and returns every state seen that was waiting. */
async function neverWaiting(session: ProcessSession, ms = 3_000): Promise<InputWait[]> {
  const seen: InputWait[] = [];
  const stop = session.watchInput();
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const input = await session.checkInput();
    if (input) seen.push(input);
    await new Promise((r) => setTimeout(r, 50));
  }
  stop();
  return seen;
}

describe.skipIf(!linux)('waiting for input, asked of the kernel', () => {
  it('python getpass in a session: waiting with echo off; answering clears it', async () => {
    const s = await sessions.start({
      command: 'python3',
      args: [
        '-c',
        "import getpass; getpass.getpass('Secret: '); print('thanks'); import time; time.sleep(30)",
      ],
      pty: true,
    });
    const input = await waiting(s);
    expect(input).toMatchObject({ echo: false, prompt: 'Secret:', confidence: 'kernel' });
    expect(events.some((e) => e.type === 'process_waiting_input' && e.sessionId === s.id)).toBe(true);
    await s.input('hunter2\r');
    const stop = s.watchInput();
    const deadline = Date.now() + 20_000;
    while (s.metadata().input !== null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stop();
    expect(s.metadata().input).toBeNull();
    await s.kill();
  });

  it('a pending poll returns early when the program starts waiting, with no output to wake it', async () => {
    // No prompt text: only the start of the read can end this poll before its timeout.
    const s = await sessions.start({
      command: 'python3',
      args: ['-c', 'import time; time.sleep(1); input()'],
    });
    const started = Date.now();
    const polled = await s.poll({ timeoutMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(polled).toMatchObject({ stdout: '', state: 'running' });
    expect(s.metadata().input).toMatchObject({ prompt: '', confidence: 'kernel' });
    await s.kill();
  });

  it('python input() on pipes: waiting at its prompt', async () => {
    const s = await sessions.start({ command: 'python3', args: ['-c', "input('name? ')"] });
    expect(await waiting(s)).toMatchObject({ prompt: 'name?', echo: true, confidence: 'kernel' });
    await s.input('ada\n');
    expect((await s.wait({ timeoutMs: 20_000 })).exitCode).toBe(0);
    expect(s.metadata().input).toBeNull();
  });

  it('bash --norc -i at its prompt (pselect on the terminal)', async () => {
    const s = await sessions.start({ command: 'bash', args: ['--norc', '-i'], pty: true });
    const input = await waiting(s);
    expect(input).toMatchObject({ echo: true, confidence: 'kernel' });
    expect(input.prompt).toMatch(/[$#]$/);
    await s.kill();
  });

  it('read -p inside a script', async () => {
    const script = join(cwd, 'ask.sh');
    writeFileSync(
      script,
      '#!/bin/bash\necho starting\nread -p \'Continue? [y/N] \' answer\necho "got $answer"\n',
    );
    const s = await sessions.start({ command: 'bash', args: [script], pty: true });
    expect(await waiting(s)).toMatchObject({ prompt: 'Continue? [y/N]', confidence: 'kernel' });
    await s.input('y\r');
    expect((await s.wait({ timeoutMs: 20_000 })).exitCode).toBe(0);
  });

  it('an interactive shell running sleep 2; read -p: not waiting during the sleep, waiting after', async () => {
    const s = await sessions.start({ command: 'bash', args: ['--norc', '-i'], pty: true });
    await waiting(s);
    await s.input("sleep 2; read -p 'later> ' x\r");
    const sent = Date.now();
    // The line reaches bash a moment later; until then it still sits at its prompt.
    await new Promise((r) => setTimeout(r, 300));
    // Until the read starts, the foreground group is sleep's: nothing reads the terminal.
    const during = await neverWaiting(s, 1_500);
    expect(during).toEqual([]);
    const input = await waiting(s);
    expect(input.prompt).toBe('later>');
    expect(Date.now() - sent).toBeGreaterThanOrEqual(2_000);
    await s.kill();
  });

  it('git asking for a username over HTTP (a loopback server answering 401)', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="private"', 'Content-Type': 'text/plain' });
      res.end('login required\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const s = await sessions.start({
        command: 'git',
        args: ['clone', `http://127.0.0.1:${port}/repo.git`, 'cloned'],
        pty: true,
        env: {
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
          GIT_TERMINAL_PROMPT: '1',
          GIT_ASKPASS: '',
          SSH_ASKPASS: '',
        },
      });
      const input = await waiting(s);
      expect(input).toMatchObject({ echo: true, confidence: 'kernel' });
      expect(input.prompt).toBe(`Username for 'http://127.0.0.1:${port}':`);
      await s.input('ada\r');
      // Then the password, with echo off.
      const stop = s.watchInput();
      const deadline = Date.now() + 20_000;
      while (s.metadata().input?.prompt.startsWith('Password') !== true && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      stop();
      expect(s.metadata().input).toMatchObject({
        echo: false,
        prompt: `Password for 'http://ada@127.0.0.1:${port}':`,
      });
      await s.kill();
    } finally {
      server.close();
    }
  });

  const negatives: Array<[string, { command: string; args: string[]; pty?: boolean }]> = [
    ['sleep', { command: 'sleep', args: ['30'], pty: true }],
    ['a busy loop', { command: 'python3', args: ['-c', 'while True: pass'], pty: true }],
    [
      'python http.server in accept',
      { command: 'python3', args: ['-m', 'http.server', '0', '--bind', '127.0.0.1'], pty: true },
    ],
    [
      'a program reading a socket that is not its terminal',
      {
        command: 'python3',
        args: [
          '-c',
          "import socket; a,b=socket.socketpair(); print('reading?', end='', flush=True); a.recv(1)",
        ],
        pty: true,
      },
    ],
    [
      'a program reading a fifo on pipes',
      { command: 'bash', args: ['-c', 'rm -f f; mkfifo f; printf "x? "; read x < f'] },
    ],
    ['a foreground child under an interactive shell', { command: 'bash', args: ['--norc', '-i'], pty: true }],
  ];
  for (const [name, request] of negatives) {
    it(`never waiting over 3 s: ${name}`, async () => {
      const s = await sessions.start({ ...request, cwd });
      if (name.startsWith('a foreground child')) {
        await waiting(s);
        await s.input('sleep 30\r');
        await new Promise((r) => setTimeout(r, 300));
      }
      expect(await neverWaiting(s)).toEqual([]);
      await s.kill();
    });
  }
});
