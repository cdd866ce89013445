#!/usr/bin/env node
// A second opinion on the survivors stryker.config.mjs lists as equivalent: each one is built
// into a copy of src/ and run against the original on random inputs (escape sequences, controls,
// C1, lone and paired surrogates, cut into random chunks, at widths 1 to 4,096). Any difference
// means the mutant is not equivalent and needs a test instead. Run after a mutation run:
//   node packages/ansi/scripts/fuzz-equivalents.mjs [cases per mutant, default 100000]
// The copies go to reports/equivalents/ (ignored by git); src/ is never written.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(pkg, 'reports/equivalents');
const [mode, ...args] = process.argv.slice(2);

async function parent(cases) {
  const ts = createRequire(join(pkg, 'package.json'))('typescript');
  const { default: config, equivalent } = await import(pathToFileURL(join(pkg, 'stryker.config.mjs')).href);
  const report = JSON.parse(readFileSync(join(pkg, '../..', config.jsonReporter.fileName), 'utf8'));
  const { keyOf, mutantKey } = await import(
    pathToFileURL(join(pkg, '../../tooling/scripts/mutants.mjs')).href
  );
  const listed = new Set(equivalent.map(keyOf));
  const build = (dir, patch) => {
    mkdirSync(dir, { recursive: true });
    for (const name of ['codes', 'dsr', 'mode-tracker', 'pending-line', 'strip']) {
      let text = readFileSync(join(pkg, `src/${name}.ts`), 'utf8');
      if (patch?.name === name) text = text.slice(0, patch.start) + patch.replacement + text.slice(patch.end);
      const js = ts.transpileModule(text, {
        compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
      }).outputText;
      writeFileSync(join(dir, `${name}.js`), js);
    }
  };
  rmSync(out, { recursive: true, force: true });
  build(join(out, 'original'));
  let checked = 0;
  let differ = 0;
  for (const [file, entry] of Object.entries(report.files)) {
    const name = file.replace(/^.*\/src\/(.*)\.ts$/, '$1');
    const source = readFileSync(join(pkg, `src/${name}.ts`), 'utf8');
    for (const mutant of entry.mutants) {
      if (mutant.status !== 'Survived' || !listed.has(mutantKey(`src/${name}.ts`, mutant))) continue;
      const dir = join(out, `m${mutant.id}`);
      const start = offsetOf(source, mutant.location.start);
      const end = offsetOf(source, mutant.location.end);
      build(dir, { name, start, end, replacement: mutant.replacement });
      const kind = name === 'dsr' ? 'dsr' : name === 'mode-tracker' ? 'mode' : 'strip';
      const result = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--child', dir, kind, `${cases}`],
        {
          encoding: 'utf8',
          timeout: 300_000,
        },
      );
      checked++;
      const where = `src/${name}.ts:${mutant.location.start.line} ${mutant.mutatorName} -> ${mutant.replacement}`;
      if (result.status === 0) console.log(`same on ${cases} inputs: ${where}`);
      else {
        differ++;
        console.log(`DIFFERS: ${where}\n  ${(result.stdout || result.stderr || 'timed out').trim()}`);
      }
    }
  }
  console.log(`${checked} listed equivalents checked, ${differ} differ`);
  process.exit(differ === 0 ? 0 : 1);
}

