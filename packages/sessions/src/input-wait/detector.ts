import { heuristicWaiting } from './heuristic.js';
import { type KernelTarget, kernelWaiting } from './kernel-detect.js';
import type { ProcEffects } from './proc-effects.js';

export type InputConfidence = 'kernel' | 'heuristic';

export interface InputProbe {
  waiting: boolean;
  echo: boolean;
  confidence: InputConfidence;
}

export interface ProbeFacts {
  rootPid: number | undefined;
  kind: 'pty' | 'pipe';
  /** How long the output has been quiet. */
  quietMs: number;
  /**
   * How long since the last output or the last input written, if known: a program just typed
   * to may not have read the input yet (the kernel still finds it in its wait).
   */
  idleMs?: number;
  /** The prompt: the unfinished last line of the output (on a terminal, up to the cursor). */
  prompt: string;
  /**
   * On a terminal, the cursor's whole line (`prompt` may leave out a screen's row): what the
   * heuristic reads as an unfinished line, as it always did. Absent: `prompt`.
   */
  line?: string;
  /** A terminal program is on the alternate screen: `prompt` is '' (its cursor row is its text). */
  fullScreen?: true;
}

export type InputDetector = (facts: ProbeFacts) => Promise<InputProbe>;

/**
 * The detector for a platform: the kernel on Linux, falling back to the heuristic for a session
 * whose processes the kernel will not describe (no pid, /proc unreadable); the heuristic
 * elsewhere (macOS and Windows have no /proc to ask without native code).
 */
export function createInputDetector(
  env: { platform: NodeJS.Platform; arch: string },
  fx: ProcEffects | undefined,
): InputDetector {
  const heuristic = (facts: ProbeFacts): InputProbe => ({
    ...heuristicWaiting({ quietMs: facts.quietMs, prompt: facts.line ?? facts.prompt }),
    confidence: 'heuristic',
  });
  if (env.platform !== 'linux' || !fx) return async (facts) => heuristic(facts);
  return async (facts) => {
    if (facts.rootPid === undefined) return heuristic(facts);
    const target: KernelTarget = {
      rootPid: facts.rootPid,
      kind: facts.kind,
      arch: env.arch,
      quietMs: facts.idleMs ?? facts.quietMs,
    };
    const verdict = await kernelWaiting(target, fx);
    if (verdict === null) return heuristic(facts);
    return verdict.waiting
      ? { waiting: true, echo: verdict.echo, confidence: 'kernel' }
      : { waiting: false, echo: true, confidence: 'kernel' };
  };
}
