// What the session's OS sandbox refused since the previous result about it: the last lines of
// a result, so the model learns why a write or a connection failed instead of guessing.
import { violationLine } from '@procmux/sessions';
import type { ToolSession } from './types.js';

/** Most refusal lines one result shows; more are counted in one line. */
const MAX_LINES = 10;

/**
 * Said (before the state line) when a connection to loopback was refused: each sandboxed
 * session has a network of its own, so a model that started a server in one session (a daemon)
 * and calls it from another (a one_shot curl) is refused, and the refusal alone says not why.
 */
export const OWN_LOOPBACK_HINT =
  "This session's localhost is its own: a server another session or this host runs is not " +
  'reachable from it. Start the server and its client in one session (`server & client` in one ' +
  'command, or both in a shell session).';
// The proxy's loopback destinations (sandbox-linux insideAddress): localhost and its subdomains,
// 127.0.0.0/8, ::1, and the unspecified addresses, which connect to loopback.
const LOOPBACK = /^(localhost|.+\.localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1?\])(:\d+)?$/i;

const told = new WeakMap<ToolSession, number>();

/** What a result says of its session's sandbox: notes before its state line, refusals after. */
export interface SandboxReport {
  /** Why, before the state line: the own-loopback hint when a loopback connection was refused. */
  notes: string[];
  /** The `sandbox: ... refused` lines not told yet, the result's last lines. */
  lines: string[];
}

/** The refusals not told yet (nothing outside a sandbox), and the hint they call for. */
export function sandboxLines(session: ToolSession): SandboxReport {
  const none = { notes: [], lines: [] };
  const sandbox = session.metadata().sandbox;
  if (!sandbox) return none;
  const before = told.get(session) ?? 0;
  told.set(session, sandbox.violationCount);
  const fresh = Math.min(sandbox.violationCount - before, sandbox.violations.length);
  if (fresh <= 0) return none;
  const refused = sandbox.violations.slice(-fresh);
  const lines = [...new Set(refused.map(violationLine))];
  // A note, so that the state line and the refusals after it stay the result's last lines.
  const notes = refused.some((v) => v.kind === 'network' && LOOPBACK.test(v.target))
    ? [OWN_LOOPBACK_HINT]
    : [];
  return {
    notes,
    lines:
      lines.length <= MAX_LINES
        ? lines
        : [
            ...lines.slice(0, MAX_LINES),
            `sandbox: ${lines.length - MAX_LINES} more refusals (process action=list shows the policy)`,
          ],
  };
}
