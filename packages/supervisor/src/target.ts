import type { SpawnTarget } from '@procmux/core-types';
import { shellWrap } from '@procmux/shell-wrap';

/** A spawnable program: what child_process.spawn takes. */
export interface ResolvedTarget {
  file: string;
  args: string[];
  /** Windows cmd.exe command lines must reach the child unquoted by Node. */
  windowsVerbatimArguments: boolean;
}

/**
 * A `command` goes through the platform's shell (found on the child's PATH); `file` + `args`
 * run as given. The target is validated by the caller (exactly one of the two).
 */
export function resolveTarget(
  target: SpawnTarget,
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
): ResolvedTarget {
  if (target.command !== undefined) {
    const wrapped = shellWrap(target.command, { platform, shell: target.shell, env });
    return {
      file: wrapped.file,
      args: [...wrapped.args],
      windowsVerbatimArguments: wrapped.windowsVerbatimArguments,
    };
  }
  return { file: target.file ?? '', args: [...(target.args ?? [])], windowsVerbatimArguments: false };
}

/** A short label for log messages: the command, or the file and its arguments. */
export function describeTarget(target: SpawnTarget): string {
  return target.command ?? [target.file ?? '', ...(target.args ?? [])].join(' ');
}
