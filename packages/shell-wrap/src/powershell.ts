/**
 * Encodes a command for PowerShell's `-EncodedCommand`: base64 of its UTF-16LE bytes.
 * Quotes, spaces, `$`, newlines and non-ASCII text then cross the Windows command line
 * as plain `[A-Za-z0-9+/=]`, with nothing for cmd or the C runtime to reinterpret.
 *
 * @example
 * encodePowerShellCommand('Write-Output "hi"'); // 'VwByAGkAdABlAC0ATwB1AHQAcAB1AHQAIAAiAGgAaQAiAA=='
 */
export function encodePowerShellCommand(command: string): string {
  return Buffer.from(command, 'utf16le').toString('base64');
}

/** Flags for a pipe (non-interactive) run: no banner, no profile, never wait on a prompt. */
export const POWERSHELL_PIPE_FLAGS: readonly string[] = ['-NoLogo', '-NoProfile', '-NonInteractive'];

/**
 * Flags for a terminal run. -NonInteractive is left out on purpose: in a PTY someone can
 * answer Read-Host or a confirmation prompt, and -NonInteractive would turn those into errors.
 */
export const POWERSHELL_PTY_FLAGS: readonly string[] = ['-NoLogo', '-NoProfile'];
