import { keyNames } from './key-table.js';

/**
 * Edit distance counting insertions, deletions, substitutions and swaps of two neighbours
 * (optimal string alignment), each as 1: `Lfet` is one edit from `Left`.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i]!;
      const above = rows[i - 1]!;
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
      }
    }
  }
  return rows[a.length]![b.length]!;
}

function commonPrefixLength(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The known key name nearest to `name` (case-insensitive), when it is close enough to be
 * a plausible typo: one edit for names up to 4 characters, two beyond. Ties go to the name
 * sharing the longest start with `name`, then to the one listed first in the key table.
 */
export function nearestKeyName(name: string): string | undefined {
  const wanted = name.toLowerCase();
  const allowed = wanted.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number; prefix: number } | undefined;
  for (const candidate of keyNames()) {
    const lower = candidate.toLowerCase();
    const distance = editDistance(wanted, lower);
    if (distance > allowed) continue;
    const prefix = commonPrefixLength(wanted, lower);
    if (
      best === undefined ||
      distance < best.distance ||
      (distance === best.distance && prefix > best.prefix)
    ) {
      best = { name: candidate, distance, prefix };
    }
  }
  return best?.name;
}

const MODIFIER_WORDS: Readonly<Record<string, string>> = {
  ctrl: 'C-',
  control: 'C-',
  ctl: 'C-',
  alt: 'M-',
  meta: 'M-',
  option: 'M-',
  opt: 'M-',
  shift: 'S-',
};

/**
 * Rewrites the spellings agents reach for first (`Ctrl+C`, `alt-x`, `Shift+Tab`,
 * `ArrowUp`) into this package's syntax, or undefined when the token is not of that kind.
 */
export function rewriteCommonSpelling(token: string): string | undefined {
  let rest = token;
  let prefix = '';
  for (;;) {
    const match = /^([a-z]+)[-+_ ]/i.exec(rest);
    const replacement = match ? MODIFIER_WORDS[match[1]!.toLowerCase()] : undefined;
    if (match === null || replacement === undefined) break;
    prefix += replacement;
    rest = rest.slice(match[0].length);
  }
  const arrow = /^arrow(up|down|left|right)$/i.exec(rest);
  if (arrow) rest = arrow[1]!;
  if (prefix === '' && arrow === null) return undefined;
  return prefix + rest;
}
