// Where this package's sandbox-init helper is (native/sandbox-init.c, built static by
// scripts/build-native.mjs into dist/native/ for the arch of the host that built it).
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The helper's file name for `arch` (`process.arch` names). */
export function sandboxInitName(arch: string): string {
  return `sandbox-init-linux-${arch}`;
}

/**
 * The built helper for `arch`, or undefined where it was not built (no C compiler when the
 * package was built, or an arch it was not published with): socat forwards there instead.
 * The path is the same from src/ and dist/ (one folder down from the package).
 */
export function builtSandboxInit(arch: string, executable = isExecutable): string | undefined {
  const path = fileURLToPath(new URL(`../dist/native/${sandboxInitName(arch)}`, import.meta.url));
  return executable(path) ? path : undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
