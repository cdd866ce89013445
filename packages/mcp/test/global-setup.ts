// The end-to-end tests run the built CLI (node dist/cli.js) and serve the built app page, so
// build this package first.
// Its @procmux dependencies are built by turbo (`test` depends on `^build`).
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const root = fileURLToPath(new URL('..', import.meta.url));
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  // The terminal app's page (dist/app/terminal.html), served as ui://procmux/terminal.
  execFileSync(process.execPath, ['scripts/build-app.mjs'], { cwd: root, stdio: 'inherit' });
}
