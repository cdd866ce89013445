// The durability contract: what a durable process record holds, the stores it lives in
// (compare-and-set checkpoints, fenced leases) and how a host re-attaches a process after a
// restart. Implementations: the in-memory stores of @procmux/sessions, @procmux/store-sqlite,
// @procmux/store-postgres.

import type { SignalName, StdioMode } from './process.js';
import type { SessionState } from './session.js';

/** Namespace of process records and their leases in a store. Versioned: a new shape gets v2. */
export const RECOVERY_NAMESPACE = 'procmux.process.v1';
/** The `schemaVersion` every record of RECOVERY_NAMESPACE carries. */
export const RECOVERY_SCHEMA_VERSION = 1;
/** Serialized size of one record; a larger one is refused on write and dropped on read. */
export const RECOVERY_RECORD_BYTES = 16 * 1024;
/** Size of a backend's opaque re-attach reference. */
export const RECOVERY_REF_BYTES = 1024;

/**
 * What a durable store keeps about one session: metadata only. Never a handle, the
 * environment, output, a token or a credential; a record holding such a field is untrusted
 * and dropped on recovery.
 */
export interface ProcessRecord {
  schemaVersion: 1;
  namespace: typeof RECOVERY_NAMESPACE;
  /** The session id; also the record's key. */
  id: string;
  /** Tenant of the registry that wrote it; other tenants' records are never recovered. */
  tenant: string | null;
  /** The session's owner key. */
  owner: string | null;
  /** `ownerId` of the replica that wrote the record last. */
  replica: string;
  command: string;
  args: string[];
  cwd: string;
  /** SHA-256 of [command, ...args]. */
  fingerprint: string;
  pty: boolean;
  stdioMode: StdioMode;
  backend: 'native' | 'pty-backend' | 'sandbox';
  /** A host backend's opaque, non-secret reference to re-attach through; null for native processes. */
  backendRef: string | null;
  releaseOnCancel: boolean;
  state: SessionState;
  pid: number | null;
  startedAt: number;
  expiresAt: number;
  endedAt: number | null;
  /** Non-null only in state 'exited'. */
  exitCode: number | null;
  signal: SignalName | null;
  reason: string | null;
  /**
   * The size of a PTY session's terminal screen when the record was written (a re-attached
   * session's screen starts at it); null when it has none (pipes, `screen: false`). Absent in
   * records written before it existed: a PTY session then gets a screen of the default size.
   */
  terminal?: { columns: number; rows: number } | null;
  /**
   * Bytes of output a caller has been given (by poll), counted from the process's first byte:
   * a re-attached session whose backend replays history delivers only what comes after.
   * Written throttled, not per chunk. Absent in older records: read as 0.
   */
  deliveredBytes?: number;
  /**
   * Whether `command` ran through the platform shell. Absent in older records, which ran
   * through the shell exactly when they had no args.
   */
  shell?: boolean;
  /**
   * The OS sandbox the process runs in (a tmux-held session started with `sandbox`): what a
   * later host needs to tell its refusals and signal the program inside. Absent or null: none.
   */
  sandbox?: RecordedSandbox | null;
}

/** A sandboxed session's policy and private directory, as its record keeps them. */
export interface RecordedSandbox {
  /** Writable paths, the workspace first. */
  write: string[];
  /** Hidden paths. */
  denyRead: string[];
  allowDomains: { host: string; port?: number }[];
  /** The sandbox's private directory on the host (`procmux-sandbox-*`). */
  privateDir: string;
}

/** One stored checkpoint: opaque serialized data with its compare-and-set version and fence. */
export interface CheckpointEntry {
  key: string;
  /** The serialized record, kept verbatim; readers validate it. */
  data: string;
  /** 1 on creation, one more on every successful write. */
  version: number;
  /** The fencing token of the last successful write; a lower one can never write again. */
  fencingToken: number;
  /** Epoch milliseconds of the last write, by the store's clock. */
  updatedAt: number;
}

export interface CheckpointWrite {
  key: string;
  data: string;
  /** 0: create, only when absent. n: replace, only when the stored version is n. */
  expectedVersion: number;
  /** The writer's lease token; refused when lower than the entry's `fencingToken`. */
  fencingToken: number;
}

/**
 * Versioned, fenced key-value checkpoints. `compareAndSet` is atomic: it writes only when the
 * stored version equals `expectedVersion` and the stored fencing token is not greater than the
 * writer's; otherwise it throws ProcmuxError ERR_RECOVERY_FENCE (details: key, conflict
 * 'version' | 'fence').
 */
