/**
 * Set for one-shot commands unless the caller's `env` says otherwise: nobody is at a terminal
 * to page through output, type a password or edit a message, so a program that would wait for
 * one must get on (or fail) instead of hanging until the timeout.
 *
 * - PAGER, GIT_PAGER: `cat`, so `git log`, `man`, `systemctl` print instead of opening `less`.
 * - GIT_TERMINAL_PROMPT=0: git fails ("terminal prompts disabled") instead of asking for a login.
 * - GIT_ASKPASS, SSH_ASKPASS empty: no graphical password helper pops up on the host's desktop
 *   (an empty GIT_ASKPASS also stops git from falling back to SSH_ASKPASS or core.askPass).
 * - GCM_INTERACTIVE=never: Git Credential Manager fails instead of opening a sign-in window.
 * - GIT_EDITOR=true: `git commit` without -m, `git rebase -i`, `git merge` accept the default message.
 * - DEBIAN_FRONTEND=noninteractive: apt and dpkg take default answers.
 *
 * CI=1 is deliberately not set: it changes what test runners and build tools do (snapshot
 * writing, reporters, caching), which is not ours to decide.
 */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = Object.freeze({
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  GIT_TERMINAL_PROMPT: '0',
  GIT_ASKPASS: '',
  SSH_ASKPASS: '',
  GCM_INTERACTIVE: 'never',
  GIT_EDITOR: 'true',
  DEBIAN_FRONTEND: 'noninteractive',
});

/**
 * Set for commands whose output goes to pipes (one-shots and daemons) unless the caller's
 * `env` says otherwise: output a program holds back is output nobody sees in time, and lost
 * when the program is killed.
 *
 * - PYTHONUNBUFFERED=1: Python keeps print() output in an 8 KiB buffer when stdout is a pipe,
 *   so a daemon's `Serving HTTP on ...` never showed (`wait_for` timed out with the port open)
 *   and a one-shot ended by its timeout lost everything it had printed.
 *
 * C programs' stdio buffers the same way; nothing portable turns that off from outside
 * (`stdbuf` preloads a library into the program), so it is left as it is.
 */
export const PIPE_OUTPUT_ENV: Readonly<Record<string, string>> = Object.freeze({
  PYTHONUNBUFFERED: '1',
});
