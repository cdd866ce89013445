import { describe, expect, it } from 'vitest';
import { encodePaste, PASTE_END, PASTE_START, stripPasteMarkers } from '../src/index.js';

describe('encodePaste', () => {
  it('brackets by default and when asked', () => {
    expect(encodePaste('ls\n')).toBe('\x1b[200~ls\n\x1b[201~');
    expect(encodePaste('ls\n', { bracketed: true })).toBe(`${PASTE_START}ls\n${PASTE_END}`);
    expect(encodePaste('', { bracketed: true })).toBe('\x1b[200~\x1b[201~');
  });

  it('removes an end bracket inside the text, so the rest cannot run as typed input', () => {
    const attack = 'harmless\x1b[201~rm -rf ~\n';
    expect(encodePaste(attack)).toBe('\x1b[200~harmlessrm -rf ~\n\x1b[201~');
  });

  it('removes start brackets too, so no paste nests inside another', () => {
    expect(encodePaste('a\x1b[200~b\x1b[200~')).toBe('\x1b[200~ab\x1b[201~');
  });

  it('removes markers that removing other markers would assemble', () => {
    expect(stripPasteMarkers('\x1b[20\x1b[201~1~x')).toBe('x');
    expect(stripPasteMarkers('\x1b\x1b[200~[\x1b[201~201~')).toBe('');
  });

  it('keeps every other escape sequence and character', () => {
    const text = '\x1b[31mred\x1b[0m \x1b[2001~ \x1b[20~ [201~ ✓\r\n';
    expect(encodePaste(text)).toBe(PASTE_START + text + PASTE_END);
  });

  it('sends unbracketed text exactly as given, markers included', () => {
    const text = 'a\x1b[201~b\x1b[200~';
    expect(encodePaste(text, { bracketed: false })).toBe(text);
  });
});
