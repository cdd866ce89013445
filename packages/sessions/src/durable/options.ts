import {
  type CheckpointStore,
  invalidOption,
  knownKeys,
  LEASE_TTL_MS_LIMIT,
  type LeaseStore,
  type Limit,
  nonEmptyString,
  type ProcessRecoveryBackend,
  RECOVERY_ATTACH_TIMEOUT_MS_LIMIT,
  RECOVERY_RECORDS_LIMIT,
  resolveLimit,
} from '@procmux/core-types';

/** Caps of durable recovery; every field is optional. */
export interface RecoveryLimits {
  /** Durable records of this registry's tenant: 32, hard 128. Oldest terminal ones are evicted first. */
  maxRecords?: number;
  /** Per-record lease time to live: 30 s, hard 300 s. */
  leaseTtlMs?: number;
  /** How long recoveryBackend.attach may take: 30 s, hard 120 s. */
  attachTimeoutMs?: number;
}

export type ResolvedRecoveryLimits = Required<RecoveryLimits>;

const TABLE: Record<keyof RecoveryLimits, Limit> = {
  maxRecords: RECOVERY_RECORDS_LIMIT,
  leaseTtlMs: LEASE_TTL_MS_LIMIT,
  attachTimeoutMs: RECOVERY_ATTACH_TIMEOUT_MS_LIMIT,
};

/** The durability options of createProcessSessions. */
export interface DurabilityOptions {
  checkpoints?: CheckpointStore;
  leases?: LeaseStore;
  ownerId?: string;
  recoveryBackend?: ProcessRecoveryBackend;
  recoveryLimits?: RecoveryLimits;
}

export interface ResolvedDurability {
  checkpoints: CheckpointStore;
  leases: LeaseStore;
  ownerId: string;
  recoveryBackend: ProcessRecoveryBackend | undefined;
  limits: ResolvedRecoveryLimits;
}

const TRIO = ['checkpoints', 'leases', 'ownerId'] as const;
const MAX_OWNER_ID_CHARS = 128;

/**
 * Durability is all or nothing: checkpoints, leases and ownerId together, or none of them (and
 * then no recoveryBackend or recoveryLimits either). A partial set would persist some writes and
 * fence none, so it fails at construction instead.
 */
export function resolveDurability(options: DurabilityOptions): ResolvedDurability | undefined {
  const given = TRIO.filter((name) => options[name] !== undefined);
  if (given.length === 0) {
    for (const name of ['recoveryBackend', 'recoveryLimits'] as const) {
      if (options[name] !== undefined) {
        throw invalidOption(
          name,
          'given only with durability: pass checkpoints, leases and ownerId as well',
          {
            missing: [...TRIO],
          },
        );
      }
    }
    return undefined;
  }
  if (given.length < TRIO.length) {
    const missing = TRIO.filter((name) => options[name] === undefined);
    throw invalidOption(TRIO.join(', '), `given together for durability (missing: ${missing.join(', ')})`, {
      missing,
    });
  }
  const { checkpoints, leases, ownerId, recoveryBackend } = options as Required<DurabilityOptions>;
  for (const [name, store, methods] of [
    ['checkpoints', checkpoints, ['get', 'list', 'compareAndSet', 'delete']],
    ['leases', leases, ['acquire', 'renew', 'release']],
  ] as const) {
    const missing = methods.filter(
      (m) => typeof (store as unknown as Record<string, unknown>)[m] !== 'function',
    );
    if (typeof store !== 'object' || store === null || missing.length > 0) {
      throw invalidOption(
        name,
        `an object implementing ${methods.join(', ')} (missing: ${missing.join(', ')})`,
        {
          missing,
        },
      );
    }
  }
  // Names this replica in leases; NUL is allowed as before (the stores take any text).
  nonEmptyString('ownerId', ownerId, { nonBlank: true, maxChars: MAX_OWNER_ID_CHARS, allowNul: true });
  if (recoveryBackend !== undefined && typeof recoveryBackend?.attach !== 'function') {
    throw invalidOption('recoveryBackend', 'an object with an attach(request) method', {
      value: recoveryBackend,
    });
  }
  return {
    checkpoints,
    leases,
    ownerId,
    recoveryBackend,
    limits: resolveRecoveryLimits(options.recoveryLimits),
  };
}

/** Fills in defaults; an unknown key or a value outside [1, hard] is ERR_INVALID_OPTION. */
export function resolveRecoveryLimits(limits: RecoveryLimits = {}): ResolvedRecoveryLimits {
  if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) {
    throw invalidOption('recoveryLimits', 'an object of optional integer caps', { value: limits });
  }
  knownKeys('recoveryLimits', limits, Object.keys(TABLE));
  const out = {} as ResolvedRecoveryLimits;
  for (const [key, limit] of Object.entries(TABLE) as [keyof RecoveryLimits, Limit][]) {
    out[key] = resolveLimit(`recoveryLimits.${key}`, limits[key], limit);
  }
  return out;
}
