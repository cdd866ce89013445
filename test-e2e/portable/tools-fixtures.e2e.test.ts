// The model-facing tools on every OS, against the built packages: the commands are the Node
// fixtures of @procmux/test-utils, given to the platform's shell (bash, or cmd on Windows).
import { mkdtempSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { createProcessSessions, type ProcessSessions } from '@procmux/sessions';
import {
  announcedPids,
  assertNoLeakedProcesses,
  fixture,
  isAlive,
  testTmpdir,
  trackPid,
  waitFor,
  withoutUsage,
} from '@procmux/test-utils';
import { createProcessTools } from '@procmux/tools';
import { afterAll, afterEach, expect, it } from 'vitest';

let sessions: ProcessSessions | undefined;

afterEach(async () => {
  await sessions?.dispose();
  sessions = undefined;
});

// A command line for the platform's shell: double quotes mean the same to bash and cmd for
// paths without quotes, dollars or percent signs, which is all these are.
function commandLine(name: Parameters<typeof fixture>[0], ...args: string[]): string {
  const { file, args: argv } = fixture(name, ...args);
  return [file, ...argv].map((part) => `"${part}"`).join(' ');
}

function setup() {
  sessions = createProcessSessions({
    cwd: realpathSync(mkdtempSync(join(testTmpdir(), 'procmux-portable-'))),
  });
  const tools = createProcessTools(sessions, {});
  const registry = sessions;
  return {
    registry,
    run: (tool: 'exec' | 'process', params: Record<string, unknown>) => tools[tool].run(params, {}),
  };
}

it('one_shot: the output and the exit code, in text a model reads', async () => {
  const { run } = setup();
  const result = await run('exec', { command: commandLine('lines', '3', '4') });
  expect(result.text).toContain('line 1\nline 2\nline 3');
  expect(withoutUsage(result.text)).toMatch(/Process exited with code 4\.$/);
});

it('one_shot: a program waiting for an answer gets EOF instead of hanging', async () => {
  const { run } = setup();
  const result = await run('exec', { command: commandLine('answer') });
  expect(withoutUsage(result.text)).toMatch(/Process exited with code 3\.$/);
});

it('daemon, then kill: every process of the tree ends, the detached grandchild too', async () => {
  const { run, registry } = setup();
  const started = await run('exec', { command: commandLine('tree'), mode: 'daemon' });
  const id = started.data.session?.id as string;
  const text = await waitFor(
    async () => {
      const data = (await registry.get(id).output({ cursor: 0 })).data;
      return data.includes('ready') ? data : undefined;
    },
    30_000,
    'the tree',
  );
  const pids = announcedPids(text ?? '');
  for (const pid of pids.values()) trackPid(pid);
  const killed = await run('process', { action: 'kill', session_id: id });
  expect(killed.isError).toBe(false);
  await waitFor(() => [...pids.values()].every((pid) => !isAlive(pid)), 15_000, 'the tree to end');
});

it('session (a terminal): submit to a prompt loop and read the answer', async () => {
  const { run } = setup();
  const started = await run('exec', { command: commandLine('prompt-loop'), mode: 'session' });
  const id = started.data.session?.id as string;
  await run('process', { action: 'paste', session_id: id, text: 'four' });
  await run('process', { action: 'submit', session_id: id });
  const seen = await run('process', { action: 'wait_for', session_id: id, pattern: '= 4', timeout: 30_000 });
  expect(seen.isError).toBe(false);
  await run('process', { action: 'paste', session_id: id, text: 'exit' });
  await run('process', { action: 'submit', session_id: id });
  const done = await run('process', { action: 'wait_for', session_id: id, exit: true, timeout: 30_000 });
  expect(withoutUsage(done.text)).toMatch(/Process exited with code 0\.$/);
});

afterAll(async () => {
  await assertNoLeakedProcesses();
});
