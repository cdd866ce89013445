// What the session's OS sandbox refused since the previous result about it: the last lines of
// a result, so the model learns why a write or a connection failed instead of guessing.
import { violationLine } from '@procmux/sessions';
import type { ToolSession } from './types.js';

/** Most refusal lines one result shows; more are counted in one line. */
const MAX_LINES = 10;

const told = new WeakMap<ToolSession, number>();

/** The `sandbox: ... refused` lines not told yet (none outside a sandbox). */
export function sandboxLines(session: ToolSession): string[] {
  const sandbox = session.metadata().sandbox;
  if (!sandbox) return [];
  const before = told.get(session) ?? 0;
  told.set(session, sandbox.violationCount);
  const fresh = Math.min(sandbox.violationCount - before, sandbox.violations.length);
  if (fresh <= 0) return [];
  const lines = [...new Set(sandbox.violations.slice(-fresh).map(violationLine))];
  return lines.length <= MAX_LINES
    ? lines
    : [
        ...lines.slice(0, MAX_LINES),
        `sandbox: ${lines.length - MAX_LINES} more refusals (process action=list shows the policy)`,
      ];
}
