// A reply gathered from several polls of a full-screen program shows its screen now: the rows
// each poll redrew, appended, read as no screen at all.
import type { PollResult } from '@procmux/sessions';
import { describe, expect, it } from 'vitest';
import { gatheredBody } from '../src/full-screen-body.js';
import { OutputGatherer } from '../src/gather.js';
import { pollOf } from './helpers.js';

const poll = (stdout: string, fullScreen?: true): PollResult =>
  pollOf(stdout, fullScreen ? { fullScreen } : {});

const SCREEN = '\n~\n~\n~\n~\n"notes.txt" [New File]';
// The scrollback above the program's screen: returned by earlier replies, never part of this one.
const session = {
  screen: async (options?: { scrollback?: boolean }) =>
    options?.scrollback === false ? SCREEN : `old line 1\nold line 2\n${SCREEN}`,
};

function gathered(...polls: PollResult[]): OutputGatherer {
  const output = new OutputGatherer();
  for (const p of polls) output.add(p);
  return output;
}

describe('the body of a reply gathered from polls', () => {
  // vim's first draw, read in the middle: rows 1-3 and the status line, then rows 4-5 and the
  // status line again.
  const first = poll('\n~\n~\n\n\n"notes.txt" [New File]', true);
  const second = poll('\n~\n~\n"notes.txt" [New File]', true);

  it('is the screen now when a full-screen program redrew across several polls', async () => {
    expect(await gatheredBody(session, gathered(first, second), second)).toBe(SCREEN);
  });

  it('is what was gathered otherwise: one delta, lines of a program not on the alternate screen, or no screen()', async () => {
    expect(await gatheredBody(session, gathered(first, poll('', true)), poll('', true))).toBe(first.stdout);
    const plain = [poll('line 1\n'), poll('line 2\n')];
    expect(await gatheredBody(session, gathered(...plain), plain[1]!)).toBe('line 1\nline 2\n');
    // It left the alternate screen meanwhile: the lines read as lines again.
    expect(await gatheredBody(session, gathered(first, poll('\nback')), poll('\nback'))).toBe(
      `${first.stdout}\nback`,
    );
    expect(await gatheredBody({}, gathered(first, second), second)).toBe(first.stdout + second.stdout);
  });

  it('falls back to what was gathered when the screen cannot be read', async () => {
    const failing = { screen: async () => Promise.reject(new Error('gone')) };
    expect(await gatheredBody(failing, gathered(first, second), second)).toBe(first.stdout + second.stdout);
  });
});

describe("the body of a terminal's reply after an earlier one", () => {
  const terminal = { emulated: true };

  it("starts at the next row: the line break that ended the earlier reply's last row is left out", async () => {
    const next = poll('\ndone\nbash-5.2#');
    expect(await gatheredBody(terminal, gathered(next), next)).toBe('done\nbash-5.2#');
    // A blank row after it is the program's: kept.
    const blank = poll('\n\ndone');
    expect(await gatheredBody(terminal, gathered(blank), blank)).toBe('\ndone');
    // The rest of a row the earlier reply showed in part continues as it is.
    const rest = poll(' echo hi\nhi');
    expect(await gatheredBody(terminal, gathered(rest), rest)).toBe(' echo hi\nhi');
  });

  it('pipes are left as written', async () => {
    const next = poll('\ndone\n');
    expect(await gatheredBody({ emulated: false }, gathered(next), next)).toBe('\ndone\n');
    expect(await gatheredBody({}, gathered(next), next)).toBe('\ndone\n');
  });
});
