// One definition per parameter: the schema a model reads, the parser and the TS type come from
// the same table, so a parameter cannot exist in one and be missing from another.
import { throwsWith } from '@procmux/test-utils';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createProcessTools,
  EXEC_PARAMETERS,
  type ExecParams,
  PROCESS_PARAMETERS,
  type ProcessParams,
} from '../src/index.js';
import { DEFAULT_TOOL_OPTIONS } from '../src/options.js';
import { openParams, readParams } from '../src/param-spec.js';
import { execSpec, PROCESS_SPEC } from '../src/schemas.js';

const refusal = (fn: () => unknown) => throwsWith(fn, 'ERR_INVALID_OPTION').message;

describe('one definition per tool parameter', () => {
  it('gives the type every parameter the schema names (persist on exec; fail_pattern, input, port on process)', () => {
    expectTypeOf<ExecParams>().toHaveProperty('persist');
    expectTypeOf<ProcessParams>().toHaveProperty('fail_pattern');
    expectTypeOf<ProcessParams>().toHaveProperty('input');
    expectTypeOf<ProcessParams>().toHaveProperty('port');
    expectTypeOf<ExecParams['command']>().toEqualTypeOf<string>();
    expectTypeOf<ProcessParams['action']>().toEqualTypeOf<
      | 'list'
      | 'poll'
      | 'log'
      | 'write'
      | 'paste'
      | 'submit'
      | 'send_keys'
      | 'close_stdin'
      | 'kill'
      | 'wait_for'
      | 'record'
    >();
    expect(Object.keys(EXEC_PARAMETERS.properties)).toContain('persist');
    expect(Object.keys(PROCESS_PARAMETERS.properties)).toEqual(
      expect.arrayContaining(['fail_pattern', 'input', 'port']),
    );
  });

  it('parses at every integer bound the schema states, and refuses one past it in the model-facing words', () => {
    const specs = [
      ['exec', execSpec(DEFAULT_TOOL_OPTIONS), EXEC_PARAMETERS],
      ['process', PROCESS_SPEC, PROCESS_PARAMETERS],
    ] as const;
    let checked = 0;
    for (const [tool, spec, schema] of specs) {
      for (const [name, property] of Object.entries(schema.properties) as [
        string,
        Record<string, unknown>,
      ][]) {
        if (property.type !== 'integer' || property.minimum === undefined || property.maximum === undefined)
          continue;
        const { minimum: min, maximum: max } = property as { minimum: number; maximum: number };
        const read = (value: number) =>
          readParams(spec, openParams(spec, { [name]: value }, tool), [name] as never);
        expect(read(min)).toEqual({ [name]: min });
        expect(read(max)).toEqual({ [name]: max });
        expect(refusal(() => read(max + 1))).toBe(
          `${name} must be an integer from ${min} to ${max} (got ${max + 1})`,
        );
        expect(refusal(() => read(min - 1))).toBe(
          `${name} must be an integer from ${min} to ${max} (got ${min - 1})`,
        );
        checked++;
      }
    }
    expect(checked).toBe(7);
  });

  it('reads the old camelCase names the schema lists as their new names', () => {
    const spec = execSpec(DEFAULT_TOOL_OPTIONS);
    expect(readParams(spec, openParams(spec, { command: 'x', timeoutMs: 5 }, 'exec'))).toEqual({
      command: 'x',
      timeout_ms: 5,
    });
    expect(refusal(() => openParams(spec, { timeoutMs: 5, timeout_ms: 6 }, 'exec'))).toBe(
      'pass timeout_ms or its old name timeoutMs, not both',
    );
  });

  it('states the timeouts in force in the schema each tool carries', () => {
    const { exec } = createProcessTools(
      {
        start: async () => {
          throw new Error('unused');
        },
        get: () => {
          throw new Error('unused');
        },
        list: () => [],
      },
      { oneShotTimeoutMs: 5_000 },
    );
    expect(JSON.stringify(exec.parameters)).toContain('Default 5000 for one_shot');
    expect(Object.keys((exec.parameters as typeof EXEC_PARAMETERS).properties)).toEqual(
      Object.keys(EXEC_PARAMETERS.properties),
    );
  });
});
