import { throwsWith } from '@procmux/test-utils';
import { describe, expect, it } from 'vitest';
import { encodeKeySequence, keyNames } from '../src/index.js';
import { nearestKeyName, rewriteCommonSpelling } from '../src/suggest.js';

const suggestionFor = (token: string) =>
  (
    throwsWith(() => encodeKeySequence({ keys: [token] }), 'ERR_INVALID_KEY').details as {
      suggestion?: string;
    }
  ).suggestion;

describe('how far a suggestion may be', () => {
  it('allows one edit for names of up to 4 characters', () => {
    expect(nearestKeyName('Dxwn')).toBe('Down');
    expect(nearestKeyName('Hoem')).toBe('Home'); // a swap of neighbours is one edit
    expect(nearestKeyName('Dxxn')).toBeUndefined();
    expect(nearestKeyName('Hxmx')).toBeUndefined();
    expect(suggestionFor('Dxxn')).toBeUndefined();
  });

  it('allows two edits beyond 4 characters, not three', () => {
    expect(nearestKeyName('Entxx')).toBe('Enter');
    expect(nearestKeyName('Exxxr')).toBeUndefined();
    expect(nearestKeyName('Escpaee')).toBe('Escape');
    expect(nearestKeyName('Bxckspxcx')).toBeUndefined();
    expect(suggestionFor('Entxx')).toBe('Enter');
  });

  it('compares without regard to case', () => {
    expect(nearestKeyName('ENTRR')).toBe('Enter');
    expect(nearestKeyName('pgdwn')).toBe('PgDn');
  });
});

describe('which suggestion wins', () => {
  it('prefers the name sharing the longest start among equally near ones', () => {
    // Up and DC are one edit from "dp"; DC starts the same way.
    expect(nearestKeyName('dp')).toBe('DC');
    // End and Ins are one edit from "ind".
    expect(nearestKeyName('ind')).toBe('Ins');
    // Up and PgUp are one edit from "pup".
    expect(nearestKeyName('pup')).toBe('PgUp');
  });

  it('then the one listed first in the key table', () => {
    // IC, DC and F1–F9 are all one edit from "fc"; F1 to F9 share its start, F1 comes first.
    expect(nearestKeyName('fc')).toBe('F1');
    expect(nearestKeyName('F13')).toBe('F1');
  });

  it('prefers fewer edits over a longer shared start', () => {
    // Escape is one edit from "Escapx"; Esc shares a 3-character start but is three away.
    expect(nearestKeyName('Escapx')).toBe('Escape');
    expect(nearestKeyName('Delet')).toBe('Delete');
    expect(nearestKeyName('Dele')).toBe('Del');
  });
});

describe('the spellings agents reach for first', () => {
  it.each([
    ['ctl+c', 'C-c'],
    ['Ctl-Up', 'C-Up'],
    ['control_a', 'C-a'],
    ['meta+x', 'M-x'],
    ['Meta Left', 'M-Left'],
    ['opt+Left', 'M-Left'],
    ['option-b', 'M-b'],
    ['Option+Shift+Tab', 'M-S-Tab'],
    ['alt_f', 'M-f'],
    ['shift right', 'S-right'],
    ['arrowdown', 'down'],
    ['ArrowRight', 'Right'],
    ['Meta+ArrowLeft', 'M-Left'],
  ])('rewrites %j to %j, and suggests it', (token, rewritten) => {
    expect(rewriteCommonSpelling(token)).toBe(rewritten);
    expect(suggestionFor(token)).toBe(rewritten);
  });

  it('leaves tokens that are not of that kind alone', () => {
    for (const token of ['Entr', 'hyper+x', 'Arrow', 'ArrowUpp', 'x+y', 'c']) {
      expect(rewriteCommonSpelling(token)).toBeUndefined();
    }
  });

  it('does not suggest a rewrite the encoder would refuse', () => {
    // C-Enter has no terminal code, and "ctrl+enter" as a whole is near no name.
    expect(rewriteCommonSpelling('ctrl+enter')).toBe('C-enter');
    expect(suggestionFor('ctrl+enter')).toBeUndefined();
    expect(suggestionFor('shift+a')).toBe('S-a');
  });
});

describe('the names and aliases', () => {
  it('are exactly these, in table order', () => {
    expect(keyNames()).toEqual([
      'Enter',
      'Return',
      'Tab',
      'Escape',
      'Esc',
      'Space',
      'Backspace',
      'BSpace',
      'Up',
      'Down',
      'Right',
      'Left',
      'Home',
      'End',
      'PageUp',
      'PgUp',
      'PPage',
      'PageDown',
      'PgDn',
      'NPage',
      'Insert',
      'Ins',
      'IC',
      'Delete',
      'Del',
      'DC',
      'F1',
      'F2',
      'F3',
      'F4',
      'F5',
      'F6',
      'F7',
      'F8',
      'F9',
      'F10',
      'F11',
      'F12',
      'BTab',
    ]);
  });

  it.each([
    ['Return', '\r'],
    ['Esc', '\x1b'],
    ['BSpace', '\x7f'],
    ['PgUp', '\x1b[5~'],
    ['PPage', '\x1b[5~'],
    ['PgDn', '\x1b[6~'],
    ['NPage', '\x1b[6~'],
    ['Ins', '\x1b[2~'],
    ['IC', '\x1b[2~'],
    ['Del', '\x1b[3~'],
    ['DC', '\x1b[3~'],
  ])('%s sends what its key sends', (alias, bytes) => {
    expect(encodeKeySequence({ keys: [alias] })).toBe(bytes);
    expect(encodeKeySequence({ keys: [alias.toLowerCase()] })).toBe(bytes);
  });
});
