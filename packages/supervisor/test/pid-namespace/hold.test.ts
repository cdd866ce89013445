import { describe, expect, it } from 'vitest';
import { isNamespaceHold } from '../../src/pid-namespace/hold.js';
import { INIT_HOLD_COMMAND } from '../../src/pid-namespace/wrap.js';

/** A /proc of given processes: NSpid list and argv per host pid. */
function proc(table: Record<number, { nspid: number[]; argv: string[] }>) {
  return (path: string): string | undefined => {
    const [, pid, file] = /^\/proc\/(\d+)\/(status|cmdline)$/.exec(path) ?? [];
    const entry = table[Number(pid)];
    if (entry === undefined) return undefined;
    return file === 'status' ? `Name:\tx\nNSpid:\t${entry.nspid.join('\t')}\n` : `${entry.argv.join('\0')}\0`;
  };
}

describe('isNamespaceHold', () => {
  const read = proc({
    100: { nspid: [100, 1], argv: ['/bin/sh', '-c', 'hold', 'procmux-pidns-init', '99'] },
    101: { nspid: [101, 2], argv: INIT_HOLD_COMMAND.split(' ') },
    102: { nspid: [102, 3], argv: ['sleep', '30'] },
    103: { nspid: [103], argv: INIT_HOLD_COMMAND.split(' ') },
    104: { nspid: [104, 4], argv: ['sleep', '2147483', 'x'] },
  });

  it("is the namespace's init (pid 1 inside), whatever its argv", () => {
    expect(isNamespaceHold(100, read)).toBe(true);
  });

  it("is the init's hold sleep inside a namespace", () => {
    expect(isNamespaceHold(101, read)).toBe(true);
  });

  it('is not what the run left behind, nor the same argv in the host namespace, nor a longer argv', () => {
    expect(isNamespaceHold(102, read)).toBe(false);
    expect(isNamespaceHold(103, read)).toBe(false);
    expect(isNamespaceHold(104, read)).toBe(false);
  });

  it('is not a process that is gone', () => {
    expect(isNamespaceHold(999, read)).toBe(false);
  });
});
