// Which forwarder relays the sandbox's 127.0.0.1:3128 to the host's proxy: the package's
// sandbox-init, which also stacks the filter against unix sockets, or socat on request.
import { fileURLToPath } from 'node:url';
import { invalidOption, ProcmuxError } from '@procmux/core-types';
import type { Forwarder } from './launcher.js';

const BUILD_SCRIPT = fileURLToPath(new URL('../scripts/build-native.mjs', import.meta.url));

export interface ForwarderEffects {
  arch: string;
  /** The built sandbox-init (native.ts), or undefined. */
  sandboxInit: string | undefined;
  /** An executable's absolute path on the host's PATH, or undefined. */
  which(name: string): string | undefined;
}

/**
 * The forwarder a sandbox runs: sandbox-init by default, socat only when asked for by name.
 * ERR_INVALID_OPTION for another value; ERR_PROCESS_UNSUPPORTED naming what is missing.
 */
export function chooseForwarder(asked: unknown, fx: ForwarderEffects): Forwarder {
  if (asked !== undefined && asked !== 'sandbox-init' && asked !== 'socat')
    throw invalidOption('forwarder', "'sandbox-init', 'socat' or undefined", { value: asked });
  const path = asked === 'socat' ? undefined : fx.sandboxInit;
  if (path !== undefined) return { kind: 'sandbox-init', path };
  if (asked === 'socat' && fx.which('socat') === undefined)
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      'forwarder socat needs socat on PATH (Debian/Ubuntu: apt-get install socat)',
      { details: { missing: ['socat'] } },
    );
  // Without sandbox-init nothing refuses the program's unix sockets (a host tmux server's
  // socket runs commands outside): a weaker sandbox only when asked for by name.
  if (asked !== 'socat')
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      `this package's sandbox-init was not built for ${fx.arch}, and without it a sandboxed program can connect to the host's unix sockets (a tmux server's runs commands outside); build it with a C compiler (node ${BUILD_SCRIPT}), or ask for forwarder 'socat', which does not refuse them`,
      { details: { missing: ['sandbox-init'] } },
    );
  // The socat forwarder's shell gives the program's variables back by name (launcher.ts).
  const bash = fx.which('bash');
  if (bash === undefined)
    throw new ProcmuxError(
      'ERR_PROCESS_UNSUPPORTED',
      'forwarder socat needs bash on PATH: its shell gives the program its variables back by name (Debian/Ubuntu: apt-get install bash)',
      { details: { missing: ['bash'] } },
    );
  return { kind: 'socat', bash };
}
