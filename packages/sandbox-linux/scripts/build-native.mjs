// Builds native/sandbox-init.c and native/sandbox-launch.c into
// dist/native/<name>-linux-<arch>, static, so that nothing is loaded when they start (one
// inside each sandbox, one on the host's side of each sandboxed start). musl's startup is the lighter one (an
// exec of it costs ~0.85 ms less than a static glibc's here, once per sandboxed start), so
// musl-gcc (Debian: musl-tools) is used where it is installed, else cc. Off Linux, or without
// a C compiler, it says so and builds nothing: sessions then forward through socat
// (src/native.ts).
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const programs = ['sandbox-init', 'sandbox-launch'];

if (process.platform !== 'linux') {
  console.log(`sandbox-init: not built (${process.platform}; the sandbox is Linux's)`);
  process.exit(0);
}
const cc = process.env.CC ?? (onPath('musl-gcc') ? 'musl-gcc' : 'cc');
const flags = ['-O2', '-s', '-Wall', '-Wextra', '-Werror'];
for (const name of programs) {
  const out = join(root, 'dist', 'native', `${name}-linux-${process.arch}`);
  const source = join(root, 'native', `${name}.c`);
  mkdirSync(dirname(out), { recursive: true });
  const compile = (extra) =>
    execFileSync(cc, [...flags, ...extra, '-o', `${out}.tmp`, source], { stdio: 'inherit' });
  try {
    try {
      compile(['-static']);
    } catch (error) {
      if (error.code === 'ENOENT') throw error;
      // A libc without its static archive (glibc-static is optional on Fedora): linked to libc.
      console.log(`${name}: no static libc here; linking it dynamically`);
      compile([]);
    }
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    console.log(
      `${programs.join(', ')}: not built (no C compiler: ${cc}); sandboxed sessions forward through socat and launch through bash`,
    );
    process.exit(0);
  }
  // Built beside, then renamed: a sandbox starting during a rebuild runs a whole file.
  renameSync(`${out}.tmp`, out);
}

function onPath(name) {
  return (process.env.PATH ?? '').split(':').some((dir) => {
    try {
      accessSync(join(dir || '.', name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
