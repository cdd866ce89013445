// Where a pipe child's terminal stdin comes from: the POSIX PTY package, loaded on first use.
import { invalidOption, ProcmuxError, type StdinTerminal } from '@procmux/core-types';
import { loadPlatform } from './platform.js';

/** What ChildAdapter needs of a stdin terminal: @procmux/pty-posix's, by the core-types contract. */
export type StdinTerminalHandle = StdinTerminal;

export type OpenStdinTerminal = () => Promise<StdinTerminalHandle>;

/**
 * The platform's opener. Windows has no terminal to give one stdin (ConPTY owns all three
 * streams): ERR_INVALID_OPTION there.
 */
export function stdinTerminalOpener(platform: NodeJS.Platform): OpenStdinTerminal {
  return async () => {
    if (platform === 'win32') {
      throw invalidOption('stdin', "'open' or 'closed' on Windows (stdin 'terminal' is POSIX only)", {
        value: 'terminal',
        values: ['open', 'closed'],
      });
    }
    // Looked up once: a dynamic import per spawn costs about a millisecond.
    loaded ??= loadOpener(platform);
    const open = await loaded.catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return open();
  };
}

let loaded: Promise<OpenStdinTerminal> | undefined;

async function loadOpener(platform: NodeJS.Platform): Promise<OpenStdinTerminal> {
  const module = (await loadPlatform(platform).loadPty()) as { openStdinTerminal?: unknown };
  if (typeof module.openStdinTerminal !== 'function') {
    throw new ProcmuxError(
      'ERR_PROCESS_PTY_BACKEND',
      "@procmux/pty-posix does not export openStdinTerminal(); install a matching version for stdin 'terminal'",
    );
  }
  return module.openStdinTerminal as OpenStdinTerminal;
}
