// Which index a resident's nearest list is of (src/index/vectors-in-memory.ts): a list names sections by id,
// and ids mean something only in the index file, and the build of it, they were read from.
import { randomUUID } from 'node:crypto';
import { fileIdentity } from '../vault/file-kind.js';
import { indexPathOf, type Database } from './db.js';

const GENERATION = 'generation';

/**
 * The key a nearest list carries, and a search of `db` checks: which index file (device and inode) and
 * which build of it (a `tsm index --full` rewrites the same file, and its section ids name other sections:
 * newGeneration). Null when the file is gone.
 */
export function listKey(db: Database): string | null {
  const file = fileIdentity(indexPathOf(db));
  if (file === null) return null;
  const generation = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(GENERATION) as string | undefined;
  return `${file}/${generation ?? ''}`;
}

/** Marks a rebuild of the index (in its transaction): nearest lists made before it no longer apply. */
export function newGeneration(db: Database): void {
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(GENERATION, randomUUID());
}
