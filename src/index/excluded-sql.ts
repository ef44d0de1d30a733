// Obsidian's Excluded files (vault/obsidian-excluded.ts) in SQL: `tsm_excluded(path, set)` is 1 when the set of
// entries `set` names the vault path. The set is a number standing for the entries, compiled once: passed as
// their JSON, 1,000 entries (15 kB) were copied into JavaScript for each of the Obsidian Hub's 6,571 notes,
// 0.12 s a search.
import type { Database } from './db.js';
import { excludedBy } from '../vault/obsidian-excluded.js';

/** Connections that have `tsm_excluded`. */
const registered = new WeakSet<Database>();
/** Compiled sets of entries by their JSON, and by number: one set a vault, so a few at most. */
const numbers = new Map<string, number>();
let tests: ((path: string) => boolean)[] = [];

/** The number that stands for `patterns` in `tsm_excluded(path, ?)` on `db`. */
export function excludedSet(db: Database, patterns: readonly string[]): number {
  if (!registered.has(db)) {
    db.function('tsm_excluded', { deterministic: true }, (path: unknown, set: unknown) => (tests[set as number]?.(path as string) ? 1 : 0));
    registered.add(db);
  }
  const key = JSON.stringify(patterns);
  let n = numbers.get(key);
  if (n === undefined) {
    if (tests.length >= 16) {
      numbers.clear();
      tests = [];
    }
    n = tests.push(excludedBy(patterns)) - 1;
    numbers.set(key, n);
  }
  return n;
}
