// What a sandboxed session's result says of its sandbox: each refusal once (its last lines),
// and, when a connection to loopback was refused, why (each sandboxed session has its own
// network), as a note before the state line.
import type { SandboxViolation } from '@procmux/sessions';
import { describe, expect, it } from 'vitest';
import { OWN_LOOPBACK_HINT, sandboxLines } from '../src/sandbox-lines.js';
import type { ToolSession } from '../src/types.js';

/** A session whose sandbox has seen `violations` so far (appended by the test as it goes). */
function sandboxed(violations: Pick<SandboxViolation, 'kind' | 'target'>[]): ToolSession {
  const seen = () => violations.map((v, i) => ({ ...v, at: i }));
  return {
    metadata: () => ({ sandbox: { violations: seen(), violationCount: violations.length } }),
  } as unknown as ToolSession;
}

describe('sandboxLines', () => {
  it.each([
    'localhost:8141',
    'app.localhost:3000',
    '127.0.0.1:5432',
    '127.1.2.3',
    '0.0.0.0:8000',
    '[::1]:9000',
    '[::]:80',
  ])('says why before a refused connection to loopback (%s)', (target) => {
    expect(sandboxLines(sandboxed([{ kind: 'network', target }]))).toEqual({
      notes: [OWN_LOOPBACK_HINT],
      lines: [`sandbox: connection to ${target} refused`],
    });
  });

  it.each([
    'example.com',
    'registry.npmjs.org:443',
    '10.0.0.1:80',
    'localhost.example.com',
    '127.example.com:80',
  ])('says only the refusal for a destination off loopback (%s)', (target) => {
    expect(sandboxLines(sandboxed([{ kind: 'network', target }]))).toEqual({
      notes: [],
      lines: [`sandbox: connection to ${target} refused`],
    });
  });

  it('says the hint once per result, only while a loopback refusal is new', () => {
    const violations: Pick<SandboxViolation, 'kind' | 'target'>[] = [
      { kind: 'write', target: '/etc/hosts' },
      { kind: 'network', target: 'localhost:3000' },
      { kind: 'network', target: '127.0.0.1:3000' },
    ];
    const session = sandboxed(violations);
    expect(sandboxLines(session)).toEqual({
      notes: [OWN_LOOPBACK_HINT],
      lines: [
        'sandbox: write to /etc/hosts refused',
        'sandbox: connection to localhost:3000 refused',
        'sandbox: connection to 127.0.0.1:3000 refused',
      ],
    });
    expect(sandboxLines(session)).toEqual({ notes: [], lines: [] });
    violations.push({ kind: 'write', target: '/etc/passwd' });
    expect(sandboxLines(session)).toEqual({ notes: [], lines: ['sandbox: write to /etc/passwd refused'] });
  });

  it('says nothing outside a sandbox', () => {
    const session = { metadata: () => ({}) } as unknown as ToolSession;
    expect(sandboxLines(session)).toEqual({ notes: [], lines: [] });
  });
});
