// The class behind a ProcessSession handle, with the wiring its registry uses (attach,
// output, expiry, unknown ends, durable records). Internal: hosts get the interface.
import type { ManagedRun, SessionState, SignalName, StdioMode } from '@procmux/core-types';
import type { SessionSandbox } from '@procmux/sandbox-linux';
import type { OutputBudgetResult, TranscriptExcerptRequest } from '@procmux/transcript';
import type { BackendAdapter } from '../backends/backend-adapter.js';
import type { Contained } from '../backends/containment.js';
import type { RecordSource } from '../durable/record.js';
import { foregroundCommandLine } from '../input-wait/foreground-program.js';
import { type InputWait, InputWatch } from '../input-wait/input-watch.js';
import { defaultInputDetector } from '../input-wait/session-input.js';
import type { ProcessSession } from '../process-session.js';
import type { LogResult, OutputPage, PollResult, SessionMetadata, WaitOutcome } from '../types.js';
import type { SessionContext } from './context.js';
import * as control from './control.js';
import { SessionCore, type SessionInit } from './core.js';
import * as delivered from './delivered.js';
import { sessionEvent } from './events.js';
import { heldOpen } from './held-open.js';
import type { HumanControlLease, HumanControlState } from './human-control.js';
import * as input from './input.js';
import { checkInput, inputChanged, inputFacts } from './input-state.js';
import * as lifecycle from './lifecycle.js';
import * as reads from './reads.js';
import type { SessionWatcher } from './session-watch.js';
import * as watching from './watching.js';

export type { SessionInit };

export class LiveSession implements ProcessSession {
  readonly #s: SessionCore;
  // Defined on the instance by attach() when the terminal can resize; never on the prototype.
  declare readonly resize?: (size: { columns: number; rows: number }) => Promise<void>;

