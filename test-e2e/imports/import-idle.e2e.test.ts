import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { assertNoLeakedProcesses, testTmpdir } from '@procmux/test-utils';
import { afterAll, expect, it } from 'vitest';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));

const PACKAGES = [
  'core-types',
  'shell-wrap',
  'key-encoder',
  'ansi',
  'screen',
  'registry',
  'transcript',
  'kill-posix',
  'kill-windows',
  'pty-posix',
  'pty-windows-conpty',
  'supervisor',
  'sessions',
  'tools',
  'mcp',
  'store-sqlite',
  'store-postgres',
  'view',
  // Last: the script below names the modules by index.
  'pty-core',
];

afterAll(async () => {
  await assertNoLeakedProcesses();
});

it('importing every package and constructing a registry keeps nothing alive', async () => {
  const workspace = mkdtempSync(join(testTmpdir(), 'procmux-idle-'));
  const script = `
    ${PACKAGES.map((name, i) => `const m${i} = await import('@procmux/${name}');`).join('\n')}
    const sessions = m${PACKAGES.indexOf('sessions')}.createProcessSessions({ cwd: ${JSON.stringify(workspace)} });
    const tools = m${PACKAGES.indexOf('tools')}.createProcessTools(sessions, {});
    if (!tools.exec || !tools.process) throw new Error('tools missing');
    // Nothing may hold the event loop open: no timer, no handle, no child.
    const handles = process._getActiveHandles().filter((h) => !(h === process.stdout || h === process.stderr || h === process.stdin));
    console.log('handles=' + handles.length);
  `;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: here,
    timeout: 20_000,
  });
  // The child printed and then exited by itself: execFile resolved, nothing kept it alive.
  expect(stdout.trim()).toBe('handles=0');
});
