// A search that found nothing, with a -wal file beside the index: the -wal may be another index's. SQLite
// cannot tell, as a -wal carries no mark of the database it belongs to: one copied beside the index (a
// backup restored from two times, a sync tool carrying `.tsm/`, a `.tsm/` copied from another vault) is
// read as this index's writes, its pages laid over the file's. A search for a word the vault has then said
// "0 results" and exit 0, while `tsm doctor` (SQLite's integrity check) and `tsm status` (when its counts
// met a bad page) said the index was damaged. A search that finds something pays nothing for this check.
import { statSync } from 'node:fs';
import { damagedError, quickCheck, type Database, type IndexError } from './db.js';
import { recordedOtherVault } from './index-vault.js';

/**
 * The damage behind a search that found nothing, as the error a statement meeting it gives, or null.
 * Asked only with a -wal that holds writes beside the index (a stat; a `tsm watch` running keeps one). It
 * catches a -wal whose pages of the notes table and of its indexes disagree with the file's, and a -wal of
 * another vault's index (its own `meta` row names that vault). It misses one that agrees with the file on
 * the notes table and was written for this same vault at another time: `tsm doctor` checks the whole index.
 */
export function damageBehindNothing(db: Database, path: string, vault: string | undefined): IndexError | null {
  if (!walBeside(path)) return null;
  // The notes table and its three indexes: a table and an index laid over from two files disagree ("wrong #
  // of entries in index notes_date"). 5 ms on the Obsidian Hub (6,571 notes), where quick_check of the
  // whole index takes 290 ms: too long for the prompt hook's deadline on a larger vault.
  const bad = quickCheck(db, 'notes');
  if (bad.length > 0) return damagedError(path, `SQLite's check of its notes table: ${bad[0]}`);
  // A -wal of another vault's index that holds every page the two files differ in is that whole index,
  // which no check finds damaged: its `meta` row names its vault.
  const other = vault === undefined ? null : recordedOtherVault(db, vault);
  return other === null ? null : damagedError(path, `its -wal file holds the writes of the index of ${other}`);
}

/** Whether a -wal file with writes in it lies beside the index at `path`. */
function walBeside(path: string): boolean {
  try {
    return statSync(`${path}-wal`).size > 0;
  } catch {
    return false;
  }
}
