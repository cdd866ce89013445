// Run inside a consumer's project after `npm i @procmux/sessions`: a pipe session, then a PTY
// session (argv[2] = 'pty') or the clear PTY error and the pipe fallback ('no-pty').
import assert from 'node:assert/strict';
import { createProcessSessions } from '@procmux/sessions';

const expectPty = process.argv[2] === 'pty';
const sessions = createProcessSessions({ cwd: process.cwd() });
const node = process.execPath;
const isTty = ['-e', 'process.stdout.write("tty=" + Boolean(process.stdout.isTTY))'];

async function run(request) {
  const session = await sessions.start(request);
  const outcome = await session.wait({ timeoutMs: 30_000 });
  const { data } = await session.output({ cursor: 0 });
  return { outcome, data, meta: session.metadata() };
}

try {
  const pipe = await run({ command: 'echo hello from a pipe session', shell: true });
  assert.equal(pipe.outcome.exitCode, 0);
  assert.match(pipe.data, /hello from a pipe session/);
  console.log('pipe session: ok');

  if (expectPty) {
    const pty = await run({ command: node, args: isTty, pty: true });
    assert.equal(pty.outcome.exitCode, 0);
    assert.equal(pty.meta.stdioMode, 'pty');
    assert.match(pty.data, /tty=true/);
    console.log('pty session: ok');
  } else {
    await assert.rejects(sessions.start({ command: node, args: isTty, pty: true }), (error) => {
      assert.equal(error.code, 'ERR_PROCESS_PTY_BACKEND');
      assert.match(error.message, /@procmux\/pty-posix/);
      console.log(`pty session refused: ${error.code}: ${error.message}`);
      return true;
    });
    const fallback = await run({ command: node, args: isTty, pty: true, ptyFallback: 'pipe' });
    assert.equal(fallback.outcome.exitCode, 0);
    assert.equal(fallback.meta.stdioMode, 'pipe');
    assert.match(fallback.data, /tty=false/);
    console.log('pty session with ptyFallback pipe: ran on pipes');
  }
} finally {
  await sessions.dispose();
}
