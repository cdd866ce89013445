// What the demo types into each interpreter: Python when there is a python3, else Node.

/** One interpreter's lines for the demo. */
export interface DemoInterpreter {
  name: 'python' | 'node';
  /** exec command for the interactive session, and its prompt. */
  repl: string;
  prompt: RegExp;
  /** A multi-line function definition to paste. */
  definition: string;
  /** Whether the REPL needs an empty line (a second Enter) to end the definition. */
  blankLineEndsBlock: boolean;
  /** The call whose result the demo polls for, and that result. */
  call: string;
  result: RegExp;
  /** A loop that never ends, and what the REPL prints when C-c interrupts it. */
  runaway: string;
  interrupted: RegExp;
  /** A line showing the REPL (and its state) outlived the interrupt, and what it prints. */
  alive: string;
  aliveResult: RegExp;
  /** A small HTTP server on 127.0.0.1 that prints its port and logs each request. */
  server: string;
  port: RegExp;
  /** A one-shot command fetching the server's root and printing the status. */
  fetch(port: number): string;
  requestLogged: RegExp;
}

export const PYTHON: DemoInterpreter = {
  name: 'python',
  repl: 'python3 -i',
  prompt: /^>>>/m,
  definition: [
    'def fib(n):',
    '    a, b = 0, 1',
    '    for _ in range(n):',
    '        a, b = b, a + b',
    '    return a',
  ].join('\n'),
  blankLineEndsBlock: true,
  call: 'print(fib(30))',
  result: /^832040$/m,
  runaway: 'while True: pass',
  interrupted: /KeyboardInterrupt/,
  alive: 'print("still here:", fib(10))',
  aliveResult: /still here: 55/,
  server: 'python3 -u -m http.server 0 --bind 127.0.0.1',
  port: /port (\d+)/,
  fetch: (port) =>
    `python3 -c "import urllib.request as u; print('status', u.urlopen('http://127.0.0.1:${port}/').status)"`,
  requestLogged: /"GET \/ HTTP\/1\.1" 200/,
};

/** Node's REPL and an equivalent server, for machines without python3. */
export function nodeInterpreter(node: string): DemoInterpreter {
  const quoted = JSON.stringify(node);
  const server =
    "require('http').createServer((q, s) => { console.log(q.method + ' ' + q.url + ' 200'); s.end('ok') })" +
    ".listen(0, '127.0.0.1', function () { console.log('listening on port ' + this.address().port) })";
  return {
    name: 'node',
    repl: `${quoted} -i`,
    prompt: /^>/m,
    definition: [
      'function fib(n) {',
      '  let [a, b] = [0, 1];',
      '  for (let i = 0; i < n; i++) [a, b] = [b, a + b];',
      '  return a;',
      '}',
    ].join('\n'),
    blankLineEndsBlock: false,
    call: 'fib(30)',
    result: /^832040$/m,
    runaway: 'while (true) {}',
    interrupted: /interrupted by `?SIGINT/,
    alive: 'console.log("still here:", fib(10))',
    aliveResult: /still here: 55/,
    server: `${quoted} -e "${server}"`,
    port: /port (\d+)/,
    fetch: (port) =>
      `${quoted} -e "fetch('http://127.0.0.1:${port}/').then((r) => console.log('status', r.status))"`,
    requestLogged: /GET \/ 200/,
  };
}
