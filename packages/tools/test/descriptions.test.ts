import { describe, expect, it } from 'vitest';
import { createProcessTools, EXEC_PARAMETERS, PROCESS_PARAMETERS } from '../src/index.js';
import { execParameters, seconds } from '../src/schemas.js';
import type { ToolSessions } from '../src/types.js';

// Building the tools starts nothing, so a registry that refuses every call is enough here.
const idle: ToolSessions = {
  start: () => Promise.reject(new Error('not used')),
  get: () => {
    throw new Error('not used');
  },
  list: () => [],
};

describe('tool descriptions follow the options in force', () => {
  it('states the default one-shot timeouts (120 s, 60 s) when the host sets none', () => {
    const { exec } = createProcessTools(idle);
    expect(exec.description).toContain('killed after 120 s, or after 60 s without output');
    expect(exec.parameters).toEqual(EXEC_PARAMETERS);
    expect(JSON.stringify(exec.parameters)).toContain('Default 120000 for one_shot');
  });

  it('states configured one-shot timeouts, in the description and in the schema', () => {
    const { exec } = createProcessTools(idle, { oneShotTimeoutMs: 300_000, oneShotNoOutputTimeoutMs: 1_500 });
    expect(exec.description).toContain('killed after 300 s, or after 1500 ms without output');
    expect(exec.description).not.toContain('120 s');
    const properties = exec.parameters.properties as Record<string, { description: string }>;
    expect(properties.mode!.description).toContain('300 s overall and 1500 ms no-output timeouts');
    expect(properties.timeout_ms!.description).toContain('Default 300000 for one_shot');
    expect(properties.no_output_timeout_ms!.description).toContain('Default 1500 for one_shot');
  });

  it('refuses exec parameters outside the limits the schema states', async () => {
    const { exec } = createProcessTools(idle);
    const max = EXEC_PARAMETERS.properties.yield_ms.maximum;
    const result = await exec.run({ command: 'true', yield_ms: max + 1 });
    expect(result.isError).toBe(true);
    expect(result.data.error?.code).toBe('ERR_INVALID_OPTION');
    expect(result.text).toContain(`yield_ms must be an integer from 0 to ${max}`);
  });

  it('says the wait limits the process schema states', () => {
    const timeout = PROCESS_PARAMETERS.properties.timeout.description;
    expect(timeout).toContain('0-120000');
    expect(timeout).toContain(`1-${PROCESS_PARAMETERS.properties.idle_ms.maximum}`);
  });

  it('reports a failure that is not a ProcmuxError as ERR_INTERNAL', async () => {
    const broken: ToolSessions = {
      ...idle,
      list: () => [],
      start: () => Promise.reject(new TypeError('boom')),
    };
    const result = await createProcessTools(broken).exec.run({ command: 'true', mode: 'daemon' });
    expect(result.isError).toBe(true);
    expect(result.data.error).toEqual({ code: 'ERR_INTERNAL', message: 'boom' });
    expect(result.text).toContain('Error [ERR_INTERNAL]: boom');
  });
});

describe('durations in descriptions', () => {
  it.each([
    [120_000, '120 s'],
    [60_000, '60 s'],
    [1_500, '1500 ms'],
    [1, '1 ms'],
  ])('says %i ms as %s', (ms, words) => {
    expect(seconds(ms)).toBe(words);
  });

  it('a schema built for other timeouts differs from the default only in its words', () => {
    const other = execParameters({ oneShotTimeoutMs: 5_000, oneShotNoOutputTimeoutMs: 2_000 });
    const strip = (schema: unknown) =>
      JSON.stringify(schema, (key, value) => (key === 'description' ? '' : value));
    expect(strip(other)).toBe(strip(EXEC_PARAMETERS));
    expect(other.properties.timeout_ms.description).toContain('Default 5000');
  });
});
