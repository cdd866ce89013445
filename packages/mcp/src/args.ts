import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { invalidOption, SESSIONS_LIMIT } from '@procmux/core-types';
import { ENDED_SESSIONS_LIMIT } from '@procmux/sessions';
import { CliUsageError, cliInteger } from './cli-usage.js';
import { type ResourceLimits, sessionLimitArgs } from './session-limit-args.js';
import { parseSshArgs, type SshRequest } from './ssh-args.js';
import { parseLeaseTtl, parseStore, type StoreRequest } from './store-args.js';

/** What the command line asks for. */
export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'demo' }
  /**
   * `procmux sessions prune`: end every persisted session of the workspace; with `gone`,
   * remove every state dir whose workspace no longer exists instead.
   */
  | { kind: 'prune'; cwd: string; stateDir: string | undefined; gone: boolean }
  | {
      kind: 'mcp';
      cwd: string;
      maxSessions: number | undefined;
      maxEndedSessions: number | undefined;
      pty: boolean;
      /** --state-dir: where records and persisted sessions live (default: under ~/.local/state). */
      stateDir: string | undefined;
      /** --view [port] (and --view-host): serve the live view page too. */
      view?: ViewRequest;
      /** --ssh user@host[:port]: every session runs on that host; cwd is a path there. */
      ssh?: SshRequest;
      /** --sandbox (with --sandbox-write, --sandbox-allow-domain): every session in an OS sandbox. */
      sandbox?: SandboxRequest;
      /** --store: records and leases in PostgreSQL (shared by hosts) or an SQLite file. */
      store?: StoreRequest;
      /** --lease-ttl, in ms: how long a lease lasts unrenewed (default 15 s). */
      leaseTtlMs: number;
      /** --http [port] (and --http-host): serve MCP over Streamable HTTP instead of stdio. */
      http?: ViewRequest;
      /** --session-memory / --session-pids / --session-cpu: every session's cgroup limits. */
      resourceLimits?: ResourceLimits;
    };

/** The OS sandbox the host asked for: extra writable paths and reachable domains. */
export interface SandboxRequest {
  write: string[];
  allowDomains: string[];
}

/** Where `--view` serves the page; port 0 picks a free one. */
export interface ViewRequest {
  port: number;
  host: string;
}

export { CliUsageError };

/**
 * Reads `procmux` arguments. `--cwd` is resolved against `cwd`; a bad option, a missing
 * command or an out-of-range value is a CliUsageError, never a silent default.
 */
export function parseCliArgs(argv: readonly string[], cwd: string): CliCommand {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(withViewValue(argv));
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const [command, ...rest] = positionals;
  if (command === undefined)
    throw new CliUsageError('a command is required: mcp or demo (see procmux --help)');
  if (command === 'sessions') return sessionsCommand(rest, values, cwd);
  if (values.gone) throw new CliUsageError('--gone applies to procmux sessions prune');
  const extra = rest;
  if (extra.length > 0) throw new CliUsageError(`unexpected argument "${extra[0]}"`);
  const mcpOnly = (
    [
      'cwd',
      'max-sessions',
      'max-ended-sessions',
      'allow-pty',
      'no-pty',
      'view',
      'view-host',
      'state-dir',
      'ssh',
      'ssh-identity',
      'ssh-known-hosts',
      'sandbox',
      'sandbox-write',
      'sandbox-allow-domain',
      'store',
      'lease-ttl',
      'http',
      'http-host',
      'session-memory',
      'session-pids',
      'session-cpu',
    ] as const
  ).filter((name) => values[name] !== undefined);
  if (command === 'demo') {
    if (mcpOnly.length > 0) throw new CliUsageError(`--${mcpOnly[0]} applies to procmux mcp, not demo`);
    return { kind: 'demo' };
  }
  if (command !== 'mcp') throw new CliUsageError(`unknown command "${command}"; use mcp or demo`);
  if (values['allow-pty'] && values['no-pty'])
    throw new CliUsageError('--allow-pty and --no-pty contradict each other');
  const view = listenRequest('--view', values.view, values['view-host']);
  const http = listenRequest('--http', values.http, values['http-host']);
  const remote = parseSshArgs(values, (path) => resolve(cwd, path));
  const store = parseStore(values.store, cwd);
  const resourceLimits = sessionLimitArgs(values);
  return {
    kind: 'mcp',
    cwd: remote?.cwd ?? resolve(cwd, values.cwd ?? '.'),
    ...(remote ? { ssh: remote.ssh } : {}),
    maxSessions: integer('--max-sessions', values['max-sessions'], SESSIONS_LIMIT.hard),
    maxEndedSessions: integer(
      '--max-ended-sessions',
      values['max-ended-sessions'],
      ENDED_SESSIONS_LIMIT.hard,
    ),
    pty: values['no-pty'] !== true,
    stateDir: stateDirValue(values['state-dir']),
    ...(view ? { view } : {}),
    ...sandboxRequest(values, cwd, remote !== undefined),
    ...(store ? { store } : {}),
    leaseTtlMs: parseLeaseTtl(values['lease-ttl']),
    ...(http ? { http } : {}),
    ...(resourceLimits ? { resourceLimits } : {}),
  };
}

