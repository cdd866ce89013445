// The contract lives in core-types (so the supervisor needs no terminal emulator); re-exported
// here for callers that import it next to TerminalScreen.
export type { ScreenCursor, ScreenLike, ScreenModes } from '@procmux/core-types';
export { plainLineFeeds } from './plain-scan/scan.js';
export { TerminalScreen } from './terminal-screen.js';
export type { ScreenChanges, TerminalScreenOptions } from './types.js';
