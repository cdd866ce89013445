import { assertNoLeakedProcesses, sshdSkipReason, type TestSshd } from '@procmux/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeWorld, openWorld, type SshWorld, settleSurvivors, startTestSshd } from './helpers.js';

const skip = sshdSkipReason();

describe.skipIf(skip !== undefined)('sessions over SSH (real sshd on loopback)', () => {
  let sshd: TestSshd;
  let world: SshWorld | undefined;
  beforeAll(async () => {
    sshd = await startTestSshd();
  });
  afterEach(async () => {
    await closeWorld(world);
    world = undefined;
    expect(await settleSurvivors()).toEqual([]);
  });
  afterAll(async () => {
    await sshd?.stop();
    await assertNoLeakedProcesses();
  });

  it('runs through sshd: $SSH_CONNECTION is set', async () => {
    world = await openWorld(sshd);
    const s = await world.sessions.start({ command: 'echo "conn=$SSH_CONNECTION"; pwd' });
    const exit = await s.wait({ timeoutMs: 10_000 });
    const out = (await s.poll()).stdout;
    expect(out).toMatch(/conn=127\.0\.0\.1 \d+ 127\.0\.0\.1 \d+/);
    expect(out).toContain(world.workspace);
    expect(exit).toMatchObject({ exitCode: 0, signal: null, state: 'exited' });
  });
});
