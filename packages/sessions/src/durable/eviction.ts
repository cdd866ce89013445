import { type CheckpointStore, isTerminalState, ProcmuxError, RECOVERY_NAMESPACE } from '@procmux/core-types';
import { parseEntry } from './record.js';
import { storeCall } from './store-call.js';

/**
 * Makes room for one more record of `tenant`: deletes its oldest terminal records (by end
 * time) until fewer than `maxRecords` remain. Running records are never evicted, so when only
 * they fill the cap the new session is refused with ERR_RECOVERY_LIMIT. Records this registry
 * cannot read (corrupt, another tenant's) are neither counted nor touched.
 */
export async function evictFor(
  checkpoints: CheckpointStore,
  tenant: string | null,
  maxRecords: number,
): Promise<void> {
  const entries = await storeCall('list the durable records', () => checkpoints.list(RECOVERY_NAMESPACE));
  const mine = entries.map((entry) => parseEntry(entry, tenant)).filter((parsed) => parsed.ok);
  let excess = mine.length - maxRecords + 1;
  if (excess <= 0) return;
  const terminal = mine
    .filter((parsed) => isTerminalState(parsed.record.state))
    .sort(
      (a, b) => (a.record.endedAt ?? 0) - (b.record.endedAt ?? 0) || a.entry.updatedAt - b.entry.updatedAt,
    );
  for (const { entry } of terminal) {
    if (excess <= 0) break;
    // A false delete means another replica changed or evicted it first; either way it is not ours to count.
    const deleted = await storeCall(`evict record ${entry.key}`, () =>
      checkpoints.delete(RECOVERY_NAMESPACE, entry.key, entry.version),
    );
    if (deleted) excess -= 1;
  }
  if (excess > 0) {
    throw new ProcmuxError(
      'ERR_RECOVERY_LIMIT',
      `${mine.length} durable records are kept and none of the running ones can be evicted; at most ${maxRecords} (recoveryLimits.maxRecords)`,
      { details: { maxRecords } },
    );
  }
}
