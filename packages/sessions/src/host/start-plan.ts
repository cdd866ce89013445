import {
  booleanOption,
  integerOption,
  invalidOption,
  nonEmptyString,
  oneOf,
  type StdinMode,
} from '@procmux/core-types';
import type { ResolvedProcessSessionLimits } from '@procmux/registry';
import { type AgentIdentity, type OwnershipScope, resolveOwnerKey } from '@procmux/registry';
import type { SandboxPolicy } from '@procmux/sandbox-linux';
import { shellWrap } from '@procmux/shell-wrap';
import { planSandbox } from '../backends/sandbox-plan.js';
import { resolveTerminal } from '../session/terminal.js';
import type { ProcessSessionsOptions, ProcessStartRequest } from '../types.js';
import { resolveSessionCwd } from './cwd.js';
import { commandFingerprint } from './fingerprint.js';

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
  /** The OS sandbox's policy, when the session runs in one. */
  sandbox: SandboxPolicy | undefined;
}

export interface PlanContext {
  workspace: string;
  limits: ResolvedProcessSessionLimits;
  ownership: OwnershipScope | undefined;
  identity: AgentIdentity | undefined;
  /** A sandbox's own cwd resolution (a remote file system); default: this host's realpath. */
  resolveCwd?: (workspace: string, requested?: string) => string;
  /** The registry's OS sandbox policy (ProcessSessionsOptions.sandboxPolicy). */
  sandboxPolicy?: ProcessSessionsOptions['sandboxPolicy'];
}

/** Validates a start request and resolves everything a spawn needs; nothing runs yet. */
export function planStart(request: ProcessStartRequest, context: PlanContext): StartPlan {
  const { workspace, limits } = context;
  if (typeof request !== 'object' || request === null) {
    throw invalidOption('request', 'an object { command, args?, ... }', { value: request });
  }
  // A command may hold a secret, so it is never echoed; NUL is left for the spawn to refuse, as before.
  nonEmptyString('command', request.command, {
    required: true,
    nonBlank: true,
    allowNul: true,
    secret: true,
  });
  const args = request.args === undefined ? [] : [...request.args];
  // An executable unless the caller asks for a shell: a program name is never expanded.
  const shell = booleanOption('shell', request.shell, false);
  if (!args.every((a) => typeof a === 'string')) throw invalidOption('args', 'an array of strings');
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  for (const [key, value] of Object.entries(request.env ?? {})) {
    if (typeof value !== 'string') {
      throw invalidOption(`env.${key}`, 'a string');
    }
    env[key] = value;
  }
  const pty = request.pty === true;
  const terminal = resolveTerminal(request.terminal, limits);
  if (pty) env.TERM = terminal.term;
  const lifetimeMs = integerOption('lifetimeMs', request.lifetimeMs, {
    min: 1,
    max: limits.maxLifetimeMs,
    default: limits.maxLifetimeMs,
  });
  for (const key of ['timeoutMs', 'noOutputTimeoutMs'] as const) {
    integerOption(key, request[key], { min: 1, max: limits.maxLifetimeMs });
  }
  const stdin = oneOf('stdin', request.stdin, ['open', 'closed', 'terminal'], { default: 'open' });
  booleanOption('endLeftovers', request.endLeftovers, false);
  if (stdin === 'terminal' && pty) {
    throw invalidOption('stdin', "'open' or 'closed' for a PTY session ('terminal' is for pipe sessions)", {
      value: stdin,
      values: ['open', 'closed'],
    });
  }
  return {
    command: request.command,
    args,
    shell,
    cwd: (context.resolveCwd ?? resolveSessionCwd)(workspace, request.cwd),
    env,
    pty,
    terminal,
    owner: resolveOwnerKey(request.owner, context.ownership, context.identity),
    fingerprint: commandFingerprint(request.command, args, shell),
    lifetimeMs,
    stdin,
    sandbox: planSandbox(request.sandbox, context.sandboxPolicy, workspace),
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
