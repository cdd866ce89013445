import {
  type CheckpointEntry,
  isTerminalState,
  type ProcessRecord,
  type ProcmuxErrorCode,
  RECOVERY_NAMESPACE,
  RECOVERY_RECORD_BYTES,
  RECOVERY_REF_BYTES,
  RECOVERY_SCHEMA_VERSION,
  type RecordedSandbox,
  type SessionState,
} from '@procmux/core-types';
import type { SessionMetadata } from '../types.js';

/** What a record is built from: a session's metadata plus the facts metadata() leaves out. */
export interface RecordSource {
  metadata: SessionMetadata;
  backendRef: string | undefined;
  releaseOnCancel: boolean;
  expiresAt: number;
  reason: string | undefined;
  /** The size of the session's terminal screen now; undefined without one (pipes, `screen: false`). */
  terminal: { columns: number; rows: number } | undefined;
  /** Bytes of output poll has handed to a caller, from the process's first byte. */
  deliveredBytes: number;
  /** The OS sandbox's policy and private dir; undefined outside one. */
  sandbox?: RecordedSandbox | undefined;
}

const STATES: readonly SessionState[] = [
  'starting',
  'running',
  'exited',
  'killed',
  'released',
  'expired',
  'unknown',
];

// Field names that mean a secret or a live object; a record holding one was not written by us.
const FORBIDDEN = /env|handle|output|stdout|stderr|token|credential|secret|password|passwd|auth|cookie|key$/i;

/** The record of a session as it is now, written by replica `ownerId` for `tenant`. */
export function buildRecord(source: RecordSource, ownerId: string, tenant: string | null): ProcessRecord {
  const m = source.metadata;
  const ref = source.backendRef;
  return {
    schemaVersion: RECOVERY_SCHEMA_VERSION,
    namespace: RECOVERY_NAMESPACE,
    id: m.id,
    tenant,
    owner: m.owner ?? null,
    replica: ownerId,
    command: m.command,
    args: [...m.args],
    shell: m.shell,
    cwd: m.cwd,
    fingerprint: m.fingerprint,
    pty: m.pty,
    stdioMode: m.stdioMode,
    backend: m.backend,
    // A ref that cannot be stored is left out (the record then recovers as unknown), never cut.
    backendRef:
      typeof ref === 'string' && ref !== '' && Buffer.byteLength(ref) <= RECOVERY_REF_BYTES ? ref : null,
    releaseOnCancel: source.releaseOnCancel,
    state: m.state,
    pid: m.pid ?? null,
    startedAt: m.startedAt,
    expiresAt: source.expiresAt,
    endedAt: m.endedAt,
    exitCode: m.state === 'exited' ? m.exitCode : null,
    signal: m.signal,
    reason: source.reason ?? null,
    terminal: source.terminal ? { columns: source.terminal.columns, rows: source.terminal.rows } : null,
    deliveredBytes: source.deliveredBytes,
    ...(source.sandbox ? { sandbox: recordedSandbox(source.sandbox) } : {}),
  };
}

function recordedSandbox(s: RecordedSandbox): RecordedSandbox {
  return {
    write: [...s.write],
    denyRead: [...s.denyRead],
    allowDomains: s.allowDomains.map((d) =>
      d.port === undefined ? { host: d.host } : { host: d.host, port: d.port },
    ),
    privateDir: s.privateDir,
  };
}

/** JSON text of a record; its size is checked by the caller against RECOVERY_RECORD_BYTES. */
export function serializeRecord(record: ProcessRecord): string {
  return JSON.stringify(record);
}

export type ParsedEntry =
  | { ok: true; record: ProcessRecord; entry: CheckpointEntry }
  | { ok: false; code: ProcmuxErrorCode; reason: string; entry: CheckpointEntry };

type Check = (value: unknown) => boolean;
const str: Check = (v) => typeof v === 'string';
const strOrNull: Check = (v) => v === null || typeof v === 'string';
const int: Check = (v) => typeof v === 'number' && Number.isSafeInteger(v);
const intOrNull: Check = (v) => v === null || int(v);
const bool: Check = (v) => typeof v === 'boolean';

type Optional = 'terminal' | 'deliveredBytes' | 'shell' | 'sandbox';

const size: Check = (v) => int(v) && (v as number) >= 1 && (v as number) <= 65_535;

/** Fields added later: checked when present, read with their default when absent (older records). */
const OPTIONAL: Record<Optional, Check> = {
  terminal: (v) => {
    if (v === null) return true;
    if (typeof v !== 'object' || Array.isArray(v)) return false;
    const t = v as Record<string, unknown>;
    return Object.keys(t).length === 2 && size(t.columns) && size(t.rows);
  },
  deliveredBytes: (v) => int(v) && (v as number) >= 0,
  shell: bool,
  sandbox: (v) => v === null || isRecordedSandbox(v),
};

