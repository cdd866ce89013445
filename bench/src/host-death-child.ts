// A host for the host-death-cleanup case, in its own Node process: a sessions registry with
// 4 pipe sessions of 5 processes each (bash + 4 sleeps that honour SIGTERM), then one line
// "ready <root pid>..." on stdout; the case SIGKILLs it and times the cleanup. Never disposes.
import { BENCH_MARKER_ENV, runMarker } from './processes.js';
import { loadSessions, quietLogger } from './procmux-api.js';

export const HOST_SESSIONS = 4;
export const PROCESSES_PER_SESSION = 5;
export const TREE_COMMAND = 'for i in 1 2 3 4; do sleep 600 & done; wait';

async function main(): Promise<void> {
  const { createProcessSessions } = await loadSessions();
  const sessions = createProcessSessions({ cwd: process.cwd(), logger: quietLogger() });
  const started = await Promise.all(
    Array.from({ length: HOST_SESSIONS }, () =>
      sessions.start({ shell: true, command: TREE_COMMAND, env: { [BENCH_MARKER_ENV]: runMarker() } }),
    ),
  );
  process.stdout.write(`ready ${started.map((s) => s.metadata?.().pid ?? 0).join(' ')}\n`);
  setInterval(() => {}, 60_000);
}

if (process.argv[2] === 'run') void main();
