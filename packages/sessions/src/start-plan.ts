import { ProcmuxError, type StdinMode } from '@procmux/core-types';
import { shellWrap } from '@procmux/shell-wrap';
import { resolveSessionCwd } from './cwd.js';
import { commandFingerprint } from './fingerprint.js';
import type { ResolvedProcessSessionLimits } from './limits.js';
import { type AgentIdentity, type OwnershipScope, resolveOwnerKey } from './owner.js';
import { resolveTerminal } from './terminal.js';
import type { ProcessStartRequest } from './types.js';

export interface StartPlan {
  command: string;
  args: string[];
  shell: boolean;
  cwd: string;
  env: Record<string, string>;
  pty: boolean;
  terminal: ReturnType<typeof resolveTerminal>;
  owner: string | undefined;
  fingerprint: string;
  lifetimeMs: number;
  stdin: StdinMode;
}

export interface PlanContext {
  workspace: string;
  limits: ResolvedProcessSessionLimits;
  ownership: OwnershipScope | undefined;
  identity: AgentIdentity | undefined;
  /** A sandbox's own cwd resolution (a remote file system); default: this host's realpath. */
  resolveCwd?: (workspace: string, requested?: string) => string;
}

/** Validates a start request and resolves everything a spawn needs; nothing runs yet. */
export function planStart(request: ProcessStartRequest, context: PlanContext): StartPlan {
  const { workspace, limits } = context;
  if (typeof request !== 'object' || request === null) {
    throw new ProcmuxError('ERR_INVALID_OPTION', 'start needs a request object { command, args?, ... }');
  }
  if (typeof request.command !== 'string' || request.command.trim() === '') {
    throw new ProcmuxError('ERR_INVALID_OPTION', 'command must be a non-empty string');
  }
  const args = request.args === undefined ? [] : [...request.args];
  if (!args.every((a) => typeof a === 'string')) {
    throw new ProcmuxError('ERR_INVALID_OPTION', 'args must be an array of strings');
  }
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  for (const [key, value] of Object.entries(request.env ?? {})) {
    if (typeof value !== 'string') {
      throw new ProcmuxError('ERR_INVALID_OPTION', `env values must be strings (env.${key} is not)`);
    }
    env[key] = value;
  }
  const pty = request.pty === true;
  const terminal = resolveTerminal(request.terminal, limits);
  if (pty) env.TERM = terminal.term;
  const lifetimeMs = request.lifetimeMs ?? limits.maxLifetimeMs;
  if (!Number.isInteger(lifetimeMs) || lifetimeMs < 1 || lifetimeMs > limits.maxLifetimeMs) {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `lifetimeMs must be an integer from 1 to ${limits.maxLifetimeMs} (got ${String(request.lifetimeMs)})`,
    );
  }
  for (const key of ['timeoutMs', 'noOutputTimeoutMs'] as const) {
    const value = request[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 1 || value > limits.maxLifetimeMs)) {
      throw new ProcmuxError(
        'ERR_INVALID_OPTION',
        `${key} must be an integer from 1 to ${limits.maxLifetimeMs} (got ${String(value)})`,
      );
    }
  }
  const stdin = request.stdin ?? 'open';
  if (stdin !== 'open' && stdin !== 'closed' && stdin !== 'terminal') {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `stdin must be 'open', 'closed' or 'terminal' (got ${String(stdin)})`,
    );
  }
  if (stdin === 'terminal' && pty) {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      "stdin 'terminal' is for pipe sessions (a PTY session is one)",
    );
  }
  return {
    command: request.command,
    args,
    shell: request.shell === true || request.args === undefined,
    cwd: (context.resolveCwd ?? resolveSessionCwd)(workspace, request.cwd),
    env,
    pty,
    terminal,
    owner: resolveOwnerKey(request.owner, context.ownership, context.identity),
    fingerprint: commandFingerprint(request.command, args),
    lifetimeMs,
    stdin,
  };
}

/** With `shell`, args are appended to the command line as given (the caller quotes them). */
export function shellLine(plan: { command: string; args: string[] }): string {
  return [plan.command, ...plan.args].join(' ');
}

/** What a host PTY backend runs: a file and argv, the shell made explicit by shell-wrap. */
export function hostTarget(plan: {
  command: string;
  args: string[];
  shell: boolean;
  env: Record<string, string>;
}): {
  file: string;
  args: string[];
} {
  if (!plan.shell) return { file: plan.command, args: plan.args };
  const wrapped = shellWrap(shellLine(plan), { env: plan.env });
  return { file: wrapped.file, args: [...wrapped.args] };
}