export interface CheckpointStore {
  get(namespace: string, key: string): Promise<CheckpointEntry | undefined>;
  /** Every entry of the namespace, in no particular order. */
  list(namespace: string): Promise<CheckpointEntry[]>;
  /** Resolves to the new version. */
  compareAndSet(namespace: string, write: CheckpointWrite): Promise<number>;
  /** Deletes the entry when its version is `expectedVersion`; false when absent or changed. */
  delete(namespace: string, key: string, expectedVersion: number): Promise<boolean>;
}

/** A lease on one key, held by one replica until `expiresAt`. */
export interface Lease {
  key: string;
  holder: string;
  /** Fencing token: greater than every token the store handed out before. */
  token: number;
  /** Epoch milliseconds, by the store's clock. */
  expiresAt: number;
}

/**
 * Per-key leases with monotonic fencing tokens. Every successful `acquire` returns a token
 * greater than any the store returned before, so a write fenced by an older token can be told
 * apart from a newer holder's.
 */
export interface LeaseStore {
  /**
   * Takes the lease when it is free, expired, or already `holder`'s (a new token either way);
   * undefined while another holder's lease is live. `ttlMs` is 1 to LEASE_TTL_MS_LIMIT.hard.
   */
  acquire(namespace: string, key: string, holder: string, ttlMs: number): Promise<Lease | undefined>;
  /**
   * Extends a lease still held under `token` (also one past its expiry that nobody took over:
   * its token is still the newest); ERR_RECOVERY_FENCE when it was taken over or released.
   */
  renew(namespace: string, key: string, holder: string, token: number, ttlMs: number): Promise<Lease>;
  /** Gives the lease up; false when it is no longer held under `token` (nothing changes then). */
  release(namespace: string, key: string, holder: string, token: number): Promise<boolean>;
}

/** How a re-attached process reports its end; a rejected wait() means the backend lost it. */
export interface RecoveredProcessExit {
  exitCode: number | null;
  signal?: SignalName | null;
}

/** A live process a recovery backend re-attached to; input, signals and kill go to it. */
export interface RecoveredProcessHandle {
  pid?: number;
  /** Keep the reference stable; a changed one is recorded on the next write. */
  ref?: string;
  /**
   * Where the output stream of this handle starts, in bytes of the process's output counted
   * from its first byte: 0 when the backend replays the whole history (the session's log and
   * screen are rebuilt from it, and what the record says was delivered is not delivered
   * again). Omitted: the stream starts now; history before the restart is not replayed.
   */
  replayFrom?: number;
  /** Small, non-secret facts (e.g. how a person attaches), as a host PTY handle's metadata. */
  metadata?: Record<string, unknown>;
  /**
   * What really holds the re-attached process's tree ('cgroup', 'pid-namespace'); absent:
   * the marker sweep. The recovered session's `metadata().containment` says it.
   */
  containment?: 'cgroup' | 'pid-namespace' | 'marker';
  write(data: string): void | Promise<void>;
  signal(name: SignalName): void | Promise<void>;
  kill(): void | Promise<void>;
  release?(): void | Promise<void>;
  wait(): Promise<RecoveredProcessExit>;
  resize?(columns: number, rows: number): void | Promise<void>;
  closeStdin?(): void | Promise<void>;
}

/** What a recovery backend is asked to re-attach. */
export interface RecoveryAttachRequest {
  /** The opaque reference the original handle carried. */
  ref: string;
  sessionId: string;
  /** Lets the backend check that the process behind `ref` runs what the record says. */
  fingerprint: string;
  stdioMode: StdioMode;
  /** Output from now on, if the backend can stream it, or from `replayFrom` (see the handle). */
  onStdout(data: string): void;
  onStderr(data: string): void;
}

/**
 * A host's way back to processes that outlived a replica (a sandbox, a terminal server).
 * `attach` resolves to a live handle, or to null/undefined when the process behind `ref` is
 * gone or not trusted; the record then becomes `unknown`. `capabilities.resize` must be
 * declared for re-attached sessions to offer resize.
 */
export interface ProcessRecoveryBackend {
  readonly capabilities?: { readonly resize?: boolean };
  attach(
    request: RecoveryAttachRequest,
  ): RecoveredProcessHandle | null | undefined | Promise<RecoveredProcessHandle | null | undefined>;
}
