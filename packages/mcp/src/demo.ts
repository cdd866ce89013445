import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProcessSessions } from '@procmux/sessions';
import { createProcessTools, type ProcessTool, type ToolResult } from '@procmux/tools';
import { type DemoInterpreter, nodeInterpreter, PYTHON } from './demo-script.js';

export interface DemoOptions {
  /** Where the demo prints (a line at a time, newline included). */
  write: (text: string) => void;
  /** Bold and colour for a terminal. */
  color?: boolean;
  /** Python when python3 runs, else Node. */
  interpreter?: DemoInterpreter;
  /** Aborting stops the demo between calls; every session is killed either way. */
  signal?: AbortSignal;
}

/** A step whose result was not what the demo expected. */
class DemoFailure extends Error {}

/**
 * Runs the main job through the tools exactly as a model would call them, printing each call
 * and the text it gets back: a one-shot command; a REPL session with a pasted function, a
 * submit and a poll; a runaway loop stopped with C-c; a daemon polled, fetched and killed; a
 * final list. Resolves to an exit code (0 when every step showed what it should) and leaves
 * no process behind.
 */
export async function runDemo(options: DemoOptions): Promise<number> {
  const interpreter = options.interpreter ?? pickInterpreter();
  const style = styles(options.color === true);
  const out = options.write;
  const root = mkdtempSync(join(tmpdir(), 'procmux-demo-'));
  const sessions = createProcessSessions({ cwd: root });
  const tools = createProcessTools(sessions);
  let step = 0;

  const heading = (title: string) => {
    step += 1;
    out(`\n${style.heading(`${step}. ${title}`)}\n`);
  };
  const call = async (tool: ProcessTool, params: Record<string, unknown>): Promise<ToolResult> => {
    if (options.signal?.aborted) throw new DemoFailure('stopped');
    out(`${style.call(`▶ ${tool.name} ${JSON.stringify(params)}`)}\n`);
    const result = await tool.run(params, options.signal ? { signal: options.signal } : {});
    for (const line of result.text.split('\n')) out(`${style.gutter('│')} ${line}\n`);
    return result;
  };
  const expectText = (result: ToolResult, pattern: RegExp, what: string) => {
    if (result.isError || !pattern.test(result.text)) throw new DemoFailure(`expected ${what}`);
  };
  const exec = (params: Record<string, unknown>) => call(tools.exec, params);
  const proc = (params: Record<string, unknown>) => call(tools.process, params);

  out(
    `${style.title('procmux demo')}: each step is a tool call a model would make, then the text it reads back.\n`,
  );
  out(`Workspace: ${root} (${interpreter.name} for the interactive parts)\n`);
  try {
    heading('A one-shot command: output and exit status');
    expectText(
      await exec({ command: 'echo "hello from procmux" && uname -s' }),
      /exited with code 0/,
      'exit 0',
    );

    heading(`An interactive ${interpreter.name} session: paste a function, submit, poll`);
    const repl = await exec({ command: interpreter.repl, mode: 'session' });
    expectText(repl, /Process (still running|is waiting for input)/, 'a running session');
    const id = repl.data.session!.id;
    // Typing before the prompt shows races the program's own start-up; wait for it as a person
    // would. wait_for matches the line on screen whole, so a prompt exec already showed (or began
    // to show) counts at once: a model need not check the reply first, and neither does the demo.
    const ready = await proc({
      action: 'wait_for',
      session_id: id,
      pattern: interpreter.prompt.source,
      timeout: 10_000,
    });
    expectText(ready, /Matched /, 'the prompt');
    await proc({ action: 'paste', session_id: id, text: interpreter.definition });
    await proc({ action: 'submit', session_id: id });
    if (interpreter.blankLineEndsBlock) await proc({ action: 'submit', session_id: id });
    await proc({ action: 'paste', session_id: id, text: interpreter.call });
    await proc({ action: 'submit', session_id: id });
    // A model polls again while output keeps coming and the answer is not there yet; so does the demo.
    let seen = '';
    for (let poll = 0; poll < 5 && !interpreter.result.test(seen); poll++) {
      const got = (await proc({ action: 'poll', session_id: id, timeout: 3000 })).text;
      // Each reply on lines of its own: a reply ends with its state line, without a line end,
      // and the answer may be the first line of the next (`^832040$` missed it there).
      seen += `\n${got}`;
      if (got.startsWith('(no new output)')) break;
    }
    // Still echoing (on a loaded machine node's REPL echoes a paste a few characters per poll):
    // wait for the answer in one call rather than poll on, as a model should.
    if (!interpreter.result.test(seen)) {
      const waited = await proc({
        action: 'wait_for',
        session_id: id,
        pattern: interpreter.result.source,
        timeout: 30_000,
      });
      seen += `\n${waited.text}`;
    }
    if (!interpreter.result.test(seen)) throw new DemoFailure('the result 832040');

    heading('A runaway loop, stopped with C-c; the session lives on');
    await proc({ action: 'paste', session_id: id, text: interpreter.runaway });
    await proc({ action: 'submit', session_id: id });
    if (interpreter.blankLineEndsBlock) await proc({ action: 'submit', session_id: id });
    // Wait until the loop runs: C-c also throws away input the program has not read yet.
    await proc({ action: 'wait_for', session_id: id, idle_ms: 700, timeout: 10_000 });
    await proc({ action: 'send_keys', session_id: id, keys: ['C-c'] });
    const stopped = await proc({
      action: 'wait_for',
      session_id: id,
      pattern: interpreter.interrupted.source,
      timeout: 10_000,
    });
    expectText(stopped, /Matched /, 'the interrupt message');
    await proc({ action: 'paste', session_id: id, text: interpreter.alive });
    await proc({ action: 'submit', session_id: id });
    const alive = await proc({
      action: 'wait_for',
      session_id: id,
      pattern: interpreter.aliveResult.source,
      timeout: 10_000,
    });
    expectText(alive, /Matched /, 'the session to outlive the interrupt');
    // C-d typed before the REPL shows its prompt again can be lost (seen with node under load).
    expectText(
      await proc({ action: 'wait_for', session_id: id, pattern: interpreter.prompt.source, timeout: 10_000 }),
      /Matched /,
      'the prompt again',
    );
    await proc({ action: 'send_keys', session_id: id, keys: ['C-d'] });
    expectText(
      await proc({ action: 'wait_for', session_id: id, exit: true, timeout: 10_000 }),
      /exited with code 0/,
      'the REPL to exit',
    );

    heading('A daemon: start, poll, use, kill');
    const daemon = await exec({ command: interpreter.server, mode: 'daemon' });
    const daemonId = daemon.data.session!.id;
    let port = interpreter.port.exec(daemon.text)?.[1];
    if (port === undefined) {
      const ready = await proc({
        action: 'wait_for',
        session_id: daemonId,
        pattern: interpreter.port.source,
        timeout: 10_000,
      });
      port = interpreter.port.exec(ready.text)?.[1];
    }
    if (port === undefined) throw new DemoFailure('the server to print its port');
    expectText(await exec({ command: interpreter.fetch(Number(port)) }), /status 200/, 'status 200');
    expectText(
      await proc({ action: 'poll', session_id: daemonId, timeout: 3000 }),
      interpreter.requestLogged,
      'the request in the log',
    );
    expectText(
      await proc({ action: 'kill', session_id: daemonId }),
      /Process killed by SIG/,
      'the daemon killed',
    );

    heading('Every session, as list shows them');
    const list = await proc({ action: 'list' });
    if (list.data.sessions?.some((s) => s.state === 'running' || s.state === 'starting')) {
      throw new DemoFailure('no session left running');
    }
    out(`\n${style.ok('Demo finished: every process has ended.')}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof DemoFailure ? error.message : String(error);
    out(`\n${style.fail(`Demo stopped: ${message}.`)} Every session is killed now.\n`);
    return 1;
  } finally {
    await sessions.dispose();
    rmSync(root, { recursive: true, force: true });
  }
}

/** python3 when it runs here, else the Node running this demo. */
export function pickInterpreter(): DemoInterpreter {
  const probe = spawnSync('python3', ['--version'], { stdio: 'ignore', timeout: 10_000 });
  return probe.status === 0 ? PYTHON : nodeInterpreter(process.execPath);
}

function styles(color: boolean) {
  const wrap = (open: string) => (text: string) => (color ? `\x1b[${open}m${text}\x1b[0m` : text);
  return {
    title: wrap('1'),
    heading: wrap('1;36'),
    call: wrap('1;33'),
    gutter: wrap('2'),
    ok: wrap('1;32'),
    fail: wrap('1;31'),
  };
}
