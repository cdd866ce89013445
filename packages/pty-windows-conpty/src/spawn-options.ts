// Turns the caller's options into exactly what node-pty's ConPTY spawn gets.
import { win32 } from 'node:path';
import {
  checkSpawnTarget,
  invalidOption,
  type KillReport,
  type KillTreeOptions,
  type PtySpawnOptions,
  withTreeMarker,
} from '@procmux/core-types';
import { checkPtyCwd, checkPtyEnv, checkPtyOptions, resolvePtySize, resolvePtyTerm } from '@procmux/pty-core';
import { windowsPtySpec } from '@procmux/shell-wrap';
import type { ConptyModule } from './node-pty.js';

/** Options of the ConPTY adapter: the shared PtySpawnOptions plus this backend's knobs. */
export interface ConptyOptions extends PtySpawnOptions {
  /** The cmd executable for `command`; the environment's ComSpec, else cmd.exe. */
  comspec?: string;
  /** node-pty itself, already loaded (tests inject a fake); imported on first use otherwise. */
  nodePty?: ConptyModule;
  /** A force kill that brings no exit within this many ms settles as SIGKILL (default 4000). */
  forceKillSettleMs?: number;
  /** Effect: the tree kill behind kill('force'); @procmux/kill-windows by default. */
  killTree?: (pid: number, options: KillTreeOptions) => Promise<KillReport>;
  /** Effect: whether cwd is an existing directory; a stat by default (tests off Windows inject it). */
  isDirectory?: (path: string) => boolean;
}

/** What node-pty gets, fully resolved. */
export interface ResolvedConptySpawn {
  file: string;
  /** A string is the verbatim command-line tail (shell commands); an array is quoted by node-pty. */
  args: string | string[];
  /** Absolute. */
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  term: string;
}

/**
 * Validates the options and resolves the command line, cwd, environment and size. Throws
 * ERR_INVALID_OPTION saying what is allowed. Paths are Windows paths whatever the host is.
 */
export function resolveConptySpawn(
  options: ConptyOptions,
  processEnv: Readonly<Record<string, string | undefined>> = process.env,
  processCwd: string = process.cwd(),
): ResolvedConptySpawn {
  checkPtyOptions(options);
  const given = checkPtyCwd(options.cwd);
  const cwd = given === undefined ? win32.resolve(processCwd) : win32.resolve(processCwd, given);
  const { cols, rows } = resolvePtySize(options);
  const term = resolvePtyTerm(options.term);
  const env = withTreeMarker(options.env === undefined ? processEnv : checkPtyEnv(options.env, true));
  env.TERM = term;
  const { file, args } = resolveTarget(options, env);
  return { file, args, cwd, env, cols, rows, term };
}

function resolveTarget(
  options: ConptyOptions,
  env: Record<string, string>,
): { file: string; args: string | string[] } {
  const target = checkSpawnTarget(options);
  if ('file' in target) {
    // comspec, like shell, only means something for a command.
    if (options.comspec !== undefined)
      throw invalidOption('comspec', 'given only with command (file runs without a shell)');
    return target;
  }
  // A string tail reaches the shell verbatim: node-pty would re-quote an array with
  // backslash escapes, which cmd does not understand.
  const spec = windowsPtySpec(target.command, { shell: target.shell, comspec: options.comspec, env });
  return { file: spec.file, args: spec.commandLine };
}
