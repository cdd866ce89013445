import { describe, expect, it } from 'vitest';
import { duration, shownCommand } from '../src/describe-session.js';
import { formatBytes, stateLine, usageSuffix } from '../src/index.js';

describe('stateLine', () => {
  it('says a running or starting process is still running', () => {
    expect(stateLine({ state: 'running', exitCode: null, signal: null })).toBe('Process still running.');
    expect(stateLine({ state: 'starting', exitCode: null, signal: null })).toBe('Process still running.');
  });

  it('says a running process waits for input, quoting its prompt, and when input is not echoed', () => {
    const running = { state: 'running' as const, exitCode: null, signal: null };
    expect(stateLine({ ...running, input: { echo: true, prompt: 'name?' } })).toBe(
      'Process is waiting for input: "name?".',
    );
    expect(stateLine({ ...running, input: { echo: false, prompt: 'Password:' } })).toBe(
      'Process is waiting for input: "Password:". (input is not echoed: likely a password)',
    );
    expect(stateLine({ ...running, input: null })).toBe('Process still running.');
    expect(stateLine({ ...running, input: { echo: true, prompt: '' } })).toBe(
      'Process is waiting for input (no prompt shown).',
    );
    // A full-screen program's cursor row is its own text: nothing is quoted as a prompt.
    expect(stateLine({ ...running, input: { echo: true, prompt: '', fullScreen: true } })).toBe(
      'Process is waiting for input (a full-screen program: the screen shows where).',
    );
    // An ended process says how it ended, whatever input state was last seen.
    expect(
      stateLine({ state: 'exited', exitCode: 0, signal: null, input: { echo: true, prompt: 'x' } }),
    ).toBe('Process exited with code 0.');
    const long = stateLine({ ...running, input: { echo: true, prompt: `${'a'.repeat(300)}"?` } });
    expect(long).toBe(`Process is waiting for input: "...${'a'.repeat(118)}\\"?".`);
  });

  it('gives the exit code of an exited process, zero or not', () => {
    expect(stateLine({ state: 'exited', exitCode: 0, signal: null })).toBe('Process exited with code 0.');
    expect(stateLine({ state: 'exited', exitCode: 127, signal: null })).toBe('Process exited with code 127.');
  });

  it('names the signal that killed a process, and says when none was reported', () => {
    expect(stateLine({ state: 'killed', exitCode: null, signal: 'SIGTERM' })).toBe(
      'Process killed by SIGTERM.',
    );
    expect(stateLine({ state: 'killed', exitCode: null, signal: null })).toBe(
      'Process was killed (no signal was reported).',
    );
  });

  it('explains expired, released and unknown in words a model can act on', () => {
    expect(stateLine({ state: 'expired', exitCode: null, signal: 'SIGKILL' })).toMatch(
      /^Process expired: .*lifetime/,
    );
    expect(stateLine({ state: 'released', exitCode: null, signal: null })).toMatch(
      /no longer tracks it.*may still be running/,
    );
    expect(stateLine({ state: 'unknown', exitCode: null, signal: null })).toMatch(/^Process state unknown: /);
  });
});

describe('session descriptions', () => {
  it('formats durations at a glance', () => {
    expect(duration(850.4)).toBe('850 ms');
    expect(duration(-3)).toBe('0 ms');
    expect(duration(12_345)).toBe('12.3 s');
    expect(duration(245_000)).toBe('4 min 5 s');
    expect(duration(7_380_000)).toBe('2 h 3 min');
  });

  it('shows a multi-line or very long command on one short line', () => {
    expect(shownCommand('echo a\n  echo b')).toBe('echo a ⏎ echo b');
    const long = shownCommand(`echo ${'x'.repeat(500)}`);
    expect(long.length).toBe(160);
    expect(long.endsWith('...')).toBe(true);
  });
});

describe('what a session used, and an out-of-memory death', () => {
  it('names an OOM kill with the limit instead of the bare signal', () => {
    const usage = { cpuMs: 120, memoryPeakBytes: 268_435_456, oomKills: 1 };
    expect(
      stateLine({
        state: 'killed',
        exitCode: null,
        signal: 'SIGKILL',
        usage,
        resourceLimits: { memoryBytes: 256 * 1024 * 1024 },
      }),
    ).toBe('Process killed: out of memory (limit 256 MiB).');
    expect(stateLine({ state: 'killed', exitCode: null, signal: 'SIGKILL', usage })).toBe(
      'Process killed: out of memory.',
    );
    // A shell that outlived its OOM-killed command (exit 128 + 9) reads the same; 137 alone does not.
    expect(
      stateLine({
        state: 'exited',
        exitCode: 137,
        signal: null,
        usage,
        resourceLimits: { memoryBytes: 256 << 20 },
      }),
    ).toBe('Process killed: out of memory (limit 256 MiB).');
    expect(
      stateLine({ state: 'exited', exitCode: 137, signal: null, usage: { ...usage, oomKills: 0 } }),
    ).toBe('Process exited with code 137.');
    // No OOM kill: the signal, as before.
    expect(
      stateLine({ state: 'killed', exitCode: null, signal: 'SIGKILL', usage: { ...usage, oomKills: 0 } }),
    ).toBe('Process killed by SIGKILL.');
  });

  it('formats cpu seconds and peak memory for the end of an exec reply, and nothing unknown', () => {
    expect(usageSuffix({ cpuMs: 210, memoryPeakBytes: 117_440_512, oomKills: 0 })).toBe(
      ' (cpu 0.21 s, peak memory 112 MiB)',
    );
    expect(usageSuffix({ cpuMs: 4, memoryPeakBytes: 3_250_000, oomKills: 0 })).toBe(
      ' (cpu 0.00 s, peak memory 3.1 MiB)',
    );
    expect(usageSuffix({ cpuMs: 1500, memoryPeakBytes: null, oomKills: 0 })).toBe(' (cpu 1.50 s)');
    expect(usageSuffix(null)).toBe('');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2 GiB');
    expect(formatBytes(1536 * 1024 ** 2)).toBe('1.5 GiB');
  });
});
