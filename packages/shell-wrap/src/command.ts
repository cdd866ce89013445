import { describe, ProcmuxError } from '@procmux/core-types';

/**
 * Refuses a command no shell can run as written: not a string, empty or only whitespace, or
 * containing a NUL character (which cannot cross an exec boundary; Node would throw later).
 */
export function assertCommand(command: unknown): asserts command is string {
  if (typeof command !== 'string') {
    throw new ProcmuxError('ERR_INVALID_OPTION', `command must be a string (got ${describe(command)})`, {
      details: { option: 'command' },
    });
  }
  if (command.trim() === '') {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `command must contain something to run, not only whitespace (got ${describe(command)})`,
      { details: { option: 'command' } },
    );
  }
  if (command.includes('\0')) {
    throw new ProcmuxError('ERR_INVALID_OPTION', 'command must not contain a NUL character (\\0)', {
      details: { option: 'command' },
    });
  }
}

/** Refuses a `shell` option that is present but not a non-empty string. */
export function assertShellOption(shell: unknown): asserts shell is string | undefined {
  if (shell === undefined) return;
  if (typeof shell !== 'string' || shell.trim() === '') {
    throw new ProcmuxError(
      'ERR_INVALID_OPTION',
      `shell must be a non-empty string naming a shell or its path (got ${describe(shell)})`,
      { details: { option: 'shell' } },
    );
  }
}
