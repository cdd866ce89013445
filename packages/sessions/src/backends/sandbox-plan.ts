// Which OS sandbox policy a start gets: apart from os-sandbox.ts, which needs the start plan.
import { homedir } from 'node:os';
import { invalidOption } from '@procmux/core-types';
import { resolveSandboxPolicy, type SandboxOptions, type SandboxPolicy } from '@procmux/sandbox-linux';

/** The policy a start runs under, or undefined for none. */
export function planSandbox(
  requested: SandboxOptions | boolean | undefined,
  registry: SandboxOptions | true | undefined,
  workspace: string,
): SandboxPolicy | undefined {
  if (requested === false || (requested === undefined && registry === undefined)) return undefined;
  if (
    requested !== undefined &&
    typeof requested !== 'boolean' &&
    (typeof requested !== 'object' || requested === null)
  ) {
    throw invalidOption('sandbox', 'true, false or a policy { write?, allowDomains?, denyRead? }', {
      value: requested,
    });
  }
  const options = typeof requested === 'object' ? requested : registry === true ? {} : registry;
  return resolveSandboxPolicy(options, { workspace, home: process.env.HOME ?? homedir() });
}
