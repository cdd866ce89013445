import { describe, expect, it } from 'vitest';
import {
  type BookedSession,
  idTaken,
  lookUp,
  ownedBy,
  reserveSlot,
  type SessionBook,
  sweepBook,
} from '../src/session-book.js';

interface Fake extends BookedSession {
  readonly state: 'running' | 'exited' | 'unknown';
}

const live = (id: string, expiresMono = 1_000, owner?: string): Fake => ({
  id,
  owner,
  live: true,
  expiresMono,
  endedMono: null,
  state: 'running',
});
const ended = (id: string, endedMono: number, state: Fake['state'] = 'exited'): Fake => ({
  id,
  owner: undefined,
  live: false,
  expiresMono: 1_000,
  endedMono,
  state,
});

function book(...sessions: Fake[]): SessionBook<Fake> {
  return {
    sessions: new Map(sessions.map((s) => [s.id, s])),
    issued: new Set(sessions.map((s) => s.id)),
    reserved: 0,
  };
}

describe('reserveSlot', () => {
  it('counts live sessions and reservations together, so concurrent starts cannot all pass', () => {
    const b = book(live('a'), ended('b', 0));
    const first = reserveSlot(b, 3, 0);
    const second = reserveSlot(b, 3, 0);
    expect(b.reserved).toBe(2);
    expect(() => reserveSlot(b, 3, 0)).toThrow(
      expect.objectContaining({
        code: 'ERR_PROCESS_LIMIT',
        message: '3 sessions are running; this registry allows at most 3',
      }),
    );
    first();
    first(); // a second release gives nothing back twice
    expect(b.reserved).toBe(1);
    second();
    expect(b.reserved).toBe(0);
  });

  it('does not count a live session past its lifetime: the sweep that follows expires it', () => {
    const b = book(live('a', 500), live('b', 2_000));
    expect(() => reserveSlot(b, 2, 499)).toThrow(expect.objectContaining({ code: 'ERR_PROCESS_LIMIT' }));
    expect(reserveSlot(b, 2, 500)).toBeTypeOf('function');
  });
});

describe('sweepBook', () => {
  it('drops the ended sessions past their TTL from the book, keeps pinned ones, and hands back the expiring', () => {
    const b = book(
      ended('old', 0),
      ended('recent', 900),
      ended('held', 0, 'unknown'),
      live('due', 1_000),
      live('on', 5_000),
    );
    const { dropped, expiring } = sweepBook(b, {
      now: 1_000,
      ttlMs: 500,
      maxEnded: 10,
      pinned: (s) => s.state === 'unknown',
    });
    expect(dropped.map((s) => s.id)).toEqual(['old']);
    expect(expiring.map((s) => s.id)).toEqual(['due']);
    expect([...b.sessions.keys()]).toEqual(['recent', 'held', 'due', 'on']);
    expect(idTaken(b, 'old')).toBe(true); // its id is never given out again
    expect(idTaken(b, 'never')).toBe(false);
  });

  it('past the cap, drops those that ended first', () => {
    const b = book(ended('first', 10), ended('second', 20), ended('third', 30));
    const { dropped } = sweepBook(b, { now: 40, ttlMs: 1_000, maxEnded: 1 });
    expect(dropped.map((s) => s.id)).toEqual(['first', 'second']);
    expect([...b.sessions.keys()]).toEqual(['third']);
  });
});

describe('lookUp and ownedBy', () => {
  it("find a session by id for its owner, refusing another owner's and an unknown id", () => {
    const b = book(live('a', 1_000, 'alice'), live('b', 1_000, 'bob'), live('c'));
    expect(lookUp(b, 'a', 'alice').id).toBe('a');
    expect(lookUp(b, 'a', undefined).id).toBe('a');
    expect(lookUp(b, 'c', 'bob').id).toBe('c'); // unowned: any caller
    expect(() => lookUp(b, 'a', 'bob')).toThrow(
      expect.objectContaining({
        code: 'ERR_PROCESS_OWNERSHIP',
        message: 'session a belongs to another owner',
      }),
    );
    expect(() => lookUp(b, 'zz', undefined)).toThrow(
      expect.objectContaining({ code: 'ERR_PROCESS_NOT_FOUND', message: 'no session with id zz' }),
    );
    expect(() => lookUp(b, 7, undefined)).toThrow(expect.objectContaining({ code: 'ERR_PROCESS_NOT_FOUND' }));
    expect(ownedBy(b, 'bob').map((s) => s.id)).toEqual(['b']);
    expect(ownedBy(b, undefined).map((s) => s.id)).toEqual(['a', 'b', 'c']);
  });
});
