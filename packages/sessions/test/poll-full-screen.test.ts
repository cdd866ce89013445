// A terminal session's program on the alternate screen (vim, less, htop): poll says so, since
// its deltas are then rows redrawn in place, not new lines; and the prompt a waiting program
// shows is the cursor's line as the screen shows it, not the raw output stripped of escapes.
import { assertNoLeakedProcesses, makeWorkspace, waitFor } from '@procmux/test-utils';
import { afterAll, expect, it } from 'vitest';
import { createProcessSessions, type PollResult } from '../src/index.js';

const linux = process.platform === 'linux';

afterAll(async () => {
  await assertNoLeakedProcesses();
});

it.runIf(process.platform !== 'win32')(
  'says fullScreen while the program is on the alternate screen, and only then',
  async () => {
    const sessions = createProcessSessions({ cwd: makeWorkspace() });
    try {
      // Each step waits for a line of input, so every poll below reads a settled screen.
      const script = [
        'echo plain; read -r a',
        "printf '\\033[?1049h\\033[H\\033[2Jon the alternate screen'; read -r b",
        "printf '\\033[?1049lback'; read -r c",
      ].join('; ');
      const session = await sessions.start({ command: script, shell: true, pty: true });
      const until = async (text: string): Promise<PollResult> => {
        let seen = '';
        let last: PollResult | undefined;
        await waitFor(
          async () => {
            last = await session.poll({ timeoutMs: 1_000 });
            seen += last.stdout;
            return seen.includes(text);
          },
          20_000,
          text,
        );
        return last!;
      };
      expect((await until('plain')).fullScreen).toBeUndefined();
      expect(session.fullScreen).toBe(false);
      await session.input('1\r');
      expect((await until('on the alternate screen')).fullScreen).toBe(true);
      // The handle says so between polls too (the tools type a one-line paste as keys there).
      expect(session.fullScreen).toBe(true);
      // A poll that brings nothing new still says where the program is.
      expect((await session.poll()).fullScreen).toBe(true);
      await session.input('2\r');
      expect((await until('back')).fullScreen).toBeUndefined();
      expect(session.fullScreen).toBe(false);
      await session.input('3\r');
      await session.wait();
      expect(session.fullScreen).toBe(false);
    } finally {
      await sessions.dispose();
    }
  },
);

// The kernel tells when a program waits (Linux); the prompt is then read from the screen.
it.runIf(linux)('reports the prompt as the cursor line shows it, after cursor addressing', async () => {
  const sessions = createProcessSessions({ cwd: makeWorkspace() });
  try {
    // "Name: " on row 1, a `~` drawn on row 10, the cursor sent back after "Name: ". The raw
    // output stripped of its escapes ends "Name: ~": no line on the screen reads that.
    const script = 'printf \'\\033[H\\033[2JName: \\033[10;1H~\\033[1;7H\'; read -r name; echo "hi $name"';
    const session = await sessions.start({ command: script, shell: true, pty: true });
    const input = await waitFor(() => session.metadata().input ?? undefined, 20_000, 'the prompt');
    expect(input?.prompt).toBe('Name:');
    await session.input('Ada\r');
    await session.wait();
  } finally {
    await sessions.dispose();
  }
});

// On the alternate screen the cursor's row is the program's text (vim after Escape sits inside
// a line of the file): the wait says fullScreen and quotes no prompt; back on the main screen
// the prompt is quoted again.
it.runIf(linux)('quotes no prompt while the program waiting is on the alternate screen', async () => {
  const sessions = createProcessSessions({ cwd: makeWorkspace() });
  try {
    const script = [
      "printf '\\033[?1049h\\033[H\\033[2Jhello world\\033[1;11H'; read -r a",
      "printf '\\033[?1049lName: '; read -r b",
    ].join('; ');
    const session = await sessions.start({ command: script, shell: true, pty: true });
    const full = await waitFor(() => session.metadata().input ?? undefined, 20_000, 'the full-screen wait');
    expect(full).toMatchObject({ prompt: '', fullScreen: true, echo: true });
    await session.input('x\r');
    const back = await waitFor(
      () => (session.metadata().input?.prompt === 'Name:' ? session.metadata().input : undefined),
      20_000,
      'the prompt after the alternate screen',
    );
    expect(back?.fullScreen).toBeUndefined();
    await session.input('Ada\r');
    await session.wait();
  } finally {
    await sessions.dispose();
  }
});

// What is quoted is what precedes the cursor: `top` leaves its cursor past its last process
// row, vim at the start of its text, and a right-hand prompt sits after the cursor.
it.runIf(linux)('quotes only what precedes the cursor as the prompt', async () => {
  const sessions = createProcessSessions({ cwd: makeWorkspace() });
  try {
    const cases: { script: string; prompt: string }[] = [
      // 120 columns by default: a row written to its last column, the cursor left past it.
      { script: "printf 'PID USER\\n'; printf '%0120d' 7; read -r a", prompt: '' },
      {
        script: "printf '\\033[?1049h\\033[H\\033[2Jfirst line of the text\\033[H'; read -r b",
        prompt: '',
      },
      { script: "printf 'name? \\0337\\033[100G[14:02]\\0338'; read -r c", prompt: 'name?' },
    ];
    const started = await Promise.all(
      cases.map((c) => sessions.start({ command: c.script, shell: true, pty: true })),
    );
    for (const [i, session] of started.entries()) {
      const input = await waitFor(() => session.metadata().input ?? undefined, 20_000, `case ${i}`);
      expect(input?.prompt, `case ${i}`).toBe(cases[i]!.prompt);
      // The heuristic's line (macOS, Windows) is still the whole cursor line: not asked here.
      await session.input('x\r');
      await session.wait();
    }
  } finally {
    await sessions.dispose();
  }
});
