// What a SQLite error means for the user (asIndexError in src/index/db.ts): I/O errors name the disk, a
// statement SQLite would not run names tsm, not the index — "unable to use function MATCH" once told the
// user to re-index a healthy index.
import { describe, expect, it } from 'vitest';
import { asIndexError, IndexError } from '../../src/index/db.js';

const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('asIndexError', () => {
  it('calls a disk I/O error an I/O error that names the disk', () => {
    const e = asIndexError(sqliteError('SQLITE_IOERR_WRITE', 'disk I/O error'), '/v/.tsm/index.db');
    expect(e).toBeInstanceOf(IndexError);
    expect((e as IndexError).code).toBe('io');
    expect((e as Error).message).toMatch(/cannot read or write the index at \/v\/\.tsm\/index\.db \(disk I\/O error; a full disk/);
  });

  it('calls a statement SQLite would not run a bug of tsm, not a fault of the index', () => {
    const e = asIndexError(sqliteError('SQLITE_ERROR', 'unable to use function MATCH in the requested context'), '/v/.tsm/index.db');
    expect(e).toBeInstanceOf(IndexError);
    expect((e as IndexError).code).toBe('statement');
    expect((e as Error).message).toMatch(/could not run a statement \(unable to use function MATCH.*\): the index is not at fault; this is a bug in tsm/);
    expect((e as Error).message).not.toMatch(/disk|run `tsm index`/);
  });

  it('keeps the other kinds and leaves non-SQLite errors alone', () => {
    expect((asIndexError(sqliteError('SQLITE_FULL', 'database or disk is full'), 'x') as IndexError).code).toBe('full');
    // One wording for `tsm index` and a watcher's retried batch alike: it names what does the rest, not one command.
    expect((asIndexError(sqliteError('SQLITE_FULL', 'database or disk is full'), 'x') as IndexError).message).toMatch(
      /the disk is full .*free some space, and the next sync writes the rest \(`tsm index`; a running `tsm watch` tries again by itself\)$/,
    );
    expect((asIndexError(sqliteError('SQLITE_CORRUPT', 'malformed'), 'x') as IndexError).code).toBe('corrupt');
    expect((asIndexError(sqliteError('SQLITE_BUSY', 'locked'), 'x') as IndexError).code).toBe('busy');
    const plain = new TypeError('x is undefined');
    expect(asIndexError(plain, 'x')).toBe(plain);
  });
});
