// The six standard tasks, each done as a careful model would do it through `procmux mcp`:
// the calls follow what the replies say (a log page names the next call), and each task checks
// it got the right answer, so a count is only reported for a task that was done.
import { writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { descendantsOf, isAlive } from '../../processes.js';
import { postSecret, type Reply, sessionOf, type TaskClient } from './client.js';

/** What a task needs of the run. */
export interface TaskWorld {
  dir: string;
  client: TaskClient;
}

/** The failing test of the 200: its name and its message, which the reply must carry. */
const FAILING = {
  name: 'dates > parses an ISO week date (2026-W49-4)',
  message: "expected '2026-12-02' to equal '2026-12-03'",
};

/** A vitest-like run of 200 tests: each logs a little, #137 fails, the summary comes last. */
function testRunScript(): string {
  return `const out = [];
for (let i = 1; i <= 200; i++) {
  const name = i === 137 ? ${JSON.stringify(FAILING.name)} : 'suite ' + Math.ceil(i / 20) + ' > case ' + i + ' handles input ' + i * 7;
  out.push('stdout | ' + name + '\\n  preparing fixture ' + i + ' from fixtures/case-' + i + '.json (' + (i * 13) % 97 + ' records)\\n  cache warm, ' + (i * 31) % 11 + ' entries reused');
  out.push((i === 137 ? ' × ' : ' ✓ ') + name + ' ' + (i % 9) + 'ms');
}
out.push('', '⎯⎯⎯ Failed Tests 1 ⎯⎯⎯', '', ' FAIL  test/dates.test.ts > ' + ${JSON.stringify(FAILING.name)});
out.push('AssertionError: ' + ${JSON.stringify(FAILING.message)}, ' ❯ test/dates.test.ts:88:31', '');
out.push(' Test Files  1 failed | 9 passed (10)', '      Tests  1 failed | 199 passed (200)');
console.log(out.join('\\n'));
process.exitCode = 1;
`;
}

export async function findFailingTest(w: TaskWorld): Promise<string> {
  writeFileSync(join(w.dir, 'run-tests.mjs'), testRunScript());
  const reply = await w.client.call('exec', { command: 'node run-tests.mjs' });
  if (!reply.text.includes(FAILING.name) || !reply.text.includes(FAILING.message)) {
    throw new Error('the reply did not carry the failing test');
  }
  return 'the name and message of the 1 failure among 200 tests in the first reply';
}

/** A dev server that is ready after a while of its own. */
function devServerScript(): string {
  return `import { createServer } from 'node:http';
console.log('compiling…');
setTimeout(() => {
  const server = createServer((_, res) => res.end('ok'));
  server.listen(0, '127.0.0.1', () => console.log('ready: listening on http://127.0.0.1:' + server.address().port));
}, 1500);
`;
}

export async function startDevServer(w: TaskWorld): Promise<string> {
  writeFileSync(join(w.dir, 'dev-server.mjs'), devServerScript());
  const started = await w.client.call('exec', { command: 'node dev-server.mjs', mode: 'daemon' });
  const id = sessionOf(started);
  let text = started.text;
  if (!/listening on http/.test(text)) {
    const ready = await w.client.call('process', {
      action: 'wait_for',
      session_id: id,
      pattern: 'listening on http',
    });
    text = ready.text;
  }
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1];
  if (!url || (await fetchText(url)) !== 'ok')
    throw new Error('the server was not ready when the reply said so');
  await w.client.call('process', { action: 'kill', session_id: id });
  // The kill is housekeeping, not part of knowing it is ready.
  w.client.replies.pop();
  return 'daemon start, then wait_for its "listening" line; the URL answered';
}

export async function answerRepl(w: TaskWorld): Promise<string> {
  const started = await w.client.call('exec', { command: 'python3 -q -i', mode: 'session' });
  const id = sessionOf(started);
  await w.client.call('process', { action: 'paste', session_id: id, text: 'print(6*7)' });
  let reply = await w.client.call('process', { action: 'submit', session_id: id });
  const inSubmit = /^42$/m.test(reply.text);
  if (!inSubmit)
    reply = await w.client.call('process', { action: 'wait_for', session_id: id, pattern: '^42$' });
  if (!/^42$/m.test(reply.text)) throw new Error('the REPL answer never showed');
  await w.client.call('process', { action: 'kill', session_id: id });
  w.client.replies.pop();
  return `session start, paste, submit${inSubmit ? ' (its reply showed 42)' : ', wait_for ^42$ (the submit reply came before the answer)'}`;
}

export async function readLogWhole(w: TaskWorld, lines: number): Promise<string> {
  const file = join(w.dir, 'big.log');
  const expected = Array.from({ length: lines }, (_, i) => String(i + 1));
  writeFileSync(file, `${expected.join('\n')}\n`);
  const first = await w.client.call('exec', { command: 'cat big.log' });
  const id = sessionOf(first);
  const got: string[] = [];
  let next: { offset: number; limit: number } | undefined = { offset: 0, limit: lines };
  while (next) {
    const page: Reply = await w.client.call('process', { action: 'log', session_id: id, ...next });
    const meta = page.data.lines as {
      offset: number;
      count: number;
      next?: { offset: number; limit: number };
    };
    const body = page.text.split('\n').slice(0, meta.count);
    got.push(...body);
    next = meta.next;
  }
  if (got.length !== lines || got.some((line, i) => line !== expected[i])) {
    throw new Error(`the pages did not add up to the log (${got.length} of ${lines} lines)`);
  }
  return `exec cat, then log pages from offset 0 following each page's "Next:" (${lines} lines, every one checked)`;
}

export async function killTreeAndConfirm(w: TaskWorld): Promise<string> {
  const started = await w.client.call('exec', {
    command: 'for i in 1 2 3 4; do sleep 300 & done; echo started; wait',
    mode: 'daemon',
  });
  const id = sessionOf(started);
  const pid = (started.data.session as { pid?: number }).pid;
  if (pid === undefined) throw new Error('the start reply named no pid');
  const tree = [pid, ...descendantsOf(pid)];
  if (tree.length < 5) throw new Error(`the tree had ${tree.length} processes, not 5`);
  const killed = await w.client.call('process', { action: 'kill', session_id: id });
  if (!/Process killed by SIG/.test(killed.text))
    throw new Error(`the kill reply did not confirm: ${killed.text}`);
  const left = tree.filter(isAlive);
  if (left.length > 0) throw new Error(`${left.length} processes of the tree are still alive`);
  return 'daemon start, kill (its reply says killed; the process table agrees: 0 left)';
}

export async function answerPassword(w: TaskWorld): Promise<string> {
  const reply = await w.client.call('exec', {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a bash parameter expansion
    command: 'read -s -p "Password: " pw; echo "got ${#pw} chars"',
  });
  if (!reply.text.includes('got 14 chars') || reply.text.includes(PERSON_SECRET)) {
    throw new Error(`the password did not reach the program, or showed: ${reply.text}`);
  }
  return 'one one_shot; a scripted person answered the URL elicitation (the secret never in a reply)';
}

export const PERSON_SECRET = 'correct-horse1';

/** The scripted person of answerPassword: types the secret into the page it was sent to. */
export const scriptedPerson = (url: string) => postSecret(url, PERSON_SECRET);

function fetchText(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => resolve(body));
    }).on('error', reject);
  });
}
