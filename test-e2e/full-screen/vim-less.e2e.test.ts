// Full-screen programs driven through the model-facing tools, on the built packages: what a
// model does with vim and less, checked against the file system and the rendered screen.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor, withoutUsage } from '@procmux/test-utils';
import { expect, it } from 'vitest';
import { toolsOnSessions } from '../helpers/tools-on-sessions.js';

const setup = toolsOnSessions();

it('edits a file in vim through send_keys and :wq, then the shell output continues', async () => {
  const { root, call, sessions: reg } = setup();
  const started = await call('exec', {
    command: 'vim -u NONE -N notes.txt; echo "vim exited $?"',
    mode: 'session',
  });
  const id = started.data.session?.id as string;
  const session = reg.get(id);
  await waitFor(async () => (await session.screen()).includes('notes.txt'), 20_000, 'vim to draw');
  await call('process', { action: 'send_keys', session_id: id, keys: ['i'] });
  await call('process', { action: 'write', session_id: id, data: 'written by a model' });
  await call('process', { action: 'send_keys', session_id: id, keys: ['Escape'] });
  await waitFor(async () => (await session.screen()).includes('written by a model'), 20_000, 'the text');
  await call('process', { action: 'write', session_id: id, data: ':wq' });
  await call('process', { action: 'send_keys', session_id: id, keys: ['Enter'] });
  const done = await call('process', { action: 'wait_for', session_id: id, exit: true, timeout: 20_000 });
  expect(withoutUsage(done.text)).toMatch(/Process exited with code 0\.$/);
  expect(readFileSync(join(root, 'notes.txt'), 'utf8')).toBe('written by a model\n');
  // After vim leaves the alternate screen, the shell's own output follows on the main screen.
  expect(await session.screen()).toContain('vim exited 0');
});

// What a model writes first: paste the text, Escape, paste ':wq', submit. A bracketed paste in
// vim's normal mode inserts the text: the file got "hello:wq" and vim never quit.
it('saves and quits vim through paste and submit, as typing :wq would', async () => {
  const { root, call } = setup();
  const started = await call('exec', { command: 'vim --clean typed.txt', mode: 'session' });
  const id = started.data.session?.id as string;
  await call('process', { action: 'send_keys', session_id: id, keys: ['i'] });
  await call('process', { action: 'paste', session_id: id, text: 'pasted by a model' });
  await call('process', { action: 'send_keys', session_id: id, keys: ['Escape'] });
  await call('process', { action: 'paste', session_id: id, text: ':wq' });
  await call('process', { action: 'submit', session_id: id });
  const done = await call('process', { action: 'wait_for', session_id: id, exit: true, timeout: 20_000 });
  expect(withoutUsage(done.text)).toMatch(/Process exited with code 0\.$/);
  expect(readFileSync(join(root, 'typed.txt'), 'utf8')).toBe('pasted by a model\n');
});

// vim draws its first screen in more than one burst: exec's reply appended the rows each poll
// redrew (31 rows of `~` and the status line, then 6 more `~` and the status line again).
it("shows vim's screen in exec's first reply once, as a person sees it", async () => {
  const { call } = setup();
  const started = await call('exec', { command: 'vim -u NONE -N first.txt', mode: 'session' });
  const id = started.data.session?.id as string;
  const body = started.text.split('\n').slice(1, -2);
  expect(body.filter((line) => line.includes('"first.txt"'))).toHaveLength(1);
  expect(body.length).toBeLessThanOrEqual(40);
  await call('process', { action: 'write', session_id: id, data: ':q!' });
  await call('process', { action: 'send_keys', session_id: id, keys: ['Enter'] });
  await call('process', { action: 'wait_for', session_id: id, exit: true, timeout: 20_000 });
});

it('pages a file in less with send_keys and quits with q', async () => {
  const { root, call, sessions: reg } = setup();
  writeFileSync(join(root, 'long.txt'), Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join('\n'));
  const started = await call('exec', { command: 'less long.txt', mode: 'session' });
  const id = started.data.session?.id as string;
  const session = reg.get(id);
  await waitFor(async () => (await session.screen()).includes('line 1\n'), 20_000, 'the first page');
  await call('process', { action: 'send_keys', session_id: id, keys: ['G'] });
  await waitFor(async () => (await session.screen()).includes('line 500'), 20_000, 'the last page');
  await call('process', { action: 'send_keys', session_id: id, keys: ['q'] });
  const done = await call('process', { action: 'wait_for', session_id: id, exit: true, timeout: 20_000 });
  expect(withoutUsage(done.text)).toMatch(/Process exited with code 0\.$/);
});
