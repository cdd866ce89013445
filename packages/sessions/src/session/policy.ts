import { ProcmuxError, type SignalName } from '@procmux/core-types';

export type PolicyAction = 'start' | 'input' | 'signal' | 'kill';

/** What a policy is asked. Never carries the environment or the input bytes themselves. */
export interface PolicyRequest {
  action: PolicyAction;
  /** Absent for 'start' (no session exists yet). */
  sessionId?: string;
  owner: string | undefined;
  command: string;
  args: readonly string[];
  /** True: `command` is a shell line run through the platform shell; false: an executable. */
  shell: boolean;
  cwd: string;
  fingerprint: string;
  pty: boolean;
  /** For 'signal' and 'kill'. */
  signal?: SignalName;
  /** For 'input': how many bytes would be written. */
  bytes?: number;
}

/** true / false, or an object carrying the reason for a denial. */
export type PolicyDecision = boolean | { allow: boolean; reason?: string };

/**
 * A host's gate, asked before spawn and again on input, signal and kill. Either a function or
 * an object with `check`. A policy that throws denies (fails closed).
 */
export type ExecutionPolicy =
  | ((request: PolicyRequest) => PolicyDecision | Promise<PolicyDecision>)
  | { check(request: PolicyRequest): PolicyDecision | Promise<PolicyDecision> };

/** Asks the policy; resolves when allowed, throws ERR_PROCESS_POLICY with its reason when not. */
export async function enforcePolicy(
  policy: ExecutionPolicy | undefined,
  request: PolicyRequest,
): Promise<void> {
  if (policy === undefined) return;
  let decision: PolicyDecision;
  try {
    decision = typeof policy === 'function' ? await policy(request) : await policy.check(request);
  } catch (cause) {
    throw new ProcmuxError('ERR_PROCESS_POLICY', `policy check for ${request.action} failed; denied`, {
      cause,
      details: { action: request.action },
    });
  }
  const allowed = typeof decision === 'boolean' ? decision : decision?.allow === true;
  if (allowed) return;
  const reason = typeof decision === 'object' && decision?.reason ? `: ${decision.reason}` : '';
  throw new ProcmuxError('ERR_PROCESS_POLICY', `policy denied ${request.action}${reason}`, {
    details: { action: request.action },
  });
}
