// What every call checks first: a released session answers nothing, a write needs a running
// session the policy allows, input needs an open stdin. Each access runs the expiry sweep.
import { ProcmuxError, type SignalName } from '@procmux/core-types';
import type { SessionCore } from './core.js';
import { enforcePolicy, type PolicyAction } from './policy.js';

export async function access(s: SessionCore): Promise<void> {
  if (s.state === 'released') {
    throw new ProcmuxError('ERR_PROCESS_STATE', `session ${s.id} was released; it can no longer be used`);
  }
  await s.ctx.sweep();
}

export async function mutable(
  s: SessionCore,
  action: PolicyAction,
  extra: { signal?: SignalName; bytes?: number },
): Promise<void> {
  await access(s);
  if (!s.live || !s.run) {
    throw new ProcmuxError(
      'ERR_PROCESS_STATE',
      `session ${s.id} is ${s.state}; ${action} needs a running session`,
    );
  }
  await enforcePolicy(s.ctx.policy, {
    action,
    sessionId: s.id,
    owner: s.owner,
    command: s.command,
    args: s.args,
    shell: s.shell,
    cwd: s.cwd,
    fingerprint: s.fingerprint,
    pty: s.pty,
    ...extra,
  });
}

export async function writable(s: SessionCore, action: PolicyAction, bytes: number): Promise<void> {
  await mutable(s, action, { bytes });
  if (s.stdinClosed || !s.run?.stdin) {
    throw new ProcmuxError('ERR_PROCESS_STATE', `session ${s.id} has its stdin closed`);
  }
}
