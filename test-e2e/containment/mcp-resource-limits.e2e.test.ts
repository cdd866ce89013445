// `procmux mcp --session-memory 256M --session-pids 64`, driven by the official MCP SDK client:
// a one_shot allocating 700 MiB ends with the out-of-memory line while a REPL started before
// still answers; a daemon forking 200 sleeps sees its own fork errors, never has more than 64
// alive, leaves none once killed, and the server answers `echo hi` meanwhile. Linux, where
// this host gives each session a cgroup with the memory and pids controllers.
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { assertNoLeakedProcesses, trackPid, waitFor, withoutUsage } from '@procmux/test-utils';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../node_modules/@procmux/mcp/dist/cli.js', import.meta.url));

afterAll(async () => {
  await assertNoLeakedProcesses();
});

const linuxRoot = process.platform === 'linux' && process.getuid?.() === 0;

function text(result: unknown): string {
  return ((result as CallToolResult).content[0] as { text: string }).text;
}

/** Live processes whose whole command line is `sleep <n>`. */
function sleeps(n: string): number {
  let count = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') !== `sleep\0${n}\0`) continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z') count += 1;
    } catch {}
  }
  return count;
}

describe.skipIf(!linuxRoot)('procmux mcp with per-session limits (Linux cgroups)', () => {
  it('kills the 700 MiB one_shot at 256M with the OOM line, the REPL answers; pids 64 holds against 200 forks', async () => {
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'procmux-rlimits-')));
    // A state dir of its own, not one in ~/.local/state (the server's default).
    const state = mkdtempSync(join(tmpdir(), 'pm-state-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        CLI,
        'mcp',
        '--cwd',
        workspace,
        '--state-dir',
        state,
        '--session-memory',
        '256M',
        '--session-pids',
        '64',
      ],
      stderr: 'inherit',
    });
    const client = new Client({ name: 'procmux-rlimits', version: '1.0.0' });
    await client.connect(transport);
    trackPid(transport.pid ?? undefined);
    const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
    try {
      const repl = await call('exec', { command: 'python3 -i -q', mode: 'session' });
      const replId = /proc_\w+/.exec(text(repl))![0];
      const hog = await call('exec', { command: `python3 -c 'x = bytearray(700 * 1024 * 1024)'` });
      expect(withoutUsage(text(hog))).toMatch(/\n\nProcess killed: out of memory \(limit 256 MiB\)\.$/);
      await call('process', { action: 'write', session_id: replId, data: 'print(6 * 7)\n' });
      const answer = await call('process', {
        action: 'wait_for',
        session_id: replId,
        pattern: '^42$',
        timeout: 10_000,
      });
      expect(text(answer)).toContain('42');

      const n = `30${Math.floor(Math.random() * 1e6)}.5`;
      const forker = [
        'import os, sys',
        'ok = failed = 0',
        'for _ in range(200):',
        '    try:',
        '        if os.fork() == 0:',
        `            os.execv("/bin/sleep", ["sleep", "${n}"])`,
        '        ok += 1',
        '    except OSError as e:',
        '        failed += 1',
        '        err = e.strerror',
        'print(f"started {ok} failed {failed}: {err}", flush=True)',
        'sys.stdin.readline()',
      ].join('\n');
      const daemon = await call('exec', { command: `python3 -c '${forker}'`, mode: 'daemon' });
      const forkerId = /proc_\w+/.exec(text(daemon))![0];
      const report = await call('process', {
        action: 'wait_for',
        session_id: forkerId,
        pattern: 'started \\d+ failed',
        timeout: 30_000,
      });
      const [, ok, failed] =
        /started (\d+) failed (\d+): Resource temporarily unavailable/.exec(
          // The line may come in exec's own reply (the wait then finds it already shown).
          `${text(daemon)}\n${text(report)}`,
        ) ?? [];
      expect(Number(ok) + Number(failed)).toBe(200);
      expect(Number(failed)).toBeGreaterThanOrEqual(137);
      // A forked child is python until its execv: under load some had not become sleep yet
      // when the report came (60 of 63 counted once in a stress run). Wait for all of them.
      await waitFor(() => sleeps(n) === Number(ok), 30_000, `the ${ok} forked children to be sleep`);
      expect(sleeps(n)).toBeLessThanOrEqual(63);
      // The server still answers while the session sits at its limit.
      const started = performance.now();
      const hi = await call('exec', { command: 'echo hi' });
      console.log(
        `echo hi answered in ${Math.round(performance.now() - started)} ms with a session at pids.max`,
      );
      expect(withoutUsage(text(hi))).toBe('hi\n\nProcess exited with code 0.');
      await call('process', { action: 'kill', session_id: forkerId });
      await waitFor(() => sleeps(n) === 0, 10_000, 'the sleeps to be gone');
    } finally {
      await client.close();
      rmSync(workspace, { recursive: true, force: true });
      rmSync(state, { recursive: true, force: true });
    }
  });
});
