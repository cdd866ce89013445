// Pure parts: tmux discovery and version, paths, refs, exit files, the start script.

import { consoleLogger } from '@procmux/supervisor';
import { describe, expect, it } from 'vitest';
import { createTmuxBackend } from '../src/backend.js';
import { decodeRef, encodeRef, envScript, layoutOf, parseExitFile } from '../src/layout.js';
import { resolveTmuxOptions } from '../src/options.js';
import { escapeSeparator } from '../src/start-commands.js';
import { locateTmux, parseTmuxVersion, versionSupported } from '../src/tmux-cli.js';

describe('locateTmux', () => {
  const fake = (output: string | Error) => (file: string) => {
    if (file === 'sh') return '/opt/bin/tmux\n';
    if (output instanceof Error) throw output;
    return output;
  };
  it('accepts 3.3a and newer, and finds the binary', () => {
    expect(locateTmux('linux', fake('tmux 3.3a\n'))).toEqual({ path: '/opt/bin/tmux', version: 'tmux 3.3a' });
    expect(locateTmux('darwin', fake('tmux 3.5\n')).version).toBe('tmux 3.5');
    expect(locateTmux('linux', fake('tmux next-3.6\n')).version).toBe('tmux next-3.6');
  });
  it('is ERR_PROCESS_UNSUPPORTED naming what to install when tmux is missing or too old', () => {
    expect(() => locateTmux('linux', fake(new Error('ENOENT')))).toThrow(
      expect.objectContaining({
        code: 'ERR_PROCESS_UNSUPPORTED',
        message: expect.stringMatching(/not found.*apt-get install tmux.*brew install tmux/),
      }),
    );
    expect(() => locateTmux('linux', fake('tmux 3.2a\n'))).toThrow(
      expect.objectContaining({
        code: 'ERR_PROCESS_UNSUPPORTED',
        message: expect.stringMatching(/tmux 3.2a is too old.*3.3 or newer/),
      }),
    );
    expect(() => locateTmux('linux', fake('garbage'))).toThrow(/too old/);
  });
  it('is ERR_PROCESS_UNSUPPORTED on Windows, without looking', () => {
    expect(() => locateTmux('win32', () => 'tmux 3.5')).toThrow(
      expect.objectContaining({
        code: 'ERR_PROCESS_UNSUPPORTED',
        message: expect.stringMatching(/Linux and macOS only/),
      }),
    );
  });
  it('parses versions', () => {
    expect(parseTmuxVersion('tmux 3.3a')).toEqual([3, 3]);
    expect(parseTmuxVersion('tmux master')).toBeUndefined();
    expect(versionSupported([4, 0])).toBe(true);
    expect(versionSupported([3, 2])).toBe(false);
  });
});

describe('createTmuxBackend options (the core-types toolkit: ERR_INVALID_OPTION, details.option)', () => {
  const tmux = { path: '/usr/bin/tmux', version: 'tmux 3.3a' };
  const refused = (options: unknown, option: string, message: RegExp) => {
    expect(() => resolveTmuxOptions(options)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_OPTION', details: expect.objectContaining({ option }) }),
    );
    expect(() => resolveTmuxOptions(options)).toThrow(message);
  };
  it("takes dir, killGraceMs, tmux, containment and logger, with the 3000 ms default grace, 'auto' and the console", () => {
    expect(resolveTmuxOptions({ dir: '/tmp/pm', tmux })).toEqual({
      dir: '/tmp/pm',
      killGraceMs: 3_000,
      tmux,
      containment: 'auto',
      logger: consoleLogger,
    });
    const told: string[] = [];
    const logger = { warn: (message: string) => void told.push(message) };
    resolveTmuxOptions({ dir: '/tmp/pm', logger }).logger.warn('a pane cgroup was left');
    expect(told).toEqual(['a pane cgroup was left']);
    refused({ dir: '/tmp/pm', logger: console.log }, 'logger', /logger must be an object with a warn/);
    refused({ dir: '/tmp/pm', logger: { warn: 'loud' } }, 'logger', /logger must be an object with a warn/);
    expect(resolveTmuxOptions({ dir: '/tmp/pm', killGraceMs: 0 }).killGraceMs).toBe(0);
    expect(resolveTmuxOptions({ dir: '/tmp/pm', containment: 'pid-namespace' }).containment).toBe(
      'pid-namespace',
    );
    for (const containment of ['cgroup', 'marker'] as const)
      expect(resolveTmuxOptions({ dir: '/tmp/pm', containment }).containment).toBe(containment);
    refused({ dir: '/tmp/pm', containment: 'namespace' }, 'containment', /containment must be one of/);
  });
  it('refuses what it cannot use, saying what is allowed', () => {
    refused(undefined, 'dir', /dir must be a non-empty string/);
    refused('/tmp/pm', 'options', /options must be an object/);
    refused({ dir: '' }, 'dir', /dir must be a non-empty string/);
    refused(
      { dir: '/tmp/pm', killGraceMs: -1 },
      'killGraceMs',
      /killGraceMs must be an integer from 0 to 60000/,
    );
    refused({ dir: '/tmp/pm', killGraceMs: 1.5 }, 'killGraceMs', /killGraceMs must be an integer/);
    refused({ dir: '/tmp/pm', killGraceMs: 600_000 }, 'killGraceMs', /from 0 to 60000 \(got 600000\)/);
    refused({ dir: '/tmp/pm', tmux: 'tmux' }, 'tmux', /tmux must be a located tmux \{ path, version \}/);
    refused(
      { dir: '/tmp/pm', graceMs: 10 },
      'options.graceMs',
      /one of the known options: dir, killGraceMs, tmux/,
    );
  });
  it('createTmuxBackend refuses a bad option before it touches tmux or the disk', () => {
    expect(() => createTmuxBackend({ dir: 'relative', tmux })).toThrow(/dir must be an absolute path/);
  });
});

