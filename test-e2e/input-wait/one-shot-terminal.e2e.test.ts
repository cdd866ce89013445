// one_shot gives its command a terminal as stdin only (POSIX): a prompt printed only on a
// terminal shows and is quoted, `read -s` is seen as a password prompt, a read that starts
// after a quiet while is still seen, pipes on stdout/stderr stay as they were, and the
// terminal's master never reaches another child nor outlives the run.
import { readdirSync, readlinkSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createProcessSessions } from '@procmux/sessions';
import { assertNoLeakedProcesses, waitFor, waitForSleep } from '@procmux/test-utils';
import { createProcessTools } from '@procmux/tools';
import { afterAll, describe, expect, it } from 'vitest';
import { type SdkServer, startSdk, workspace } from '../mcp/server.js';

const linux = process.platform === 'linux';

/** Descriptors of `pid` on terminal devices: ptmx masters and pts slaves. */
function terminals(pid: number | 'self'): string[] {
  return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      return /^\/dev\/(ptmx|pts\/)/.test(target) ? [`${fd}->${target}`] : [];
    } catch {
      return [];
    }
  });
}

const hostBefore = linux ? terminals('self') : [];
const sessions = createProcessSessions({ cwd: workspace() });
const tools = createProcessTools(sessions);
let server: SdkServer | undefined;

afterAll(async () => {
  await server?.close();
  await sessions.dispose();
  await assertNoLeakedProcesses();
  // Every master this host opened for a one-shot is closed again.
  if (linux) await waitFor(() => terminals('self').length === hostBefore.length, 5_000, 'masters closed');
  if (linux) expect(terminals('self')).toEqual(hostBefore);
});

const gone = (pid: number | undefined) => {
  expect(pid).toBeTypeOf('number');
  expect(() => process.kill(pid!, 0)).toThrow();
};

