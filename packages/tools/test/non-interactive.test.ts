import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertNoLeakedProcesses, withoutUsage } from '@procmux/test-utils';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type Harness, harness, lastLine } from './helpers.js';

let h: Harness | undefined;
let server: Server | undefined;
const saved = {
  SSH_ASKPASS: process.env.SSH_ASKPASS,
  SHLVL: process.env.SHLVL,
  HOME: process.env.HOME,
  GIT_PAGER: process.env.GIT_PAGER,
  PAGER: process.env.PAGER,
};

afterEach(async () => {
  await h?.close();
  h = undefined;
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});
afterAll(async () => {
  await assertNoLeakedProcesses();
});

// git must ignore the machine's own configuration (credential helpers, pagers, identity).
const HERMETIC_GIT = { GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

/** A git repository with `count` commits, built in one fast-import run. */
function repoWithCommits(dir: string, count: number): void {
  execFileSync('git', ['init', '-q', dir], { env: { ...process.env, ...HERMETIC_GIT } });
  const stream: string[] = [];
  for (let i = 1; i <= count; i++) {
    const message = `commit number ${i}\n`;
    stream.push('commit refs/heads/main', `committer T <t@example.com> ${1_700_000_000 + i} +0000`);
    stream.push(`data ${Buffer.byteLength(message)}`, message.slice(0, -1));
    stream.push(`M 644 inline file.txt`, `data ${String(i).length}`, String(i), '');
  }
  execFileSync('git', ['fast-import', '--quiet'], {
    cwd: dir,
    input: `${stream.join('\n')}\n`,
    env: { ...process.env, ...HERMETIC_GIT },
  });
  execFileSync('git', ['symbolic-ref', 'HEAD', 'refs/heads/main'], { cwd: dir });
}

/**
 * Runs its arguments under a terminal of their own and copies every byte to stdout. Not
 * `pty.spawn`: Python 3.11's copy loop returns at the terminal's end with up to 4 KiB read but
 * not yet written whenever its stdout was slow to drain (13 of 20 runs lost the last commits
 * with no procmux involved, a reader taking 2 KiB every 2 ms from a socketpair).
 */
const RELAY = `import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
`;

/**
 * Sets up `root/repo` (300 commits), a pager that never ends as the host's PAGER and GIT_PAGER,
 * and returns a command running `git log` with a terminal as its stdout (Python's pty module,
 * which works on Linux and macOS alike).
 */
function gitLogInATerminal(root: string): string {
  repoWithCommits(join(root, 'repo'), 300);
  const pager = join(root, 'pager.sh');
  writeFileSync(pager, '#!/bin/sh\nexec sleep 30\n');
  chmodSync(pager, 0o755);
  process.env.GIT_PAGER = pager;
  process.env.PAGER = pager;
  const wrapper = join(root, 'in-a-terminal.py');
  writeFileSync(wrapper, RELAY);
  return `python3 ${wrapper} git log`;
}

/** An HTTP server that asks every request for a login, as a private git host does. */
async function authServer(): Promise<number> {
  server = createServer((_req, res) => {
    res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="private"', 'Content-Type': 'text/plain' });
    res.end('login required\n');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server!.address() as AddressInfo).port;
}

describe('one_shot non-interactive defaults', () => {
  it('sets pager, prompt and editor variables for the command', async () => {
    h = harness();
    const r = await h.exec({
      command:
        'sh -c \'echo "$PAGER|$GIT_PAGER|$GIT_TERMINAL_PROMPT|$GIT_EDITOR|$DEBIAN_FRONTEND|[$GIT_ASKPASS]"\'',
    });
    expect(withoutUsage(r.text)).toBe('cat|cat|0|true|noninteractive|[]\n\nProcess exited with code 0.');
  });

  it("lets the caller's env override a default", async () => {
    h = harness();
    const r = await h.exec({ command: 'echo "$GIT_PAGER $PAGER"', env: { GIT_PAGER: 'less -R' } });
    expect(withoutUsage(r.text)).toBe('less -R cat\n\nProcess exited with code 0.');
  });

  it('leaves session and daemon environments alone', async () => {
    h = harness();
    const r = await h.exec({
      command: 'echo "pager=[$GIT_PAGER]"; sleep 30',
      mode: 'daemon',
      env: { GIT_PAGER: '' },
    });
    expect(r.text).toContain('pager=[]');
  });

  // git pages only when its stdout is a terminal, and a one_shot runs on pipes: so git runs
  // here under a terminal of its own (as `script`, `ssh -t` or `docker -t` would give it), with
  // the host's pager set to one that never ends, as `less` waits for a key.
  it('runs git log over 300 commits to the end under a terminal instead of waiting on a pager', async () => {
    h = harness();
    const command = gitLogInATerminal(h.root);
    const r = await h.exec({ command, cwd: 'repo', env: HERMETIC_GIT, timeout_ms: 60_000 });
    expect(r.data.session).toMatchObject({ state: 'exited', exitCode: 0 });
    const text = r.text.replaceAll('\r\n', '\n');
    expect(text).toContain('commit number 300');
    // The first commit is the last thing git prints: the whole log came through.
    expect(withoutUsage(text)).toMatch(/commit number 1\n\nProcess exited with code 0\.$/);
  });

  it('would wait on that pager without the defaults (the setup above is a real trap)', async () => {
    h = harness({ nonInteractiveEnv: {} });
    const command = gitLogInATerminal(h.root);
    const r = await h.exec({ command, cwd: 'repo', env: HERMETIC_GIT, timeout_ms: 3_000 });
    expect(r.data.session?.state).toBe('killed');
    // On Linux the pager is seen waiting for input and stopped; elsewhere the timeout ends it.
    expect(r.text).toMatch(/it ran past timeout_ms \(3000 ms\)|it was waiting for input/);
    expect(r.text).not.toContain('commit number 1\n');
  });

  it('makes git fail fast at a server that asks for credentials instead of prompting', async () => {
    h = harness();
    const port = await authServer();
    const r = await h.exec({
      command: `git clone http://127.0.0.1:${port}/repo.git cloned`,
      env: HERMETIC_GIT,
      // Far below the one_shot default: a prompt would show up as a kill, not an exit.
      timeoutMs: 20_000,
    });
    expect(r.data.session?.state).toBe('exited');
    expect(r.data.session?.exitCode).not.toBe(0);
    expect(r.text).toMatch(
      /could not read Username for 'http:\/\/127\.0\.0\.1:\d+': terminal prompts disabled/,
    );
    expect(withoutUsage(lastLine(r.text))).toMatch(/^Process exited with code [1-9]\d*\.$/);
  });

  it("does not start the desktop's password helper (SSH_ASKPASS) either", async () => {
    h = harness();
    const helper = join(h.root, 'askpass.sh');
    writeFileSync(helper, '#!/bin/sh\nsleep 30\n');
    chmodSync(helper, 0o755);
    process.env.SSH_ASKPASS = helper;
    const port = await authServer();
    const command = `git clone http://127.0.0.1:${port}/repo.git cloned`;
    const r = await h.exec({ command, env: HERMETIC_GIT, timeout_ms: 20_000 });
    expect(r.data.session?.state).toBe('exited');
    expect(r.text).toContain('terminal prompts disabled');
  });

  it('would hang on that helper without the defaults (the setup above is a real trap)', async () => {
    h = harness({ nonInteractiveEnv: {} });
    const helper = join(h.root, 'askpass.sh');
    writeFileSync(helper, '#!/bin/sh\nsleep 30\n');
    chmodSync(helper, 0o755);
    process.env.SSH_ASKPASS = helper;
    const port = await authServer();
    const command = `git clone http://127.0.0.1:${port}/repo.git cloned`;
    const r = await h.exec({ command, env: HERMETIC_GIT, timeout_ms: 1_500 });
    expect(r.data.session?.state).toBe('killed');
    expect(r.text).toContain('it ran past timeout_ms (1500 ms)');
  });
});

/** A home whose .bashrc announces itself, as a stand-in for a user's real one. */
function homeWithBashrc(): string {
  const home = mkdtempSync(join(tmpdir(), 'procmux-home-'));
  writeFileSync(join(home, '.bashrc'), 'echo "bashrc ran"\n');
  return home;
}

// bash runs ~/.bashrc for `bash -c` on a socket stdin when SHLVL is unset (Debian, Ubuntu),
// and MCP hosts start servers with a bare environment: a .bashrc must not run in commands.
describe('a host started with a bare environment (no SHLVL)', () => {
  it("runs one_shot and daemon commands without the user's .bashrc", async () => {
    const home = homeWithBashrc();
    delete process.env.SHLVL;
    process.env.HOME = home;
    try {
      h = harness();
      const r = await h.exec({ command: 'echo hi' });
      expect(withoutUsage(r.text)).toBe('hi\n\nProcess exited with code 0.');
      const d = await h.exec({ command: 'echo up; sleep 30', mode: 'daemon' });
      expect(d.text).toContain('\nup\n');
      expect(d.text).not.toContain('bashrc ran');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
