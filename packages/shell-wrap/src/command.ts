import { invalidOption } from '@procmux/core-types';

/**
 * Refuses a command no shell can run as written: not a string, empty or only whitespace, or
 * containing a NUL character (which cannot cross an exec boundary; Node would throw later).
 */
export function assertCommand(command: unknown): asserts command is string {
  if (typeof command !== 'string') {
    throw invalidOption('command', 'a string', { value: command });
  }
  if (command.trim() === '') {
    throw invalidOption('command', 'a string with something to run, not only whitespace', { value: command });
  }
  if (command.includes('\0')) {
    throw invalidOption('command', 'free of NUL characters (\\0)');
  }
}

/** Refuses a `shell` option that is present but not a non-empty string. */
export function assertShellOption(shell: unknown): asserts shell is string | undefined {
  if (shell === undefined) return;
  if (typeof shell !== 'string' || shell.trim() === '') {
    throw invalidOption('shell', 'a non-empty string naming a shell or its path', { value: shell });
  }
}