describe.skipIf(!linux)('one_shot with a terminal stdin (Linux, kernel detection)', () => {
  it('read -s -p "Password: ": stopped, quotes Password:, says input is not echoed, leaves nothing', async () => {
    const began = Date.now();
    const result = await tools.exec.run({ command: 'read -s -p "Password: " x; echo got $x' });
    const took = Date.now() - began;
    console.log(`one_shot read -s -p returned in ${took} ms`);
    expect(result.isError).toBe(true);
    expect(result.text).toContain(
      'it was waiting for input at "Password:" (input was not echoed: likely a password)',
    );
    expect(result.text).toContain('mode "session"');
    expect(result.text).not.toContain('got');
    expect(result.data.waitingInput).toMatchObject({
      prompt: 'Password:',
      echo: false,
      confidence: 'kernel',
    });
    gone(result.data.session?.pid);
    // Against a hang only; the bench measures the latency.
    expect(took).toBeLessThan(20_000);
  });

  it('two one-shots at a prompt at once: each stopped at its own prompt', async () => {
    const [first, second] = await Promise.all([
      tools.exec.run({ command: 'read -s -p "First secret: " x' }),
      tools.exec.run({ command: 'read -p "Second name: " y' }),
    ]);
    expect(first!.data.waitingInput).toMatchObject({ prompt: 'First secret:', echo: false });
    expect(second!.data.waitingInput).toMatchObject({ prompt: 'Second name:', echo: true });
    gone(first!.data.session?.pid);
    gone(second!.data.session?.pid);
  });

  it("sleep 3; read -p 'late> ': quiet for 3 s, then seen waiting at late> (no early end of input)", async () => {
    const began = Date.now();
    const result = await tools.exec.run({ command: "sleep 3; read -p 'late> ' x; echo got $x" });
    expect(Date.now() - began).toBeGreaterThanOrEqual(3_000);
    expect(result.isError).toBe(true);
    expect(result.data.waitingInput).toMatchObject({ prompt: 'late>', echo: true, confidence: 'kernel' });
    expect(result.text).toContain('it was waiting for input at "late>"');
    expect(result.text).not.toContain('got');
    gone(result.data.session?.pid);
  });

  it('stdout and stderr stay pipes: printf | wc -l counts as ever; wc -l alone is stopped waiting', async () => {
    const piped = await tools.exec.run({
      command: "printf 'a\\nb\\n' | wc -l; test -t 1 || echo stdout-pipe",
    });
    expect(piped.isError).toBe(false);
    expect(piped.text).toMatch(/^2\nstdout-pipe\n/);
    expect(piped.text).toContain('Process exited with code 0.');

    const bare = await tools.exec.run({ command: 'wc -l' });
    expect(bare.isError).toBe(true);
    expect(bare.data.waitingInput).toMatchObject({ prompt: '', confidence: 'kernel' });
    expect(bare.text).toContain('it was waiting for input with no prompt');
    gone(bare.data.session?.pid);
  });

  it('a read of /dev/tty (the stdin terminal, as sudo or ssh read) is seen waiting at the prompt written there', async () => {
    const result = await tools.exec.run({
      command: 'exec 3<>/dev/tty; printf "Token: " >&3; read -r t <&3; echo "read $t"',
    });
    expect(result.isError).toBe(true);
    // Nobody typed, so what reached the terminal is the program's own: the prompt is quoted.
    expect(result.data.waitingInput).toMatchObject({ prompt: 'Token:', confidence: 'kernel' });
    expect(result.text).not.toContain('read ');
    gone(result.data.session?.pid);
  });

  it("python's getpass (it prompts on /dev/tty): stopped, quotes Secret:, says input is not echoed", async () => {
    const result = await tools.exec.run({
      command: `python3 -c "import getpass; getpass.getpass('Secret: '); print('answered')"`,
    });
    expect(result.isError).toBe(true);
    expect(result.text).toContain(
      'it was waiting for input at "Secret:" (input was not echoed: likely a password)',
    );
    expect(result.data.waitingInput).toMatchObject({ prompt: 'Secret:', echo: false, confidence: 'kernel' });
    expect(result.text).not.toContain('answered');
    gone(result.data.session?.pid);
  });

  it('an event loop polling stdin with other descriptors (Node) still gets end of input', async () => {
    const result = await tools.exec.run({
      command: `node -e 'process.stdin.resume(); process.stdin.on("end", () => console.log("stdin ended"))'`,
    });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('stdin ended');
    expect(result.text).toContain('Process exited with code 0.');
  });

  it("a one-shot's terminal reaches no other child, and its master closes with it", async () => {
    const oneShot = await tools.exec.run({ command: 'exec sleep 300', yield_ms: 300 });
    expect(oneShot.data.backgrounded).toBe(true);
    const oneShotPid = oneShot.data.session!.pid!;
    await waitForSleep(oneShotPid);
    const ownTerminal = readlinkSync(`/proc/${oneShotPid}/fd/0`);
    expect(ownTerminal).toMatch(/^\/dev\/pts\/\d+$/);
    expect(readdirSync(`/proc/${oneShotPid}/fd`).sort()).toEqual(['0', '1', '2']);

    const daemon = await tools.exec.run({ command: 'exec sleep 300', mode: 'daemon' });
    const session = await tools.exec.run({ command: 'exec sleep 300', mode: 'session' });
    const second = await tools.exec.run({ command: 'exec sleep 300', yield_ms: 300 });
    const others = [daemon, session, second].map((r) => r.data.session!.pid!);
    for (const pid of others) {
      await waitForSleep(pid);
      expect(readdirSync(`/proc/${pid}/fd`).sort()).toEqual(['0', '1', '2']);
      // No master anywhere, and not the first one-shot's terminal.
      expect(terminals(pid).filter((d) => d.includes('ptmx') || d.endsWith(`->${ownTerminal}`))).toEqual([]);
    }
    const hostDuring = terminals('self');
    for (const r of [oneShot, daemon, session, second]) {
      await tools.process.run({ action: 'kill', session_id: r.data.session!.id });
    }
    for (const pid of [oneShotPid, ...others]) gone(pid);
    // The two one-shot masters and the session's master are closed again.
    await waitFor(() => terminals('self').length <= hostDuring.length - 3, 5_000, 'masters closed');
  });
});

describe.skipIf(!linux)('one_shot at a password prompt through procmux mcp (SDK client)', () => {
  it('returns saying it waited at Password:, input not echoed, and its process is gone', async () => {
    server = await startSdk(workspace());
    const began = Date.now();
    const result = (await server.client.callTool({
      name: 'exec',
      arguments: { command: 'read -s -p "Password: " x; echo got $x' },
    })) as CallToolResult;
    console.log(`procmux mcp one_shot read -s -p returned in ${Date.now() - began} ms`);
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    expect(result.isError).toBe(true);
    expect(text).toContain(
      'it was waiting for input at "Password:" (input was not echoed: likely a password)',
    );
    expect(text).not.toContain('got');
    const data = result._meta?.['procmux/result'] as { session?: { pid?: number } } | undefined;
    gone(data?.session?.pid);
  });
});
