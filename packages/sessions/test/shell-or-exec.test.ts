// `command` is an executable unless the caller says `shell: true`: a program name is never
// expanded, and the policy, the fingerprint and the metadata say which it was.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { disposeAfterEach, makeWorkspace, rejectsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { commandFingerprint, createProcessSessions, type PolicyRequest } from '../src/index.js';

const workspace = makeWorkspace();
const track = disposeAfterEach<ReturnType<typeof createProcessSessions>>();

describe.each([
  { mode: 'pipe', pty: false },
  { mode: 'pty', pty: true },
])('command without args ($mode)', ({ pty }) => {
  it('is an executable: a shell line without shell: true is refused, not expanded', async () => {
    const sessions = track(createProcessSessions({ cwd: workspace }));
    await rejectsWith(sessions.start({ command: 'echo $((6*7)) "$0"', pty }), 'ERR_PROCESS_SPAWN');
    expect(sessions.list()).toHaveLength(0);
  });

  it('runs a file whose name holds spaces and $ as that file', async () => {
    const file = join(workspace, 'it is $HOME');
    writeFileSync(file, '#!/bin/sh\necho "ran as [$0]"\n');
    chmodSync(file, 0o755);
    const sessions = track(createProcessSessions({ cwd: workspace }));
    const s = await sessions.start({ command: file, pty });
    expect((await s.wait({ timeoutMs: 10_000 })).exitCode).toBe(0);
    expect((await s.output()).data.trim()).toBe(`ran as [${file}]`);
    expect(s.metadata().shell).toBe(false);
  });

  it('with shell: true is a shell line, and the policy, fingerprint and metadata say so', async () => {
    const asked: PolicyRequest[] = [];
    const sessions = track(
      createProcessSessions({
        cwd: workspace,
        policy: (request) => {
          asked.push(request);
          return true;
        },
      }),
    );
    const line = 'echo $((6*7)) "$0"';
    const s = await sessions.start({ command: line, shell: true, pty });
    expect((await s.wait({ timeoutMs: 10_000 })).exitCode).toBe(0);
    expect((await s.output()).data.trim()).toMatch(/^42 \S*(bash|sh)$/);
    expect(s.metadata().shell).toBe(true);
    expect(s.fingerprint).toBe(commandFingerprint(line, [], true));
    expect(s.fingerprint).not.toBe(commandFingerprint(line, []));
    const exec = await sessions.start({ command: 'true', pty });
    await exec.wait({ timeoutMs: 10_000 });
    expect(exec.fingerprint).toBe(commandFingerprint('true'));
    expect(asked.map((r) => [r.action, r.command, r.shell])).toEqual([
      ['start', line, true],
      ['start', 'true', false],
    ]);
  });
});

it('refuses a shell option that is not a boolean', async () => {
  const sessions = track(createProcessSessions({ cwd: workspace }));
  const error = await rejectsWith(
    sessions.start({ command: 'true', shell: 'yes' as never }),
    'ERR_INVALID_OPTION',
  );
  expect(error.message).toMatch(/shell/);
});
