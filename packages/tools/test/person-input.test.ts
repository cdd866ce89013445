// A one_shot's hidden prompt handed to a person (context.askPerson) instead of being stopped.
import { withoutUsage } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import type { PersonOutcome, PersonRequest } from '../src/index.js';
import { closingHarness } from './helpers.js';

const harness = closingHarness();
// The kernel tells a hidden read apart on Linux only.
const linux = process.platform === 'linux';

/** A person who answers each prompt with the next of `answers`, and what they were asked. */
function person(answers: string[]) {
  const asked: PersonRequest[] = [];
  const ask = async (request: PersonRequest): Promise<PersonOutcome> => {
    asked.push(request);
    const answer = answers.shift();
    if (answer === undefined) return 'declined';
    await request.deliver(answer);
    return 'answered';
  };
  return { ask, asked };
}

describe('a person answers a one_shot hidden prompt', () => {
  it.runIf(linux)('types the answer into the program and goes on; the reply never shows it', async () => {
    const h = harness();
    const p = person(['hunter2-secret']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion
    const command = 'read -s -p "Password: " pw; echo "got ${#pw} chars"';
    const r = await h.tools.exec.run({ command }, { askPerson: p.ask });
    expect(r.isError).toBe(false);
    expect(withoutUsage(r.text)).toBe(
      'Password: got 14 chars\n\nA person answered its hidden prompt ("Password:") through the view; what they typed went to the program only and is not shown.\nProcess exited with code 0.',
    );
    expect(r.data.personAnswered).toBe(1);
    expect(p.asked).toHaveLength(1);
    expect(p.asked[0]!.prompt).toBe('Password:');
    expect(p.asked[0]!.timeoutMs).toBeGreaterThan(100_000);
    expect(JSON.stringify(r)).not.toContain('hunter2');
  });

  it.runIf(linux)('asks again for a second hidden prompt, once per prompt', async () => {
    const h = harness();
    const p = person(['one', 'two22']);
    const command =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansions
      'read -s -p "First: " a; echo; read -s -p "Second: " b; echo "${#a} ${#b}"';
    const r = await h.tools.exec.run({ command }, { askPerson: p.ask });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('3 5');
    expect(p.asked.map((a) => a.prompt)).toEqual(['First:', 'Second:']);
    expect(r.data.personAnswered).toBe(2);
  });

  it.runIf(linux)('stops the one_shot as before when the person declines', async () => {
    const h = harness();
    const p = person([]);
    const r = await h.tools.exec.run({ command: 'read -s -p "Password: " pw' }, { askPerson: p.ask });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(
      'procmux stopped it: it was waiting for input at "Password:" (input was not echoed',
    );
    // A password is not suggested for a command line.
    expect(r.text).not.toContain('on its stdin');
    expect(r.data.personAnswered).toBeUndefined();
  });

  it.runIf(linux)('does not ask about a prompt that echoes (not a password)', async () => {
    const h = harness();
    const p = person(['x']);
    const r = await h.tools.exec.run({ command: 'read -p "Name: " n' }, { askPerson: p.ask });
    expect(r.isError).toBe(true);
    expect(p.asked).toHaveLength(0);
  });
});
