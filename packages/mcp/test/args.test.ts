import { isProcmuxError, type ProcmuxError } from '@procmux/core-types';
import { describe, expect, it } from 'vitest';
import { CliUsageError, parseCliArgs } from '../src/args.js';

function usage(argv: string[]): string {
  try {
    parseCliArgs(argv, '/work');
  } catch (error) {
    expect(error).toBeInstanceOf(CliUsageError);
    return (error as Error).message;
  }
  throw new Error('expected a usage error');
}

describe('parseCliArgs', () => {
  it('reads help and version in either spelling', () => {
    expect(parseCliArgs(['--help'], '/w')).toEqual({ kind: 'help' });
    expect(parseCliArgs(['-h'], '/w')).toEqual({ kind: 'help' });
    expect(parseCliArgs(['mcp', '--version'], '/w')).toEqual({ kind: 'version' });
    expect(parseCliArgs(['-v'], '/w')).toEqual({ kind: 'version' });
  });

  it('reads --session-memory as a size, --session-pids and --session-cpu as integers', () => {
    expect(
      parseCliArgs(['mcp', '--session-memory', '256M', '--session-pids', '64', '--session-cpu', '150'], '/w'),
    ).toMatchObject({ kind: 'mcp', resourceLimits: { memoryBytes: 268_435_456, pids: 64, cpuPercent: 150 } });
    for (const [text, bytes] of [
      ['2G', 2 * 1024 ** 3],
      ['512MiB', 512 * 1024 ** 2],
      ['4096k', 4 * 1024 ** 2],
      ['8388608', 8 * 1024 ** 2],
    ] as const) {
      expect(parseCliArgs(['mcp', '--session-memory', text], '/w')).toMatchObject({
        resourceLimits: { memoryBytes: bytes },
      });
    }
  });

  it('refuses a size or count it cannot read, saying what is allowed', () => {
    expect(usage(['mcp', '--session-memory', '1M'])).toContain(
      '--session-memory must be a size of at least 4M, like 256M or 2G',
    );
    expect(usage(['mcp', '--session-memory', 'lots'])).toContain('(got "lots")');
    expect(usage(['mcp', '--session-pids', '0'])).toContain(
      '--session-pids must be an integer from 1 to 4194304',
    );
    expect(usage(['mcp', '--session-cpu', '50%'])).toContain('--session-cpu must be a percentage of one CPU');
    expect(usage(['demo', '--session-pids', '5'])).toBe('--session-pids applies to procmux mcp, not demo');
  });

  it('serves the current directory with PTYs by default', () => {
    expect(parseCliArgs(['mcp'], '/work')).toEqual({
      kind: 'mcp',
      cwd: '/work',
      maxSessions: undefined,
      maxEndedSessions: undefined,
      pty: true,
      leaseTtlMs: 15_000,
    });
  });

  it('resolves --cwd against the current directory and reads the session cap', () => {
    expect(
      parseCliArgs(
        ['mcp', '--cwd', 'proj', '--max-sessions', '4', '--max-ended-sessions', '10', '--no-pty'],
        '/work',
      ),
    ).toEqual({
      kind: 'mcp',
      cwd: '/work/proj',
      maxSessions: 4,
      maxEndedSessions: 10,
      pty: false,
      leaseTtlMs: 15_000,
    });
    expect(parseCliArgs(['mcp', '--cwd=/abs', '--allow-pty'], '/work')).toMatchObject({
      cwd: '/abs',
      pty: true,
    });
  });

  it('reads --view with or without a port, and --view-host', () => {
    expect(parseCliArgs(['mcp', '--view'], '/w')).toMatchObject({ view: { port: 0, host: '127.0.0.1' } });
    expect(parseCliArgs(['--view', 'mcp'], '/w')).toMatchObject({ kind: 'mcp', view: { port: 0 } });
    expect(parseCliArgs(['mcp', '--view', '8080', '--no-pty'], '/w')).toMatchObject({
      view: { port: 8080 },
      pty: false,
    });
    expect(parseCliArgs(['mcp', '--view=0', '--view-host', '0.0.0.0'], '/w')).toMatchObject({
      view: { port: 0, host: '0.0.0.0' },
    });
    expect(parseCliArgs(['mcp'], '/w')).not.toHaveProperty('view');
    expect(() => parseCliArgs(['mcp', '--view=70000'], '/w')).toThrow(
      '--view must be a port from 0 to 65535 (got "70000")',
    );
    expect(() => parseCliArgs(['mcp', '--view=x'], '/w')).toThrow(/--view must be a port/);
    expect(() => parseCliArgs(['mcp', '--view-host', '::'], '/w')).toThrow(/--view-host needs --view/);
    expect(() => parseCliArgs(['mcp', '--view', '--view-host='], '/w')).toThrow(
      /--view-host needs an address/,
    );
    expect(() => parseCliArgs(['demo', '--view'], '/w')).toThrow(/--view applies to procmux mcp/);
  });

  it('reads --http with or without a port, and --http-host', () => {
    expect(parseCliArgs(['mcp', '--http'], '/w')).toMatchObject({ http: { port: 0, host: '127.0.0.1' } });
    expect(parseCliArgs(['mcp', '--http', '8080', '--view'], '/w')).toMatchObject({
      http: { port: 8080, host: '127.0.0.1' },
      view: { port: 0 },
    });
    expect(parseCliArgs(['mcp', '--http', '--http-host', '0.0.0.0'], '/w')).toMatchObject({
      http: { port: 0, host: '0.0.0.0' },
    });
    expect(parseCliArgs(['mcp'], '/w')).not.toHaveProperty('http');
    expect(() => parseCliArgs(['mcp', '--http=70000'], '/w')).toThrow(
      '--http must be a port from 0 to 65535 (got "70000")',
    );
    expect(() => parseCliArgs(['mcp', '--http-host', '::'], '/w')).toThrow(/--http-host needs --http/);
    expect(() => parseCliArgs(['demo', '--http'], '/w')).toThrow(/--http applies to procmux mcp/);
  });

  it('runs the demo', () => {
    expect(parseCliArgs(['demo'], '/w')).toEqual({ kind: 'demo' });
  });

  it.each([
    [[], 'a command is required: mcp or demo (see procmux --help)'],
    [['serve'], 'unknown command "serve"; use mcp or demo'],
    [['mcp', 'extra'], 'unexpected argument "extra"'],
    [['mcp', '--port', '1'], "Unknown option '--port'"],
    [['mcp', '--max-sessions', '0'], '--max-sessions must be an integer from 1 to 32 (got "0")'],
    [['mcp', '--max-sessions', '33'], '--max-sessions must be an integer from 1 to 32 (got "33")'],
    [['mcp', '--max-sessions', '2.5'], '--max-sessions must be an integer from 1 to 32 (got "2.5")'],
    [
      ['mcp', '--max-ended-sessions', '0'],
      '--max-ended-sessions must be an integer from 1 to 10000 (got "0")',
    ],
    [['demo', '--max-ended-sessions', '3'], '--max-ended-sessions applies to procmux mcp, not demo'],
    [['mcp', '--allow-pty', '--no-pty'], '--allow-pty and --no-pty contradict each other'],
    [['demo', '--no-pty'], '--no-pty applies to procmux mcp, not demo'],
  ])('refuses %j', (argv, message) => {
    expect(usage(argv)).toContain(message);
  });
});

describe('option values are refused by the core-types toolkit', () => {
  it.each([
    [['mcp', '--max-sessions', '33'], { option: '--max-sessions', min: 1, max: 32 }],
    [['mcp', '--view=70000'], { option: '--view', min: 0, max: 65_535 }],
    [['mcp', '--state-dir='], { option: '--state-dir' }],
    [
      ['mcp', '--ssh', 'me@h:0', '--ssh-known-hosts', 'kh', '--cwd', '/w'],
      { option: '--ssh', min: 1, max: 65_535 },
    ],
  ])('%j: a usage error whose cause is ERR_INVALID_OPTION with the same details shape', (argv, details) => {
    let caught: unknown;
    try {
      parseCliArgs(argv, '/w');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CliUsageError);
    const cause = (caught as Error).cause;
    expect(isProcmuxError(cause, 'ERR_INVALID_OPTION')).toBe(true);
    expect((cause as ProcmuxError).details).toEqual(details);
    expect((caught as Error).message).toBe((cause as Error).message);
  });
});
