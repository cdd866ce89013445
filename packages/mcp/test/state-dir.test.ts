// Where procmux mcp keeps its state, and who drives it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/args.js';
import { acquireServerLock, defaultStateDir, resolveStateDir, workspaceHash } from '../src/state-dir.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'pm-sd-'));
  dirs.push(d);
  return d;
}

describe('state directory', () => {
  it('defaults to XDG_STATE_HOME, else ~/.local/state, one directory per workspace', () => {
    const hash = workspaceHash('/work/project');
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(defaultStateDir('/work/project', { XDG_STATE_HOME: '/xdg' }, '/home/u')).toBe(
      `/xdg/procmux/${hash}`,
    );
    expect(defaultStateDir('/work/project', {}, '/home/u')).toBe(`/home/u/.local/state/procmux/${hash}`);
    expect(defaultStateDir('/work/project', { XDG_STATE_HOME: 'relative' }, '/home/u')).toBe(
      `/home/u/.local/state/procmux/${hash}`,
    );
    expect(workspaceHash('/work/other')).not.toBe(hash);
  });

  it('is never inside the workspace', () => {
    expect(() => resolveStateDir('/work/project', '.procmux-state')).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_OPTION',
        message: expect.stringMatching(
          /^stateDir must be a directory outside the workspace .*inside the workspace/,
        ),
        details: { option: 'stateDir' },
      }),
    );
    expect(() => resolveStateDir('/work/project', '/work/project')).toThrow(/inside the workspace/);
    expect(resolveStateDir('/work/project', '/var/state')).toBe('/var/state');
    expect(resolveStateDir('/work/project', '../state')).toBe('/work/state');
  });

  it('one server holds the directory; a second gets an owner id of its own; a dead holder is replaced', () => {
    const dir = temp();
    const first = acquireServerLock(dir, '/work/project');
    expect(first).toMatchObject({ primary: true, ownerId: `mcp-${workspaceHash('/work/project')}` });
    // Another live process holds it (pid 1 is always alive).
    first.release();
    writeFileSync(join(dir, 'server.lock'), '1');
    const second = acquireServerLock(dir, '/work/project');
    expect(second).toMatchObject({ primary: false, holder: 1 });
    expect(second.ownerId).toBe(`mcp-${workspaceHash('/work/project')}-${process.pid}`);
    // A holder that is gone (no such pid) does not count.
    writeFileSync(join(dir, 'server.lock'), '2147483646');
    const third = acquireServerLock(dir, '/work/project');
    expect(third.primary).toBe(true);
    third.release();
  });
});

describe('command line', () => {
  it('takes --state-dir and sessions prune', () => {
    expect(parseCliArgs(['mcp', '--state-dir', '/s'], '/w')).toMatchObject({ kind: 'mcp', stateDir: '/s' });
    expect(parseCliArgs(['sessions', 'prune', '--cwd', 'p'], '/w')).toEqual({
      kind: 'prune',
      cwd: '/w/p',
      stateDir: undefined,
      gone: false,
    });
    expect(parseCliArgs(['sessions', 'prune', '--gone'], '/w')).toMatchObject({ kind: 'prune', gone: true });
    expect(() => parseCliArgs(['sessions', 'prune', '--gone', '--cwd', 'p'], '/w')).toThrow(
      /--gone looks at every workspace/,
    );
    expect(() => parseCliArgs(['mcp', '--gone'], '/w')).toThrow(/--gone applies to procmux sessions prune/);
    expect(() => parseCliArgs(['sessions'], '/w')).toThrow(/one subcommand: prune/);
    expect(() => parseCliArgs(['sessions', 'prune', '--view'], '/w')).toThrow(/applies to procmux mcp/);
    expect(() => parseCliArgs(['mcp', '--state-dir='], '/w')).toThrow(
      /--state-dir must be a directory \(got ""\)/,
    );
    expect(() => parseCliArgs(['demo', '--state-dir', '/s'], '/w')).toThrow(/applies to procmux mcp/);
  });
});
