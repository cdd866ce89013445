// A start that met a tmux server on its way out (its last session just ended) is sent again;
// any other failure is the answer at once, and a server that keeps exiting is told after 3.
import { describe, expect, it } from 'vitest';
import { runStart, START_ATTEMPTS } from '../src/start-retry.js';

const ok = { code: 0, stdout: '123\n', stderr: '' };
const gone = { code: 1, stdout: '', stderr: 'server exited unexpectedly\n' };
const refused = { code: 1, stdout: '', stderr: "can't find session: pm-x\n" };

function answers(...outs: (typeof ok)[]) {
  let calls = 0;
  const run = async () => outs[Math.min(calls++, outs.length - 1)]!;
  return { run, calls: () => calls };
}

describe('runStart', () => {
  it('sends the start again after a server that was exiting, and answers with the new start', async () => {
    const a = answers(gone, gone, ok);
    expect(await runStart(a.run)).toEqual(ok);
    expect(a.calls()).toBe(3);
  });

  it('answers any other failure at once', async () => {
    const a = answers(refused, ok);
    expect(await runStart(a.run)).toEqual(refused);
    expect(a.calls()).toBe(1);
  });

  it(`gives the exiting server's error after ${START_ATTEMPTS} attempts`, async () => {
    const a = answers(gone);
    expect(await runStart(a.run)).toEqual(gone);
    expect(a.calls()).toBe(START_ATTEMPTS);
  });

  it('runs a start that succeeds once', async () => {
    const a = answers(ok);
    expect(await runStart(a.run)).toEqual(ok);
    expect(a.calls()).toBe(1);
  });
});
