import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessSessions } from '@procmux/sessions';
import { expect, it } from 'vitest';
import { createTmuxBackend } from '../src/index.js';

it('smoke', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pmt-'));
  const tmux = createTmuxBackend({ dir });
  const sessions = createProcessSessions({ cwd: process.cwd(), ptyBackend: tmux });
  const t0 = Date.now();
  const s = await sessions.start({ command: 'sh', args: ['-c', 'seq 1 100000; echo __END__; read x; echo got $x; exit 3'], pty: true });
  console.log('started', Date.now() - t0, s.metadata());
  await new Promise((r) => setTimeout(r, 1500));
  await s.input('hello\r');
  const exit = await s.wait({ timeoutMs: 10000 });
  console.log('exit', exit, Date.now() - t0);
  const log = await s.log({});
  console.log(JSON.stringify(log).slice(0, 300));
  await sessions.dispose();
  await tmux.killServer();
  expect(1).toBe(1);
});
