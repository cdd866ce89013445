export { TerminalScreen } from './terminal-screen.js';
export type { ScreenCursor, ScreenLike, ScreenModes, TerminalScreenOptions } from './types.js';
