// Figures and the result table, as text for the terminal and as markdown for the README.
import type { BenchCase, Figure, Outcome } from './case.js';
import type { MachineInfo } from './machine.js';
import { summarize } from './stats.js';

/** Three significant digits or two decimals: all a shared machine's timings are worth. */
export function num(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** A figure shown as `median unit (min–max)`. */
export function figure(samples: number[], unit: string, format: (value: number) => string = num): Figure {
  const s = summarize(samples);
  const range = s.n > 1 ? ` (${format(s.min)}–${format(s.max)})` : '';
  return { samples, unit, median: s.n > 0 ? s.median : null, text: `${format(s.median)} ${unit}${range}` };
}

/** A figure that is a single count or fact rather than a spread of timings. */
export function fact(text: string, samples: number[] = [], unit = ''): Figure {
  return { samples, unit, median: samples.length > 0 ? summarize(samples).median : null, text };
}

export interface Row {
  id: string;
  procmux: string;
  raw: string;
  ratio: string;
  target: string;
  result: string;
  notes: string[];
}

export function toRow(benchCase: BenchCase, outcome: Outcome): Row {
  const base = { id: benchCase.id, target: benchCase.target };
  switch (outcome.status) {
    case 'measured':
      return {
        ...base,
        procmux: outcome.procmux.text,
        raw: outcome.raw?.text ?? '—',
        ratio: outcome.ratio,
        result: outcome.pass ? 'pass' : 'MISS',
        notes: outcome.notes,
      };
    case 'not built':
      return {
        ...base,
        procmux: 'not built',
        raw: '—',
        ratio: '—',
        result: 'not built',
        notes: [outcome.reason],
      };
    case 'error':
      return { ...base, procmux: 'error', raw: '—', ratio: '—', result: 'error', notes: [outcome.message] };
  }
}

const HEADERS = ['case', 'procmux', 'raw', 'ratio', 'target', 'result'] as const;

function cells(row: Row): string[] {
  return [row.id, row.procmux, row.raw, row.ratio, row.target, row.result];
}

/** The table for a terminal: aligned columns, then each case's notes. */
export function textTable(rows: readonly Row[]): string {
  const all = [HEADERS.slice(), ...rows.map(cells)];
  const widths = HEADERS.map((_, i) => Math.max(...all.map((r) => [...r[i]!].length)));
  const line = (r: string[]) => r.map((c, i) => c + ' '.repeat(widths[i]! - [...c].length)).join('  ');
  const out = [line(all[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...all.slice(1).map(line)];
  const notes = rows.flatMap((row) => row.notes.map((note) => `  ${row.id}: ${note}`));
  if (notes.length > 0) out.push('', 'notes:', ...notes);
  return out.join('\n');
}

function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/** The table as markdown, with the machine it ran on, ready to paste into bench/README.md. */
export function markdownTable(rows: readonly Row[], machine: MachineInfo, mode: string): string {
  const head = `| ${HEADERS.join(' | ')} |`;
  const rule = `|${HEADERS.map(() => '---').join('|')}|`;
  const body = rows.map((row) => `| ${cells(row).map(escapeCell).join(' | ')} |`);
  const notes = rows.flatMap((row) => row.notes.map((note) => `- \`${row.id}\`: ${note}`));
  return [
    `Machine: ${machine.line}. Mode: ${mode}. Date: ${machine.date}.`,
    '',
    head,
    rule,
    ...body,
    '',
    ...notes,
  ].join('\n');
}

/** A difference in milliseconds with its sign: `+0.42 ms`, `-1.10 ms`. */
export function signedMs(value: number): string {
  return `${value >= 0 ? '+' : ''}${num(value)} ms`;
}
