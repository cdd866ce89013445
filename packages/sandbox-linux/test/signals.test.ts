// Which host pid a sandboxed session's signal goes to, and how bwrap's exit code is read back.
import { describe, expect, it } from 'vitest';
import { exitOfSignalled, sandboxedProgramPid } from '../src/signals.js';

describe('sandboxedProgramPid', () => {
  const tree: Record<number, number[]> = { 100: [101], 101: [102], 102: [103] };
  const childrenOf = (pid: number) => tree[pid] ?? [];

  it("is bwrap's grandchild (the namespace's init's child), not bwrap nor its init", () => {
    expect(sandboxedProgramPid(100, childrenOf)).toBe(102);
  });

  it("is found below a tmux pane's shells: the first descendant named bwrap is bwrap", () => {
    const panes: Record<number, number[]> = { 90: [95], 95: [100], ...tree };
    const names: Record<number, string> = { 90: 'sh', 95: 'bash', 100: 'bwrap', 101: 'bwrap', 102: 'sh' };
    const of = (pid: number) => panes[pid] ?? [];
    expect(sandboxedProgramPid(90, of, (pid) => names[pid])).toBe(102);
    expect(sandboxedProgramPid(100, of, (pid) => names[pid])).toBe(102);
    // No bwrap under it (gone, or never sandboxed): nobody, never a wrapper.
    expect(sandboxedProgramPid(90, of, () => 'sh')).toBeUndefined();
  });

  it('is undefined once bwrap or its init has no child', () => {
    expect(sandboxedProgramPid(103, childrenOf)).toBeUndefined();
    expect(sandboxedProgramPid(102, childrenOf)).toBeUndefined();
  });
});

describe('exitOfSignalled', () => {
  it('reads 128 + N as signal N only when N was sent', () => {
    expect(exitOfSignalled(143, new Set([15]))).toEqual({ exitCode: null, signal: 15 });
    expect(exitOfSignalled(143, new Set([2]))).toEqual({ exitCode: 143, signal: null });
    expect(exitOfSignalled(128, new Set([0]))).toEqual({ exitCode: 128, signal: null });
    expect(exitOfSignalled(0, new Set([15]))).toEqual({ exitCode: 0, signal: null });
    expect(exitOfSignalled(null, new Set([15]))).toEqual({ exitCode: null, signal: null });
  });
});
