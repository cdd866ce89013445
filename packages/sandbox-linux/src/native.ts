// Where this package's native helpers are (native/*.c, built static by
// scripts/build-native.mjs into dist/native/ for the arch of the host that built them):
// sandbox-init runs inside each sandbox, sandbox-launch on the host's side of each start.
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type NativeHelper = 'sandbox-init' | 'sandbox-launch';

/** A helper's file name for `arch` (`process.arch` names). */
export function nativeHelperName(helper: NativeHelper, arch: string): string {
  return `${helper}-linux-${arch}`;
}

/** sandbox-init's file name for `arch`. */
export function sandboxInitName(arch: string): string {
  return nativeHelperName('sandbox-init', arch);
}

/**
 * The built helper for `arch`, or undefined where it was not built (no C compiler when the
 * package was built, or an arch it was not published with). The path is the same from src/
 * and dist/ (one folder down from the package).
 */
export function builtNativeHelper(
  helper: NativeHelper,
  arch: string,
  executable = isExecutable,
): string | undefined {
  const path = fileURLToPath(new URL(`../dist/native/${nativeHelperName(helper, arch)}`, import.meta.url));
  return executable(path) ? path : undefined;
}

/** sandbox-init for `arch`, or undefined (socat forwards there instead). */
export function builtSandboxInit(arch: string, executable = isExecutable): string | undefined {
  return builtNativeHelper('sandbox-init', arch, executable);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
