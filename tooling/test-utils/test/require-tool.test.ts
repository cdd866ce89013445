// requireTool's decisions for every OS and CI setting, through the effects production uses.
import { describe, expect, it } from 'vitest';
import { requireTool, type ToolEffects, underCi } from '../src/require-tool.js';

const nothing: ToolEffects = { exists: () => false, runs: () => false };
const everything: ToolEffects = { exists: () => true, runs: () => true };
const quiet = { report: () => {} };

describe('requireTool', () => {
  it('is undefined where the tool is there', () => {
    expect(
      requireTool('sshd', { platform: 'linux', env: { CI: 'true' }, effects: everything, ...quiet }),
    ).toBe(undefined);
    expect(requireTool(['tmux', 'ps'], { platform: 'darwin', env: {}, effects: everything, ...quiet })).toBe(
      undefined,
    );
    expect(
      requireTool('postgres', { platform: 'linux', env: { PROCMUX_PG_URL: 'postgres://x' }, ...quiet }),
    ).toBe(undefined);
  });

  it('skips with the reason outside CI, and prints it', () => {
    const lines: string[] = [];
    const reason = requireTool('sshd', {
      platform: 'linux',
      env: {},
      effects: nothing,
      report: (l) => lines.push(l),
    });
    expect(reason).toBe('skipped: sshd: needs /usr/sbin/sshd (Debian: apt-get install -y openssh-server)');
    expect(lines).toEqual([reason]);
  });

  it.each(['true', '1', 'yes'])('fails under CI=%s on a leg that should have the tool', (ci) => {
    for (const tool of ['sshd', 'chromium', 'postgres', 'tmux', 'ps', 'posix-shell', 'gdb', 'ss'] as const) {
      expect(() =>
        requireTool(tool, { platform: 'linux', env: { CI: ci }, effects: nothing, ...quiet }),
      ).toThrow(`CI on linux must have ${tool}, and it is missing`);
    }
    expect(() =>
      requireTool('tmux', { platform: 'darwin', env: { CI: ci }, effects: nothing, ...quiet }),
    ).toThrow('CI on darwin must have tmux');
  });

  it('skips, even under CI, where the leg cannot have the tool', () => {
    const ci = { CI: 'true' };
    expect(requireTool('posix-shell', { platform: 'win32', env: ci, effects: everything, ...quiet })).toBe(
      'skipped: posix-shell: not on win32: needs a POSIX shell (sh) and POSIX signals, which Windows does not have',
    );
    expect(requireTool('sshd', { platform: 'darwin', env: ci, effects: everything, ...quiet })).toMatch(
      /^skipped: sshd: not on darwin: /,
    );
    expect(requireTool('gdb', { platform: 'darwin', env: ci, effects: everything, ...quiet })).toBe(
      'skipped: gdb: not on darwin: needs gdb (Debian: apt-get install -y gdb)',
    );
    expect(requireTool('chromium', { platform: 'darwin', env: ci, effects: nothing, ...quiet })).toMatch(
      /^skipped: chromium: needs chromium at \/usr\/bin\/chromium .* \(the darwin leg does not have it\)$/,
    );
  });

  it('names every missing tool at once', () => {
    expect(requireTool(['tmux', 'python3'], { platform: 'linux', env: {}, effects: nothing, ...quiet })).toBe(
      'skipped: tmux: needs tmux (Debian: apt-get install -y tmux; macOS: brew install tmux); python3: needs python3 on PATH (Debian: apt-get install -y python3)',
    );
  });

  it('reads CI as CI services set it', () => {
    expect([undefined, '', '0', 'false', 'FALSE'].map((CI) => underCi({ CI }))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(['true', '1', 'yes'].map((CI) => underCi({ CI }))).toEqual([true, true, true]);
  });
});
