import type { StdinMode } from '@procmux/core-types';

/** How a one-shot's stdin is wired and what happens when its command seems to wait on it. */
export interface OneShotInputPlan {
  /**
   * 'terminal' (POSIX): stdin is a pseudo-terminal nobody types into, stdout and stderr stay
   * pipes, so a prompt printed only on a terminal (bash `read -p`, getpass) shows.
   * 'closed' (Windows): end of input at once.
   */
  stdin: StdinMode;
  /** What stdin falls back to when no terminal can be opened (no PTY module). */
  fallbackStdin: StdinMode;
  /** The kernel tells (Linux): a command blocked reading its input is stopped and reported. */
  stopOnKernelWait: boolean;
  /**
   * Only a guess exists (macOS): a quiet unfinished line (the heuristic) ends the input at
   * once and the result notes the guessed prompt; nothing is stopped on a guess.
   */
  endInputOnGuess: boolean;
}

/**
 * The plan for a platform. Linux: a terminal stdin, and the kernel says when the command
 * blocks reading it. macOS and other POSIX: a terminal stdin too (prompts show), ended on the
 * heuristic's guess or after 1 s of quiet. Windows: unchanged, end of input at once (a console
 * cannot be given as stdin alone, and a guess cannot tell a prompt from a pause).
 */
export function oneShotInputPlan(platform: NodeJS.Platform): OneShotInputPlan {
  if (platform === 'win32') {
    return { stdin: 'closed', fallbackStdin: 'closed', stopOnKernelWait: false, endInputOnGuess: false };
  }
  if (platform === 'linux') {
    return { stdin: 'terminal', fallbackStdin: 'open', stopOnKernelWait: true, endInputOnGuess: false };
  }
  return { stdin: 'terminal', fallbackStdin: 'closed', stopOnKernelWait: false, endInputOnGuess: true };
}
