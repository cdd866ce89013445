// The real effects of systemdScopeSupport, and its answer kept once per process.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { hasExecutableOnPath } from '@procmux/shell-wrap';
import { type SystemdScopeSupport, systemdScopeSupport } from './support.js';

let cached: Promise<SystemdScopeSupport> | undefined;

/** Runs a probe; its exit code (null when it could not start) and stderr. */
export function runProbe(
  file: string,
  args: readonly string[],
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, [...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (error) => resolve({ code: null, stderr: error.message }));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/**
 * This host's answer: whether a delegated user scope can hold a session. Root and hosts
 * without systemd-run or a user manager answer without running anything.
 */
export function hostSystemdScopeSupport(): Promise<SystemdScopeSupport> {
  cached ??= systemdScopeSupport({
    platform: process.platform,
    euid: process.geteuid?.() ?? -1,
    env: process.env,
    which: (name) => hasExecutableOnPath(name, process.env),
    exists: existsSync,
    run: runProbe,
  });
  return cached;
}