function offsetOf(text, { line, column }) {
  let offset = 0;
  for (let l = 1; l < line; l++) offset = text.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

async function child(dir, kind, casesText) {
  const cases = Number(casesText);
  const file = kind === 'dsr' ? 'dsr.js' : kind === 'mode' ? 'mode-tracker.js' : 'strip.js';
  const original = await import(pathToFileURL(join(out, 'original', file)).href);
  const mutant = await import(pathToFileURL(join(dir, file)).href);
  const random = mulberry32(424242);
  const pick = (list) => list[Math.floor(random() * list.length)];
  const int = (k) => Math.floor(random() * k);
  const char = (from, to) => String.fromCharCode(from + int(to - from + 1));
  const anyByte = () => {
    const r = random();
    if (r < 0.4) return char(0, 0x1f);
    if (r < 0.7) return char(0x20, 0x7e);
    if (r < 0.9) return char(0x7f, 0x9f);
    return pick([
      'é',
      '日',
      '😀',
      '\u{10000}',
      '\u{10ffff}',
      '\ud83d',
      '\ude00',
      '\ud800',
      '\udfff',
      '\uff01',
    ]);
  };
  const token = TOKENS[kind](pick, anyByte);
  for (let n = 0; n < cases; n++) {
    let input = '';
    for (let k = int(kind === 'mode' ? 14 : 24); k > 0; k--) input += random() < 0.7 ? token() : anyByte();
    const cuts = [...new Set(Array.from({ length: int(6) }, () => int(input.length + 1)))].sort(
      (a, b) => a - b,
    );
    const chunks = [...cuts, input.length].map((cut, i, all) => input.slice(i === 0 ? 0 : all[i - 1], cut));
    const width = pick([1, 2, 3, 4, 5, 8, 10, 4096]);
    const a = observe(original, kind, input, chunks, width);
    const b = observe(mutant, kind, input, chunks, width);
    if (a !== b) {
      console.log(`${JSON.stringify(chunks)} at width ${width}: ${a.slice(0, 200)} / ${b.slice(0, 200)}`);
      process.exit(1);
    }
  }
}

// What a caller sees: every return value and getter, after every chunk.
function observe(api, kind, input, chunks, width) {
  try {
    if (kind === 'mode') {
      const tracker = new api.TerminalModeTracker();
      return JSON.stringify(
        chunks.map((chunk) => {
          tracker.feed(chunk);
          return [tracker.bracketedPaste, tracker.applicationCursorKeys];
        }),
      );
    }
    if (kind === 'dsr') {
      const stripper = api.createDsrStripper();
      const pushed = chunks.map((chunk) => stripper.push(chunk));
      return JSON.stringify([api.stripDsrRequests(input), pushed, stripper.flush(), stripper.flush()]);
    }
    const stripper = api.createAnsiStripper({ maxLineLength: width });
    const seen = chunks.flatMap((chunk) => [stripper.push(chunk), stripper.pending]);
    return JSON.stringify([api.stripAnsi(input, { maxLineLength: width }), seen, stripper.flush()]);
  } catch (error) {
    return `throws ${error}`;
  }
}

const TOKENS = {
  strip: (pick, anyByte) => () =>
    pick([
      () => pick(['ab', 'hello', 'x', ' ', '\t', '😀', '\u{10000}', '\ud83d', '\ude00', '\uff01', 'é']),
      () => pick(['\r', '\n', '\b', '\b\b', '\r\n', '\x07', '\x00', '\x7f']),
      () =>
        pick(['\x1b[', '\x1b[', '\x9b']) +
        pick(['', '0', '1', '2', '3', '9', '12', '999', '2;3', ';3', '1:2', '?', '?2', '>1', ' ', '!']) +
        pick(['K', 'K', 'G', '`', 'C', 'D', '@', 'm', 'H', 'A']),
      () =>
        pick(['\x1bO', '\x1bN', '\x1b(', '\x1b$(', '\x1b0', '\x1bc', '\x1b=', '\x1b#8', '\x1b\x1b']) +
        anyByte(),
      () =>
        pick([
          '\x1b]0;t\x07',
          '\x1b]8;;u\x1b\\',
          '\x1bPq#0\x1b\\',
          '\x90qq\x9c',
          '\x9d0;t\x9c',
          '\x9f_G\x9c',
        ]),
    ])(),
  dsr: (pick) => () =>
    pick(['\x1b', '\x1b[', '\x1b[6n', '\x1b[?6n', '[', '?', '6', 'n', 'a', ';', 'é', '😀']),
  mode: (pick) => () =>
    pick(['\x1b[', '\x1b[', '\x9b', '\x1b', '']) +
    pick(['', '?', '?', '>', '=']) +
    pick(['', '1', '2004', '1;2004', '2004;1', '4', '61', '9', '1:2', `${'5;'.repeat(32)}2004`]) +
    pick(['', '', '!', '$', ' ', '"', '!!', ' !', '#']) +
    pick(['h', 'l', 'p', 'q', 'c', 'm', '@', 'A', '\x80', '\x85', '\x18']),
};

function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

if (mode === '--child') await child(...args);
else await parent(Number(mode ?? 100_000));