const absolutePath: Check = (v) => typeof v === 'string' && v.startsWith('/') && !v.split('/').includes('..');
const fieldsExactly = (v: unknown, names: readonly string[], optional: readonly string[] = []): boolean =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  names.every((n) => n in v) &&
  Object.keys(v).every((n) => names.includes(n) || optional.includes(n));

/** A sandbox's policy and private dir: absolute paths, the dir a `procmux-sandbox-*` one. */
function isRecordedSandbox(v: unknown): boolean {
  if (!fieldsExactly(v, ['write', 'denyRead', 'allowDomains', 'privateDir'])) return false;
  const s = v as Record<string, unknown>;
  const paths = (p: unknown) => Array.isArray(p) && p.length <= 256 && p.every(absolutePath);
  const domain = (d: unknown) =>
    fieldsExactly(d, ['host'], ['port']) &&
    str((d as { host: unknown }).host) &&
    ((d as { port?: unknown }).port === undefined || size((d as { port: unknown }).port));
  return (
    paths(s.write) &&
    paths(s.denyRead) &&
    Array.isArray(s.allowDomains) &&
    s.allowDomains.length <= 256 &&
    s.allowDomains.every(domain) &&
    absolutePath(s.privateDir) &&
    /^procmux-sandbox-[^/]+$/.test((s.privateDir as string).split('/').pop() ?? '')
  );
}

const SHAPE: Record<Exclude<keyof ProcessRecord, Optional>, Check> = {
  schemaVersion: (v) => v === RECOVERY_SCHEMA_VERSION,
  namespace: (v) => v === RECOVERY_NAMESPACE,
  id: str,
  tenant: strOrNull,
  owner: strOrNull,
  replica: str,
  command: str,
  args: (v) => Array.isArray(v) && v.every(str),
  cwd: str,
  fingerprint: (v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v),
  pty: bool,
  stdioMode: (v) => v === 'pty' || v === 'pipe',
  backend: (v) => v === 'native' || v === 'pty-backend' || v === 'sandbox',
  backendRef: (v) =>
    v === null || (typeof v === 'string' && v !== '' && Buffer.byteLength(v) <= RECOVERY_REF_BYTES),
  releaseOnCancel: bool,
  state: (v) => STATES.includes(v as SessionState),
  pid: intOrNull,
  startedAt: int,
  expiresAt: int,
  endedAt: intOrNull,
  exitCode: intOrNull,
  signal: strOrNull,
  reason: strOrNull,
};

/**
 * Validates a stored entry for this registry's tenant. Corrupt, oversized or forbidden-field
 * records are ERR_RECOVERY_UNTRUSTED and another tenant's are ERR_RECOVERY_OWNERSHIP: both are
 * dropped, never recovered. Reasons name the field, never its value (it may be a secret).
 */
export function parseEntry(entry: CheckpointEntry, tenant: string | null): ParsedEntry {
  const drop = (code: ProcmuxErrorCode, reason: string): ParsedEntry => ({ ok: false, code, reason, entry });
  if (Buffer.byteLength(entry.data) > RECOVERY_RECORD_BYTES) {
    return drop('ERR_RECOVERY_UNTRUSTED', `record is over ${RECOVERY_RECORD_BYTES} bytes`);
  }
  let value: unknown;
  try {
    value = JSON.parse(entry.data);
  } catch {
    return drop('ERR_RECOVERY_UNTRUSTED', 'record is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return drop('ERR_RECOVERY_UNTRUSTED', 'record is not an object');
  }
  const fields = value as Record<string, unknown>;
  for (const name of Object.keys(fields)) {
    if (name in SHAPE) continue;
    if (name in OPTIONAL) {
      if (!OPTIONAL[name as Optional](fields[name])) {
        return drop('ERR_RECOVERY_UNTRUSTED', `record field "${name}" is malformed`);
      }
      continue;
    }
    if (FORBIDDEN.test(name))
      return drop('ERR_RECOVERY_UNTRUSTED', `record holds a forbidden field "${name}"`);
    return drop('ERR_RECOVERY_UNTRUSTED', `record holds an unexpected field "${name}"`);
  }
  for (const [name, check] of Object.entries(SHAPE)) {
    if (!(name in fields) || !check(fields[name])) {
      return drop('ERR_RECOVERY_UNTRUSTED', `record field "${name}" is missing or malformed`);
    }
  }
  const record = {
    deliveredBytes: 0,
    shell: Array.isArray(fields.args) && fields.args.length === 0,
    ...fields,
  } as unknown as ProcessRecord;
  if (record.id !== entry.key) return drop('ERR_RECOVERY_UNTRUSTED', 'record id does not match its key');
  if ((record.exitCode !== null) !== (record.state === 'exited')) {
    return drop('ERR_RECOVERY_UNTRUSTED', 'record has an exit code in a state other than exited');
  }
  if (isTerminalState(record.state) !== (record.endedAt !== null)) {
    return drop('ERR_RECOVERY_UNTRUSTED', 'record end time does not match its state');
  }
  if (record.tenant !== tenant) return drop('ERR_RECOVERY_OWNERSHIP', 'record belongs to another tenant');
  return { ok: true, record, entry };
}
