// A line typed while the program is busy, with its terminal still in bracketed paste mode (a
// line editor turns it off only once it has read Enter): typed as keys, so the kernel's echo
// shows the text and the program reads the text, not the brackets around it.
import { descendantsOf } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { closingHarness, idOf } from './helpers.js';

const harness = closingHarness();
const linux = process.platform === 'linux';

// Turns bracketed paste on, is busy in a sleep, then reads a line and shows what it read.
const PROGRAM = `printf '\\033[?2004h'; echo busy; sleep 300; read -r line; printf 'got [%q]\\n' "$line"`;

describe.skipIf(!linux)('paste to a busy program whose terminal asks for bracketed paste', () => {
  it('types one plain line as keys: the echo and the program have the text, no brackets', async () => {
    const h = harness();
    const id = idOf(await h.exec({ command: PROGRAM, mode: 'session' }));
    await h.proc({ action: 'wait_for', session_id: id, pattern: '^busy$', timeout: 10_000 });
    const session = h.sessions.get(id);
    expect(session.bracketedPaste).toBe(true);
    await h.proc({ action: 'paste', session_id: id, text: 'hello there' });
    await h.proc({ action: 'submit', session_id: id });
    // The sleep ends; the read gets the line typed ahead.
    const sleep = descendantsOf(session.pid!).find((p) => p.command === 'sleep 300');
    process.kill(sleep!.pid, 'SIGKILL');
    const end = await h.proc({ action: 'wait_for', session_id: id, exit: true, timeout: 10_000 });
    expect(end.text).not.toContain('200~');
    expect(end.text).toContain('got [hello\\ there]');
  });

  it('leaves several lines a paste', async () => {
    const h = harness();
    const id = idOf(await h.exec({ command: PROGRAM, mode: 'session' }));
    await h.proc({ action: 'wait_for', session_id: id, pattern: '^busy$', timeout: 10_000 });
    await h.proc({ action: 'paste', session_id: id, text: 'one\ntwo' });
    await h.proc({ action: 'submit', session_id: id });
    const session = h.sessions.get(id);
    const sleep = descendantsOf(session.pid!).find((p) => p.command === 'sleep 300');
    process.kill(sleep!.pid, 'SIGKILL');
    const end = await h.proc({ action: 'wait_for', session_id: id, exit: true, timeout: 10_000 });
    // The program read the bracket's start with the first line.
    expect(end.text).toContain("got [$'\\E[200~one']");
  });
});
