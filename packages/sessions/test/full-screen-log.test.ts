import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertNoLeakedProcesses, waitFor } from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createProcessSessions, type ProcessSession, type ProcessSessions } from '../src/index.js';
import { makeWorkspace } from './helpers/workspace.js';

const workspace = makeWorkspace();
const rc = join(workspace, 'bashrc');
writeFileSync(rc, "PS1='$ '\n");
let sessions: ProcessSessions | undefined;

afterEach(async () => {
  await sessions?.dispose();
  sessions = undefined;
});

afterAll(async () => {
  await assertNoLeakedProcesses();
});

async function shell(): Promise<ProcessSession> {
  sessions = createProcessSessions({ cwd: workspace });
  const s = await sessions.start({
    command: 'bash',
    // A fixed prompt, so the lines around a full-screen program can be asserted exactly.
    args: ['--noprofile', '--rcfile', rc, '-i'],
    pty: true,
    terminal: { columns: 80, rows: 24 },
  });
  await prompt(s, 1);
  return s;
}

async function prompt(s: ProcessSession, count: number): Promise<void> {
  await waitFor(
    async () => ((await s.screen()).match(/^\$( |$)/gm) ?? []).length >= count,
    15_000,
    `${count} prompts`,
  ).catch(async (e) => {
    console.log(JSON.stringify(await s.screen()));
    throw e;
  });
}

describe.skipIf(process.platform === 'win32')('log renders full-screen programs', () => {
  it('less top', async () => {
    writeFileSync(
      join(workspace, 'long.txt'),
      Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join('\n'),
    );
    const s = await shell();
    await s.input('less long.txt; echo after\r');
    await waitFor(async () => (await s.screen()).includes('line 23'), 15_000, 'less');
    await s.input('q');
    await prompt(s, 2);
    console.log(JSON.stringify(await s.log({ limit: 100 }), null, 1));
    await s.input('top -b -n 1 | head -5; top -d 0.3; echo after\r');
    await waitFor(async () => (await s.screen()).includes('PID USER'), 15_000, 'top');
    await new Promise((r) => setTimeout(r, 500));
    await s.input('q');
    await new Promise((r) => setTimeout(r, 1500));
    writeFileSync('/tmp/x16/top.log', (await s.log({ offset: 0, limit: 2000 })).text);
    let all = '';
    for (let cursor = 0; ; ) {
      const page = await s.output({ cursor });
      all += page.data;
      if (page.eof) break;
      cursor = page.cursor;
    }
    writeFileSync('/tmp/x16/top.raw', all);
  });

  it('vim', async () => {
    writeFileSync(join(workspace, 'notes.txt'), 'first line\nsecond line\n');
    const s = await shell();
    await s.input('echo before; vim -u NONE -N notes.txt; echo after\r');
    await waitFor(async () => (await s.screen()).includes('second line'), 15_000, 'vim');
    console.log(JSON.stringify(await s.log({ limit: 100 }), null, 1));
    await s.input(':q\r');
    await prompt(s, 2);
    console.log(JSON.stringify(await s.log({ limit: 100 }), null, 1));
  });
});
