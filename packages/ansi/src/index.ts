export {
  createDsrStripper,
  cursorPositionReport,
  type DsrStripper,
  type DsrStripResult,
  stripDsrRequests,
} from './dsr.js';
export { TerminalModeTracker } from './mode-tracker.js';
export {
  type AnsiStripOptions,
  type AnsiStripper,
  createAnsiStripper,
  MAX_LINE_LENGTH_LIMIT,
  stripAnsi,
} from './strip.js';
