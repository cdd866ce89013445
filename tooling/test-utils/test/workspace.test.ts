// Test workspaces are made in the run's own temp dir, which the run removes when it ends.
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, testTmpdir } from '../src/workspace.js';

describe('makeWorkspace', () => {
  it("is made in the run's temp dir (tooling/test-tmp.ts), not straight in the OS one", () => {
    expect(process.env.PROCMUX_TEST_TMP).toMatch(/\/pmt-\w+$/);
    expect(testTmpdir()).toBe(process.env.PROCMUX_TEST_TMP);
    const workspace = makeWorkspace();
    expect(dirname(workspace)).toBe(realpathSync(testTmpdir()));
  });
});
