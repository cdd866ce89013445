import { checkLeaksAfterAll } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_ROOT, taskkillArgs, taskkillPath } from '../src/taskkill.js';

describe('taskkill command lines', () => {
  it('asks softly, then forces, always for the whole tree', () => {
    expect(taskkillArgs(12, false)).toEqual(['/PID', '12', '/T']);
    expect(taskkillArgs(12, true)).toEqual(['/PID', '12', '/T', '/F']);
  });

  it('lives under SystemRoot, C:\\Windows when the environment says nothing usable', () => {
    expect(DEFAULT_SYSTEM_ROOT).toBe('C:\\Windows');
    expect(taskkillPath({})).toBe('C:\\Windows\\System32\\taskkill.exe');
    expect(taskkillPath({ SystemRoot: 'E:\\WINNT\\' })).toBe('E:\\WINNT\\System32\\taskkill.exe');
    expect(taskkillPath({ systemroot: 'E:\\W' })).toBe('E:\\W\\System32\\taskkill.exe');
    // A relative root could resolve to a planted taskkill.exe in the current directory.
    expect(taskkillPath({ SystemRoot: 'Windows' })).toBe('C:\\Windows\\System32\\taskkill.exe');
    expect(taskkillPath({ SystemRoot: undefined as unknown as string })).toBe(
      'C:\\Windows\\System32\\taskkill.exe',
    );
  });
});

checkLeaksAfterAll();
