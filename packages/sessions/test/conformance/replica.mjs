// A host replica for the crash tests: its own Node process, on the built packages (dist/).
//   start <count>               as replica-a: starts <count> `sleep 300` sessions, prints them
//                               with their lease tokens, then stays alive until killed
//   recover                     as replica-b: runs recover(), prints the report, exits
//   stale-write <id> <token>    as replica-a revived: tries to write an exit under its old
//                               token and to renew its old lease, prints what the store said
// The store comes from the module named by PROCMUX_REPLICA_STORES (its openStores()).
import { pathToFileURL } from 'node:url';
import { RECOVERY_NAMESPACE } from '@procmux/core-types';
import { createProcessSessions } from '@procmux/sessions';

const { openStores } = await import(pathToFileURL(process.env.PROCMUX_REPLICA_STORES).href);
const stores = await openStores();
const leaseTtlMs = Number(process.env.PROCMUX_REPLICA_TTL_MS);
const print = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const registry = (ownerId) =>
  createProcessSessions({
    cwd: process.env.PROCMUX_REPLICA_WORKSPACE,
    ownership: { tenantId: 't1', userId: 'u1' },
    checkpoints: stores.checkpoints,
    leases: stores.leases,
    ownerId,
    recoveryLimits: { leaseTtlMs },
  });

const [role, ...args] = process.argv.slice(2);
if (role === 'start') {
  const sessions = registry('replica-a');
  const started = [];
  for (let i = 0; i < Number(args[0]); i += 1) {
    const session = await sessions.start({ command: 'sleep', args: ['300'] });
    const entry = await stores.checkpoints.get(RECOVERY_NAMESPACE, session.id);
    started.push({ id: session.id, pid: session.pid, token: entry.fencingToken, version: entry.version });
  }
  print({ started });
  // Stay alive (the heartbeat renews the leases) until the test kills this process.
  setInterval(() => {}, 60_000);
} else if (role === 'recover') {
  const sessions = registry('replica-b');
  print(await sessions.recover());
  await sessions.dispose();
  await stores.close();
} else if (role === 'stale-write') {
  const [id, token] = [args[0], Number(args[1])];
  const entry = await stores.checkpoints.get(RECOVERY_NAMESPACE, id);
  const invented = { ...JSON.parse(entry.data), state: 'exited', exitCode: 0, replica: 'replica-a' };
  const result = {};
  try {
    await stores.checkpoints.compareAndSet(RECOVERY_NAMESPACE, {
      key: id,
      data: JSON.stringify(invented),
      expectedVersion: entry.version,
      fencingToken: token,
    });
    result.write = 'written';
  } catch (error) {
    result.write = error.code;
    result.conflict = error.details?.conflict;
  }
  try {
    await stores.leases.renew(RECOVERY_NAMESPACE, id, 'replica-a', token, leaseTtlMs);
    result.renew = 'renewed';
  } catch (error) {
    result.renew = error.code;
  }
  print(result);
  await stores.close();
} else {
  process.stderr.write(`unknown role ${role}\n`);
  process.exit(2);
}
