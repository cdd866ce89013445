// The model-facing `log` on full-screen programs, and terminal sessions ended by a timeout,
// through the tools on the built packages.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { toolsOnSessions } from '../helpers/tools-on-sessions.js';

const setup = toolsOnSessions();

describe.skipIf(process.platform === 'win32')(
  'log and ends of full-screen programs, through the tools',
  () => {
    it('log shows vim as it was displayed, between the shell lines, with no escape garbage', async () => {
      const { root, call, sessions: reg } = setup();
      writeFileSync(join(root, 'list.txt'), 'alpha\nbeta\n');
      const started = await call('exec', {
        command: 'echo "opening list"; vim -u NONE -N list.txt; echo "vim exited $?"',
        mode: 'session',
      });
      const id = started.data.session?.id as string;
      const session = reg.get(id);
      await waitFor(async () => (await session.screen()).includes('"list.txt" 2L'), 20_000, 'vim');
      await call('process', { action: 'write', session_id: id, data: ':q' });
      await call('process', { action: 'send_keys', session_id: id, keys: ['Enter'] });
      await call('process', { action: 'wait_for', session_id: id, exit: true, timeout: 20_000 });
      const log = await call('process', { action: 'log', session_id: id, offset: 0 });
      expect(log.text).toContain(
        'opening list\n[full-screen vim: its last screen, rendered]\nalpha\nbeta\n~\n~\n',
      );
      expect(log.text).toMatch(/~\n\[end of full-screen vim\]\nvim exited 0/);
      expect(log.text).not.toMatch(/\x1b|\[\?1049|\[\d+;\d+H/);
    });

    it('an idle interactive shell on a timeout is hung up: SIGHUP, said to be the timeout', async () => {
      const { call, sessions: reg } = setup();
      const started = await call('exec', {
        command: 'exec bash --norc --noprofile -i',
        mode: 'session',
        timeout_ms: 1_500,
      });
      const id = started.data.session?.id as string;
      const ended = await reg.get(id).wait({ timeoutMs: 20_000 });
      expect(ended).toEqual({ exitCode: null, signal: 'SIGHUP', state: 'killed' });
      expect(reg.get(id).metadata().endReason).toBe('overall-timeout');
      const status = await call('process', { action: 'poll', session_id: id });
      expect(status.text).toMatch(/SIGHUP/);
    });

    it('vim on a timeout leaves no swap file behind', async () => {
      const { root, call, sessions: reg } = setup();
      writeFileSync(join(root, 'keep.txt'), 'keep\n');
      const started = await call('exec', {
        command: 'vim -u NONE -N keep.txt',
        mode: 'session',
        timeout_ms: 3_000,
      });
      const id = started.data.session?.id as string;
      await waitFor(async () => (await reg.get(id).screen()).includes('"keep.txt"'), 20_000, 'vim');
      expect(readdirSync(root)).toContain('.keep.txt.swp');
      const ended = await reg.get(id).wait({ timeoutMs: 20_000 });
      expect(ended.signal).toBe('SIGHUP');
      expect(readdirSync(root)).toEqual(['keep.txt']);
    });
  },
);
