// The public face of @procmux/transcript: every name here is listed in the README's "Exports".
// The text a model reads of a session: the byte log (log/), its lines and pages (lines/), the
// live screen views and full-screen episodes (screen/), recordings (record/), and the head/tail
// excerpts that fit a budget (excerpt/).
export { type BodyText, countNewlines, type ErrorLine, stringBody } from './excerpt/body-text.js';
export { ERROR_LINE_PATTERN, MAX_ERROR_LINE_CHARS } from './excerpt/error-lines.js';
export {
  budgetTranscript,
  type TranscriptExcerptRequest,
  WHOLE_TRANSCRIPT_CHARS,
} from './excerpt/transcript-excerpt.js';
export {
  applyOutputBudget,
  bodyRoom,
  fitText,
  logPageHint,
  type OutputBudgetRequest,
  type OutputBudgetResult,
  type OutputCut,
  type PageHint,
} from './excerpt/truncate.js';
export type { LogResult } from './lines/log-result.js';
export { logWindow, pageTranscript, transcriptChunks } from './lines/transcript.js';
export { TranscriptIndex, type TranscriptIndexOptions } from './lines/transcript-index.js';
export {
  type OutputDrain,
  OutputLog,
  type OutputLogOptions,
  type OutputPage,
  type OutputReadOptions,
} from './log/output-log.js';
export type { SessionLogCaps } from './log/session-log-caps.js';
export { sessionOutputLog } from './log/session-output-log.js';
export type { SpillFileSystem } from './log/spill-file.js';
export type { OutputStream } from './log/stream-runs.js';
export { type AsciicastSource, asciicast, lfToCrlf } from './record/asciicast.js';
export { MAX_TIMELINE_MARKS, OutputTimeline, type TimelineResize } from './record/output-timeline.js';
export { type EpisodeKind, type Foreground, MAX_REPAINT_LINES } from './screen/full-screen-episode.js';
export { LiveText } from './screen/live-text.js';
export { type ScreenGate, screenGate } from './screen/screen-gate.js';
export { ScreenScanner, type ScreenSwitch } from './screen/screen-scan.js';
export { SessionTranscript, type SessionTranscriptInit } from './session-transcript.js';
