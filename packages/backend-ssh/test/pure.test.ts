import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  killerCommand,
  lossBoundMs,
  remoteEnv,
  shQuote,
  signalCommand,
  wrapperCommand,
} from '../src/index.js';

describe('remote command lines', () => {
  it('quotes any word for sh, quotes and newlines included', () => {
    for (const word of ["it's", 'a b', '$HOME', '`x`', 'line\nnext', '', '\\', '"']) {
      expect(execFileSync('sh', ['-c', `printf %s ${shQuote(word)}`], { encoding: 'utf8' })).toBe(word);
    }
  });

  it('exports only valid variable names and passes every word as one argument', () => {
    const line = wrapperCommand({
      nonce: 'n',
      marker: 'm',
      graceMs: 120,
      workspace: '/w',
      cwd: '/w/sub',
      env: { GOOD_1: "v'1", 'BAD-NAME': 'x', '1BAD': 'y' },
      kind: 'exec',
      file: 'printf',
      args: ['%s', 'a b'],
      mode: 'marker',
      namespace: [],
    });
    expect(line.startsWith("export GOOD_1='v'\\''1'; exec sh -c ")).toBe(true);
    expect(line).not.toContain('BAD');
    // graceMs 120 → 3 ticks of 50 ms; program and args are the last words.
    expect(line).toContain("'procmux-ssh' 'n' 'm' '3' '/w' '/w/sub' ");
    // KIND, MODE, NS (no namespace: an empty word), then the program and its args.
    expect(line.endsWith("'exec' 'marker' '' 'printf' '%s' 'a b'")).toBe(true);
    expect(killerCommand(42, 'm', 500)).toMatch(/'procmux-ssh-kill' '42' 'm' '10'$/);
    expect(killerCommand(42, 'm', 500, '/cg/procmux-m')).toMatch(
      /'procmux-ssh-kill' '42' 'm' '10' '\/cg\/procmux-m'$/,
    );
    expect(signalCommand(42, 'SIGINT')).toBe("kill -s 'INT' 42");
  });

  it('sends only what the request changed, plus TERM for a terminal', () => {
    const env = { ...process.env, EXTRA: 'x', PATH: process.env.PATH ?? '' } as Record<string, string>;
    expect(remoteEnv(env, undefined)).toEqual({ EXTRA: 'x' });
    expect(remoteEnv(env, 'xterm-256color')).toEqual({ EXTRA: 'x', TERM: 'xterm-256color' });
  });

  it('bounds loss detection by interval × (count + 1)', () => {
    expect(lossBoundMs({ keepaliveIntervalMs: 5_000, keepaliveCountMax: 3 })).toBe(20_000);
  });
});