function sandboxRequest(
  values: ReturnType<typeof parse>['values'],
  cwd: string,
  remote: boolean,
): { sandbox?: SandboxRequest } {
  const write = values['sandbox-write'] ?? [];
  const allowDomains = values['sandbox-allow-domain'] ?? [];
  if (values.sandbox !== true) {
    if (write.length > 0 || allowDomains.length > 0) {
      throw new CliUsageError(
        `--${write.length > 0 ? 'sandbox-write' : 'sandbox-allow-domain'} needs --sandbox`,
      );
    }
    return {};
  }
  if (remote)
    throw new CliUsageError('--sandbox runs sessions on this host; it cannot be combined with --ssh');
  return { sandbox: { write: write.map((path) => resolve(cwd, path)), allowDomains } };
}

// `--view` and `--http` take an optional port: a bare one (followed by nothing, an option or
// the command) gets an empty value, which means "any free port".
function withViewValue(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if ((arg === '--view' || arg === '--http') && !/^\d+$/.test(argv[i + 1] ?? '')) out.push(`${arg}=`);
    else out.push(arg);
  }
  return out;
}

function listenRequest(
  option: '--view' | '--http',
  port: string | undefined,
  host: string | undefined,
): ViewRequest | undefined {
  if (port === undefined) {
    if (host !== undefined) throw new CliUsageError(`${option}-host needs ${option}`);
    return undefined;
  }
  const n = port === '' ? 0 : cliInteger(option, port, { min: 0, max: 65_535 }, 'a port from 0 to 65535');
  if (host === '') throw new CliUsageError(`${option}-host needs an address`);
  return { port: n, host: host ?? '127.0.0.1' };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
      cwd: { type: 'string' },
      'max-sessions': { type: 'string' },
      'max-ended-sessions': { type: 'string' },
      'allow-pty': { type: 'boolean' },
      'no-pty': { type: 'boolean' },
      view: { type: 'string' },
      'view-host': { type: 'string' },
      http: { type: 'string' },
      'http-host': { type: 'string' },
      'state-dir': { type: 'string' },
      ssh: { type: 'string' },
      'ssh-identity': { type: 'string' },
      'ssh-known-hosts': { type: 'string' },
      gone: { type: 'boolean' },
      sandbox: { type: 'boolean' },
      'sandbox-write': { type: 'string', multiple: true },
      'sandbox-allow-domain': { type: 'string', multiple: true },
      store: { type: 'string' },
      'lease-ttl': { type: 'string' },
      'session-memory': { type: 'string' },
      'session-pids': { type: 'string' },
      'session-cpu': { type: 'string' },
    },
  });
}

function integer(option: string, value: string | undefined, max: number): number | undefined {
  return value === undefined ? undefined : cliInteger(option, value, { min: 1, max });
}

function stateDirValue(value: string | undefined): string | undefined {
  if (value === '') throw CliUsageError.refusal(invalidOption('--state-dir', 'a directory', { value }));
  return value;
}

// `procmux sessions prune [--cwd DIR] [--state-dir DIR]`, or `procmux sessions prune --gone`.
function sessionsCommand(
  rest: string[],
  values: ReturnType<typeof parse>['values'],
  cwd: string,
): CliCommand {
  if (rest[0] !== 'prune' || rest.length > 1) {
    throw new CliUsageError('procmux sessions takes one subcommand: prune');
  }
  const other = (
    [
      'max-sessions',
      'max-ended-sessions',
      'allow-pty',
      'no-pty',
      'view',
      'view-host',
      'lease-ttl',
      'store',
      'http',
      'http-host',
      'session-memory',
      'session-pids',
      'session-cpu',
    ] as const
  ).find((name) => values[name] !== undefined);
  if (other) throw new CliUsageError(`--${other} applies to procmux mcp, not sessions prune`);
  const gone = values.gone === true;
  if (gone && (values.cwd !== undefined || values['state-dir'] !== undefined)) {
    throw new CliUsageError('--gone looks at every workspace: it takes no --cwd or --state-dir');
  }
  return {
    kind: 'prune',
    cwd: resolve(cwd, values.cwd ?? '.'),
    stateDir: stateDirValue(values['state-dir']),
    gone,
  };
}