  constructor(init: SessionInit, ctx: SessionContext) {
    this.#s = new SessionCore(
      init,
      ctx,
      (s) =>
        new InputWatch(
          ctx.inputDetector ?? defaultInputDetector(),
          () => inputFacts(s),
          (state, previous) => inputChanged(s, state, previous),
        ),
    );
  }

  get id(): string {
    return this.#s.id;
  }
  get owner(): string | undefined {
    return this.#s.owner;
  }
  get command(): string {
    return this.#s.command;
  }
  get args(): readonly string[] {
    return this.#s.args;
  }
  get cwd(): string {
    return this.#s.cwd;
  }
  get fingerprint(): string {
    return this.#s.fingerprint;
  }
  get pty(): boolean {
    return this.#s.pty;
  }
  get startedAt(): number {
    return this.#s.startedAt;
  }
  get expiresAt(): number {
    return this.#s.expiresAt;
  }
  get expiresMono(): number {
    return this.#s.expiresMono;
  }
  get endedMono(): number | null {
    return this.#s.endedMono;
  }
  get releaseOnCancel(): boolean {
    return this.#s.releaseOnCancel;
  }
  get state(): SessionState {
    return this.#s.state;
  }
  get stdioMode(): StdioMode {
    return this.#s.stdioMode;
  }
  get pid(): number | undefined {
    return this.#s.pid;
  }
  get emulated(): boolean {
    return this.#s.emulated;
  }
  get endedAt(): number | null {
    return this.#s.endedAt;
  }
  get live(): boolean {
    return this.#s.live;
  }
  get backendRef(): string | undefined {
    return this.#s.adapter?.handle.ref;
  }
  get holdsScreen(): boolean {
    return this.#s.screen !== undefined;
  }
  get fullScreen(): boolean {
    return this.#s.screen?.modes.alternateScreen === true;
  }
  get bracketedPaste(): boolean {
    return input.pasteBracketed(this.#s);
  }
  get foregroundCommand(): readonly string[] | undefined {
    const s = this.#s;
    return s.stdioMode === 'pty' && s.live && !s.adapter ? foregroundCommandLine(s.pid) : undefined;
  }
  get canResize(): boolean {
    return this.#s.stdioMode === 'pty' && this.#s.run?.resize !== undefined;
  }
  get terminalSize(): { columns: number; rows: number } | undefined {
    const s = this.#s;
    return s.stdioMode === 'pty' && s.terminal ? { ...s.terminal } : undefined;
  }
  get humanControl(): HumanControlState | null {
    const hold = this.#s.control;
    return hold ? { holder: hold.holder, since: hold.since } : null;
  }

  output(options?: { cursor?: number; maxBytes?: number }): Promise<OutputPage> {
    return reads.output(this.#s, options);
  }
  poll(options?: { timeoutMs?: number }): Promise<PollResult> {
    return reads.poll(this.#s, options);
  }
  log(options?: { offset?: number; limit?: number }): Promise<LogResult> {
    return reads.log(this.#s, options);
  }
  transcript(): AsyncGenerator<string> {
    return reads.transcript(this.#s);
  }
  excerpt(request: TranscriptExcerptRequest): Promise<OutputBudgetResult> {
    return reads.excerpt(this.#s, request);
  }
  screen(options?: { scrollback?: boolean }): Promise<string> {
    return reads.screen(this.#s, options);
  }
  wait(options?: { timeoutMs?: number }): Promise<WaitOutcome> {
    return heldOpen(reads.wait(this.#s, options));
  }
  metadata(): SessionMetadata {
    return lifecycle.metadata(this.#s, true);
  }
  checkInput(): Promise<InputWait | null> {
    return checkInput(this.#s);
  }
  watchInput(): () => void {
    return this.#s.input.want();
  }

  input(data: string): Promise<void> {
    return input.input(this.#s, data);
  }
  paste(text: string, options?: { bracketed?: boolean }): Promise<void> {
    return input.paste(this.#s, text, options);
  }
  sendKeys(keys: string | readonly string[]): Promise<void> {
    return input.sendKeys(this.#s, keys);
  }
  submit(): Promise<void> {
    return input.write(this.#s, '\r', 'input');
  }
  closeStdin(): Promise<void> {
    return input.closeStdin(this.#s);
  }
  signal(name: SignalName): Promise<void> {
    return control.signal(this.#s, name);
  }
  kill(): Promise<WaitOutcome> {
    return heldOpen(control.kill(this.#s));
  }
  release(): Promise<void> {
    return control.release(this.#s);
  }

  /** dispose() of the registry: a detached session stops being followed (see control.letGo). */
  letGo(): Promise<void> {
    return control.letGo(this.#s);
  }

  watch(listener: SessionWatcher): () => void {
    return watching.watch(this.#s, listener);
  }
  snapshot(options?: { maxBytes?: number }): Promise<{ data: string; offset: number; emulated: boolean }> {
    return watching.snapshot(this.#s, options);
  }
  takeControl(options: { holder: string }): Promise<HumanControlLease> {
    return watching.takeControl(this.#s, options);
  }
  asciicast(): Promise<string> {
    return watching.asciicast(this.#s);
  }

  // ---- wiring used by the registry (not on ProcessSession) ----

  /** The session runs in this OS sandbox: metadata states it, each refusal is an event. */
  attachSandbox(box: SessionSandbox): void {
    this.#s.sandbox = box;
    box.onViolation((violation) =>
      this.#s.ctx.emit(sessionEvent(this.#s, 'sandbox_violation', { violation: { ...violation } })),
    );
  }
  /** Removes the sandbox's private directory and stops its proxy (idempotent); dispose() calls it. */
  async closeSandbox(): Promise<void> {
    await this.#s.sandbox?.close();
  }
  /** Output from the supervisor (already free of answered terminal queries). */
  onOutput(stream: 'stdout' | 'stderr', chunk: string, bytes?: Uint8Array): void {
    lifecycle.onOutput(this.#s, stream, chunk, bytes);
  }
  attach(
    run: ManagedRun,
    adapter: BackendAdapter | undefined,
    metadata?: Record<string, unknown>,
    shellName?: string | null,
    contained?: Contained,
  ): void {
    lifecycle.attach(this.#s, run, adapter, metadata, shellName, contained);
    // An own member, only where it works: hosts feature-detect with `session.resize?.(...)`.
    if (this.canResize && !Object.hasOwn(this, 'resize')) {
      const s = this.#s;
      Object.defineProperty(this, 'resize', {
        value: (size: { columns: number; rows: number }) => input.resize(s, size),
        enumerable: false,
      });
    }
  }
  /** Writes now what a throttled record write was waiting to write (delivered bytes, size). */
  flushRecord(): Promise<void> {
    return delivered.flushRecordWrite(this.#s);
  }
  /** A re-attached session's replay reached what an earlier host delivered (durable/replay.ts). */
  skipDelivered(): Promise<void> {
    return delivered.skipDelivered(this.#s);
  }
  /** Ends the record without a process (failed attach, backend lost before start). */
  failUnknown(reason: string): void {
    control.failUnknown(this.#s, reason);
  }
  /** Kills the process and records `expired`. */
  expire(): Promise<void> {
    return control.expire(this.#s);
  }
  /** Registry's markUnknown/reconcile: terminal, never an invented exit code. */
  markUnknown(reason?: string): void {
    control.markUnknown(this.#s, reason);
  }
  /**
   * The session left its registry: its spill file goes (the memory window stays readable);
   * settles once the file is closed.
   */
  closeOutput(): Promise<void> {
    return this.#s.transcript.retire();
  }
  /** The run, while its process may still be alive (dispose kills those). */
  get activeRun(): ManagedRun | undefined {
    return this.#s.run;
  }
  /** What the durable record of this session is built from, as it is now. */
  recordSource(reason?: string): RecordSource {
    return lifecycle.recordSource(this.#s, reason);
  }
  /** Settles once the latest durable write of this session is done (at once without durability). */
  get persisted(): Promise<void> {
    return this.#s.persisted;
  }
  /** An event about this session as it is now (process_started is built here too). */
  event(type: Parameters<typeof sessionEvent>[1], extra?: Parameters<typeof sessionEvent>[2]) {
    return sessionEvent(this.#s, type, extra);
  }
}
