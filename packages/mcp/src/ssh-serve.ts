import type { SshBackend } from '@procmux/backend-ssh';
import type { SshRequest } from './ssh-args.js';

/** Connects for `procmux mcp --ssh`; a refused host key or login fails the start (exit 2). */
export async function openSshBackend(request: SshRequest, log: (line: string) => void): Promise<SshBackend> {
  // Loaded only for --ssh: a local server never loads ssh2.
  const { createSshBackend } = await import('@procmux/backend-ssh');
  const backend = await createSshBackend({
    host: request.host,
    port: request.port,
    username: request.username,
    knownHostsFile: request.knownHostsFile,
    ...(request.identityFile !== undefined ? { identityFile: request.identityFile } : {}),
  });
  log(
    `procmux mcp: sessions run on ${request.username}@${request.host}:${request.port} over SSH` +
      (backend.lossBoundMs !== null
        ? ` (a lost connection is noticed within ${backend.lossBoundMs} ms)`
        : ''),
  );
  return backend;
}
