import { describe, expect, it } from 'vitest';
import { decodeTodoCursor, encodeTodoCursor, InvalidTodoCursorError } from './todo-pages.js';

describe('task cursors', () => {
  it('decodes a cursor to the id it was made for, for the owner it was made for', () => {
    expect(decodeTodoCursor('sub:alice', encodeTodoCursor('sub:alice', 100))).toBe(100);
    expect(decodeTodoCursor('', encodeTodoCursor('', 1))).toBe(1);
  });

  it('is opaque: neither the owner nor the layout shows in the cursor as sent', () => {
    const cursor = encodeTodoCursor('sub:alice', 7);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(cursor).not.toContain('alice');
  });

  it('refuses another owner’s cursor', () => {
    const hers = encodeTodoCursor('sub:alice', 3);
    expect(() => decodeTodoCursor('sub:bob', hers)).toThrow(InvalidTodoCursorError);
    expect(() => decodeTodoCursor('', hers)).toThrow(InvalidTodoCursorError);
  });

  it.each([
    ['empty', ''],
    ['padding', `${encodeTodoCursor('o', 3)}=`],
    ['another spelling of the same bytes', `${encodeTodoCursor('o', 3).slice(0, -1)}z`],
    ['an unsafe id', Buffer.from('t1.9007199254740993.aaaaaaaaaaaaaaaaaaaaaa').toString('base64url')],
    ['a leading zero', Buffer.from('t1.03.aaaaaaaaaaaaaaaaaaaaaa').toString('base64url')],
    ['overlong', 'A'.repeat(65)],
    ['not base64url', 'dDEu/zM+'],
  ])('refuses %s', (_label, cursor) => {
    expect(() => decodeTodoCursor('o', cursor)).toThrow(InvalidTodoCursorError);
  });

  it('accepts a cursor forged for the caller’s own owner only as a place in their own list', () => {
    // The tag is no secret: the cursor only stops it being used by anybody but its owner.
    expect(decodeTodoCursor('o', encodeTodoCursor('o', 9))).toBe(9);
  });
});
