// A throwaway verdaccio on 127.0.0.1 for the consumer-install test: installed from npm into
// tooling/.verdaccio at run time, its upstream is the npm registry this machine is configured
// with, and it dies with this process however that ends (the server child exits when its
// stdin pipe from us closes, which the kernel does even when we are SIGKILLed).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERDACCIO = 'verdaccio@6';
const here = fileURLToPath(new URL('.', import.meta.url));
const toolDir = join(here, '../.verdaccio');

/** `npm config get <key>`, or '' when unset. */
export function npmConfig(key) {
  const value = execFileSync('npm', ['config', 'get', key], { encoding: 'utf8' }).trim();
  return value === 'undefined' || value === 'null' ? '' : value;
}

function ensureVerdaccio(log) {
  const entry = join(toolDir, 'node_modules/verdaccio/package.json');
  if (existsSync(entry)) return;
  log(`installing ${VERDACCIO} from npm into tooling/.verdaccio`);
  execFileSync(
    'npm',
    ['install', '--no-save', '--no-package-lock', '--no-fund', '--no-audit', '--prefix', toolDir, VERDACCIO],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Runs inside the server child: start verdaccio, then exit when the parent's pipe closes.
const SERVER_CHILD = `
const { runServer } = require(process.env.VERDACCIO_ENTRY);
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
runServer(process.env.VERDACCIO_CONFIG).then((app) => {
  app.listen(Number(process.env.VERDACCIO_PORT), '127.0.0.1', () => process.stdout.write('listening\\n'));
}, (error) => { console.error(error); process.exit(1); });
`;

function writeConfig(dir, uplink) {
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      `storage: ${JSON.stringify(join(dir, 'storage'))}`,
      'auth:',
      '  htpasswd:',
      `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
      '    max_users: 10',
      'uplinks:',
      '  upstream:',
      `    url: ${JSON.stringify(uplink)}`,
      '    timeout: 60s',
      'packages:',
      // Ours come only from what this run publishes, never from upstream.
      "  '@procmux/*':",
      '    access: $all',
      '    publish: $authenticated',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      '    proxy: upstream',
      'max_body_size: 200mb',
      'log: { type: stdout, format: pretty, level: error }',
      '',
    ].join('\n'),
  );
  return config;
}

/**
 * Starts the registry in `dir`. Resolves to { url, token, stop() } once it answers; `stop()`
 * is idempotent and also runs on this process's exit.
 */
export async function startRegistry(dir, log) {
  ensureVerdaccio(log);
  const uplink = npmConfig('registry') || 'https://registry.npmjs.org/';
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', SERVER_CHILD], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: {
      ...process.env,
      VERDACCIO_ENTRY: join(toolDir, 'node_modules/verdaccio'),
      VERDACCIO_CONFIG: writeConfig(dir, uplink),
      VERDACCIO_PORT: String(port),
    },
  });
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    child.stdin.destroy();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', stop);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('verdaccio did not start within 60 s')), 60_000);
    child.stdout.on('data', (chunk) => {
      if (String(chunk).includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`verdaccio exited with ${code} before listening`));
    });
  }).catch((error) => {
    stop();
    throw error;
  });
  const url = `http://127.0.0.1:${port}/`;
  log(`verdaccio ${readVersion()} on ${url} (pid ${child.pid}), upstream ${uplink}`);
  const token = await addUser(url);
  return { url, token, port, pid: child.pid, stop };
}

function readVersion() {
  return JSON.parse(readFileSync(join(toolDir, 'node_modules/verdaccio/package.json'), 'utf8')).version;
}

// A throwaway user: the registry lives for this run only, so the password is irrelevant.
async function addUser(url) {
  const name = `ci${process.pid}`;
  const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: `pw-${Date.now()}`, type: 'user', roles: [] }),
  });
  const body = await response.json();
  if (!response.ok || typeof body.token !== 'string') {
    throw new Error(`verdaccio refused the throwaway user: ${response.status} ${JSON.stringify(body)}`);
  }
  return body.token;
}
