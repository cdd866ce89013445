// Differential check: the same recorded bytes fed to tmux and to a TerminalScreen of the same
// size must read the same, line for line (scrollback included, wrapped lines joined, trailing
// whitespace trimmed on both sides).
import { checkLeaksAfterAll, requireTool } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { TerminalScreen } from '../src/index.js';
import { loadFixture } from './fixture.js';
import { captureWithTmux, normalize } from './tmux.js';

// tmux is the screen's only independent oracle: under CI a missing tmux fails this file, never
// skips it (.ci/run and the workflow install it); it does not exist on Windows, which skips.
const skip = requireTool('tmux');

checkLeaksAfterAll();

// [fixture, the mark to stop before, or 'end' for all of it]
const cases: [string, string][] = [
  ['ls-color', 'end'],
  ['progress-bar', 'end'],
  ['less-paging', 'firstPage'],
  ['less-paging', 'paged'],
  ['less-paging', 'end'],
  ['top-batch', 'end'],
  ['vim-edit', 'inVim'],
  ['vim-edit', 'end'],
  ['wide-chars', 'end'],
  ['python-typing', 'end'],
];

describe(`TerminalScreen against tmux${skip ? ` (${skip})` : ''}`, () => {
  it.skipIf(skip !== undefined).each(cases)('renders %s (up to %s) as tmux does', async (name, mark) => {
    const fixture = loadFixture(name);
    const chunks = mark === 'end' ? fixture.chunks : fixture.before(mark);
    const bytes = Buffer.from(chunks.join(''), 'utf8');
    const { cols, rows } = fixture.meta;
    const screen = new TerminalScreen({ cols, rows });
    for (const chunk of chunks) screen.feed(chunk);
    const ours = normalize(await screen.renderFull());
    screen.dispose();

    const tmux = await captureWithTmux(bytes, cols, rows);
    expect([tmux.cols, tmux.rows]).toEqual([cols, rows]);
    const theirs = normalize(tmux.full);
    expect(ours.length).toBeGreaterThan(0);
    expect(ours).toEqual(theirs);
  });
});
