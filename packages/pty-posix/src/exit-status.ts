import { constants } from 'node:os';
import type { SignalName, WaitResult } from '@procmux/core-types';

type SignalTable = Readonly<Partial<Record<SignalName, number>>>;

/**
 * node-pty's native exit callback gives `(exitCode, signalNumber)`, with exitCode 0 for a
 * signal death (`{exitCode: 0, signal: 15}`). This turns it into a WaitResult with Node's
 * signal name. A signal Node has no name for (the real-time ones) cannot be named on our
 * surface, so it is reported the way a shell would: code 128 + n.
 */
export function toWaitResult(
  exitCode: number,
  signal: number,
  signals: SignalTable = constants.signals,
): WaitResult {
  if (signal === 0) return { code: exitCode, signal: null };
  const name = signalName(signal, signals);
  return name === undefined ? { code: 128 + signal, signal: null } : { code: null, signal: name };
}

/** The first name os.constants.signals lists for a number (SIGABRT before its alias SIGIOT). */
export function signalName(signal: number, signals: SignalTable = constants.signals): SignalName | undefined {
  for (const [name, value] of Object.entries(signals)) {
    if (value === signal) return name as SignalName;
  }
  return undefined;
}
