// A run held by a delegated user scope: every process in the scope is killed once the run's
// own process has ended (a daemon that left its process group and cleared its environment
// stays in the scope's cgroup, which it cannot leave). Never ran here: see support.ts.
import type { ProcessAdapter, WaitResult } from '@procmux/core-types';

/** Runs `systemctl`; resolves once it exited (a failure is the caller's to report). */
export type ScopeCommand = (
  file: string,
  args: readonly string[],
) => Promise<{ code: number | null; stderr: string }>;

/** The argv that SIGKILLs every process left in the scope `unit` (systemd-run's `--unit`). */
export function killScopeArgv(unit: string): { file: string; args: string[] } {
  return {
    file: 'systemctl',
    args: ['--user', 'kill', '--kill-whom=all', '--signal=SIGKILL', `${unit}.scope`],
  };
}

/**
 * Makes `adapter.wait()` kill what is left in the scope before it resolves (once; `--collect`
 * lets systemd remove the emptied scope). A scope already gone (nothing was left in it) is no
 * error. Returns the same adapter.
 */
export function endScopeAfterExit<A extends ProcessAdapter>(
  adapter: A,
  unit: string,
  run: ScopeCommand,
  onError: (message: string) => void,
): A {
  const own = adapter.wait.bind(adapter);
  let exit: Promise<WaitResult> | undefined;
  adapter.wait = () => {
    exit ??= own().then(async (result) => {
      const { file, args } = killScopeArgv(unit);
      const done = await run(file, args);
      if (done.code !== 0 && !/not loaded|not found/i.test(done.stderr))
        onError(`systemctl --user kill ${unit}.scope failed: ${done.stderr.trim() || `exit ${done.code}`}`);
      return result;
    });
    return exit;
  };
  return adapter;
}