describe('layout and refs', () => {
  it('refuses directories sh would need quoting for, relative ones, and over-long sockets', () => {
    expect(() => layoutOf('relative/dir')).toThrow(expect.objectContaining({ code: 'ERR_INVALID_OPTION' }));
    expect(() => layoutOf('/tmp/with space')).toThrow(/absolute path of letters/);
    expect(() => layoutOf("/tmp/quote'd")).toThrow(/absolute path of letters/);
    expect(() => layoutOf(`/tmp/${'x'.repeat(100)}`)).toThrow(/at most 103 bytes/);
    expect(() => layoutOf(`/tmp/${'x'.repeat(100)}`)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_OPTION', details: { option: 'dir', max: 103 } }),
    );
    expect(() => layoutOf('relative/dir')).toThrow(
      expect.objectContaining({
        details: { option: 'dir' },
        message: expect.stringMatching(/^dir must be an absolute path of letters.*\(got /),
      }),
    );
    expect(layoutOf('/tmp/pm').socket).toBe('/tmp/pm/tmux.sock');
  });
  it('round-trips a ref and refuses one that points elsewhere', () => {
    const layout = layoutOf('/tmp/pm');
    const ref = {
      v: 1 as const,
      socket: layout.socket,
      session: 'pm-0123456789ab',
      log: layout.files('pm-0123456789ab').log,
      offset: 0,
      marker: 'm',
    };
    expect(decodeRef(encodeRef(ref), layout)).toEqual(ref);
    expect(decodeRef(encodeRef({ ...ref, socket: '/tmp/other.sock' }), layout)).toBeUndefined();
    expect(decodeRef(encodeRef({ ...ref, session: 'x; rm -rf /' }), layout)).toBeUndefined();
    expect(decodeRef(encodeRef({ ...ref, offset: -1 }), layout)).toBeUndefined();
    expect(decodeRef('not json', layout)).toBeUndefined();
    expect(Buffer.byteLength(encodeRef(ref))).toBeLessThan(1024);
    // A pane's cgroup: kept when every path is one the pane-died hook can take unquoted.
    const cgroup = ['/sys/fs/cgroup/app/procmux-42-pm-0123456789ab'];
    expect(decodeRef(encodeRef({ ...ref, cgroup }), layout)).toEqual({ ...ref, cgroup });
    for (const bad of [[], ['relative/procmux-1-x'], ['/sys/fs/cgroup/a b'], ['/sys/fs/cgroup/../etc'], [7]])
      expect(decodeRef(JSON.stringify({ ...ref, cgroup: bad }), layout)).toBeUndefined();
  });
  it('reads exit files only when complete', () => {
    expect(parseExitFile('3:\n')).toEqual({ exitCode: 3, signal: null });
    expect(parseExitFile(':15\n')).toEqual({ exitCode: null, signal: 15 });
    expect(parseExitFile('3:')).toBeUndefined();
    expect(parseExitFile(':\n')).toBeUndefined();
  });
  it('quotes every variable of the start script and escapes tmux separators', () => {
    const script = envScript('/tmp/pm/s.env.sh', { A: "it's", B: 'x y' });
    expect(script).toContain(`'A=it'\\''s' 'B=x y' "$@"`);
    expect(script.startsWith("rm -f -- '/tmp/pm/s.env.sh'\n")).toBe(true);
    expect(escapeSeparator('{};')).toBe('{}\\;');
    expect(escapeSeparator('plain')).toBe('plain');
  });
});
