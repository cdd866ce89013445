import { stripAnsi } from '@procmux/ansi';
import { createInputDetector, type InputDetector } from './detector.js';
import { promptLine } from './heuristic.js';
import { linuxProcEffects } from './node-effects.js';

let shared: InputDetector | undefined;

/** This host's detector, made on first use (nothing at import). */
export function defaultInputDetector(): InputDetector {
  shared ??= createInputDetector(
    { platform: process.platform, arch: process.arch },
    process.platform === 'linux' ? linuxProcEffects : undefined,
  );
  return shared;
}

/** The prompt from a log's tail (raw, ANSI included). */
export function promptFromTail(tail: string): string {
  return promptLine(stripAnsi(tail));
}

/**
 * Whether this host's detection is grounded in the kernel (Linux), so a tool may act on it
 * (stop a one-shot at a prompt) rather than only report it.
 */
export function kernelInputDetection(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'linux';
}
