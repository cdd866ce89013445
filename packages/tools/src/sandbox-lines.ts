// What the session's OS sandbox refused since the previous result about it: the last lines of
// a result, so the model learns why a write or a connection failed instead of guessing.
import { violationLine } from '@procmux/sessions';
import type { ToolSession } from './types.js';

/** Most refusal lines one result shows; more are counted in one line. */
const MAX_LINES = 10;

/**
 * Said before a refused connection to loopback: each sandboxed session has a network of its
 * own, so a model that started a server in one session (a daemon) and calls it from another (a
 * one_shot curl) is refused, and the refusal alone does not say why.
 */
export const OWN_LOOPBACK_HINT =
  "This session's localhost is its own: a server another session or this host runs is not " +
  'reachable from it. Start the server and its client in one session (`server & client` in one ' +
  'command, or both in a shell session).';
// The proxy's loopback destinations (sandbox-linux insideAddress): localhost and its subdomains,
// 127.0.0.0/8, ::1, and the unspecified addresses, which connect to loopback.
const LOOPBACK = /^(localhost|.+\.localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1?\])(:\d+)?$/i;

const told = new WeakMap<ToolSession, number>();

/** The `sandbox: ... refused` lines not told yet (none outside a sandbox). */
export function sandboxLines(session: ToolSession): string[] {
  const sandbox = session.metadata().sandbox;
  if (!sandbox) return [];
  const before = told.get(session) ?? 0;
  told.set(session, sandbox.violationCount);
  const fresh = Math.min(sandbox.violationCount - before, sandbox.violations.length);
  if (fresh <= 0) return [];
  const refused = sandbox.violations.slice(-fresh);
  const lines = [...new Set(refused.map(violationLine))];
  // Before the refusals, so that a result still ends with what the sandbox refused.
  const hint = refused.some((v) => v.kind === 'network' && LOOPBACK.test(v.target))
    ? [OWN_LOOPBACK_HINT]
    : [];
  return lines.length <= MAX_LINES
    ? [...hint, ...lines]
    : [
        ...hint,
        ...lines.slice(0, MAX_LINES),
        `sandbox: ${lines.length - MAX_LINES} more refusals (process action=list shows the policy)`,
      ];
}
