// exec persist: true is checked before anything starts, and told in the tool's words.
import { createProcessSessions } from '@procmux/sessions';
import { afterEach, describe, expect, it } from 'vitest';
import { createProcessTools } from '../src/index.js';

const registries: ReturnType<typeof createProcessSessions>[] = [];
afterEach(async () => {
  for (const r of registries.splice(0)) await r.dispose();
});

function tools(options: Parameters<typeof createProcessTools>[1] = {}) {
  const sessions = createProcessSessions({ cwd: process.cwd() });
  registries.push(sessions);
  return { sessions, tools: createProcessTools(sessions, options) };
}

describe('exec persist', () => {
  it('is refused on one_shot, where it means nothing', async () => {
    const { tools: t, sessions } = tools();
    const r = await t.exec.run({ command: 'true', persist: true });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/persist does not apply to mode one_shot/);
    expect(sessions.list()).toHaveLength(0);
  });

  it('says why when the host has no persistent backend, and starts nothing', async () => {
    const { tools: t, sessions } = tools({ persistUnavailable: 'tmux was not found on PATH; install tmux' });
    const r = await t.exec.run({ command: 'sleep 5', mode: 'session', persist: true });
    expect(r).toMatchObject({ isError: true });
    expect(r.text).toMatch(
      /ERR_PROCESS_UNSUPPORTED\]: persist: true is not available here: tmux was not found on PATH/,
    );
    expect(sessions.list()).toHaveLength(0);
  });

  it('without a word from the host, the registry refusal is told as unsupported', async () => {
    const { tools: t } = tools();
    const r = await t.exec.run({ command: 'sleep 5', mode: 'daemon', persist: true });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/persist: true needs a persistent terminal backend/);
  });

  it('persist must be a boolean', async () => {
    const { tools: t } = tools();
    const r = await t.exec.run({ command: 'sleep 5', mode: 'session', persist: 'yes' });
    expect(r.text).toMatch(/persist must be true or false/);
  });
});
