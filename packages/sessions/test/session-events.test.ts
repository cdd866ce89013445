// The one event builder: every event of a session carries the same facts, taken as they are.
import { describe, expect, it } from 'vitest';
import type { SessionCore } from '../src/session/core.js';
import { sessionEvent } from '../src/session/events.js';

const facts = {
  id: 'proc_abc2345',
  owner: 'agent-1',
  fingerprint: 'f'.repeat(64),
  state: 'running',
  startedAt: 1_000,
  endedAt: null,
  pid: 4242,
  stdioMode: 'pty',
  exitCode: null,
  signal: null,
} as unknown as SessionCore;

describe('sessionEvent', () => {
  it("carries the session's facts, and the time of the call", () => {
    const before = Date.now();
    const event = sessionEvent(facts, 'process_started');
    expect(event).toMatchObject({
      type: 'process_started',
      sessionId: 'proc_abc2345',
      owner: 'agent-1',
      state: 'running',
      startedAt: 1_000,
      endedAt: null,
      pid: 4242,
      stdioMode: 'pty',
      exitCode: null,
      signal: null,
    });
    expect(event.at).toBeGreaterThanOrEqual(before);
    expect(Object.keys(event)).not.toContain('reason');
  });

  it('lets an event state its own time and add what it is about', () => {
    const input = { since: 5_000, echo: false, prompt: 'Password:', confidence: 'kernel' as const };
    const event = sessionEvent(facts, 'process_waiting_input', { at: input.since, input });
    expect(event.at).toBe(5_000);
    expect(event.input).toEqual(input);
  });

  it('lets process_started say null for what a fast run may already have set', () => {
    const ended = { ...facts, state: 'exited', endedAt: 2_000, exitCode: 0 } as unknown as SessionCore;
    const event = sessionEvent(ended, 'process_started', { endedAt: null, exitCode: null, signal: null });
    expect(event).toMatchObject({ state: 'exited', endedAt: null, exitCode: null });
  });
});
