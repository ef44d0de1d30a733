// A sync that rewrites many notes (a `git pull`, a branch switch: below sync.ts REBUILD_SHARE, so note by
// note) merges the full-text indexes after it, as a build does (sync.ts COMPACT_SHARE). Before, a rewritten
// note's old rows stayed in the build's segment, hidden by delete marks, until FTS5's automerge got to it:
// on the handbook a sync of half the notes left sections_fts_data 1.64 times a clean build's pages, a second
// one 2.3 times. Small syncs (a watcher's, a hook's) do not pay for the merge, and it changes no result.
import { appendFileSync, cpSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tsm, writeFiles } from '../helpers/cli.js';
import { generateVault } from '../resilience/vault-gen.js';

const NOTES = 200;
/** One clock for the edited files of both copies: a note's date in the JSON output is its file's day. */
const EDITED_AT = new Date('2026-03-01T12:00:00Z');
const QUERIES = ['antenna firmware', 'battery', '電源 設計', 'field test notes', 'edit'];

let root: string;
/** Vault paths: `one` syncs the edit of half its notes at once; `small` in batches of 5 %; `clean` is built from the edited notes. */
const v = { one: '', small: '', clean: '' };
let edited: string[];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-fts-merge-'));
  Object.assign(v, { one: join(root, 'one'), small: join(root, 'small'), clean: join(root, 'clean') });
  const { files, notes } = generateVault(11, NOTES);
  // No semantic model: a rebuild trains it, incremental syncs do not, and the clean build is compared by its pages only.
  writeFiles(v.one, { ...files, '.tsm/config.json': JSON.stringify({ semantic: false }) });
  const built = tsm(['index', '--vault', v.one]);
  expect(built.code, built.stderr).toBe(0);
  cpSync(v.one, v.small, { recursive: true });
  edited = [...notes].sort().filter((_, i) => i % 2 === 0);
  for (const dir of [v.one, v.small]) {
    for (const rel of edited) {
      appendFileSync(join(dir, rel), `\n\nAn edit of ${rel} after a branch switch: firmware battery notes.\n`);
      utimesSync(join(dir, rel), EDITED_AT, EDITED_AT);
    }
  }
  cpSync(v.one, v.clean, { recursive: true, filter: (src) => !src.startsWith(join(v.one, '.tsm', 'index.db')) });
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Rows of each full-text data table: FTS5 keeps one per leaf page of its segments, plus a few records. */
function ftsPages(vault: string): { sections: number; notes: number } {
  const db = new Database(join(vault, '.tsm', 'index.db'), { readonly: true });
  try {
    const count = (t: string) => db.prepare(`SELECT count(*) FROM ${t}_data`).pluck().get() as number;
    return { sections: count('sections_fts'), notes: count('notes_fts') };
  } finally {
    db.close();
  }
}

it('a sync of half the notes leaves the full-text indexes the size of a clean build; small syncs leave them to automerge; results are the same', () => {
  const one = tsm(['index', '--vault', v.one]);
  expect(one.code, one.stderr).toBe(0);
  expect(one.stdout).toMatch(new RegExp(`^0 added, ${edited.length} updated`));
  // 5 % at a time, as a watcher or a hook writes: no merge.
  const step = Math.ceil(NOTES * 0.05);
  for (let i = 0; i < edited.length; i += step) {
    const r = tsm(['index', '--vault', v.small, '--files-from-stdin'], { input: edited.slice(i, i + step).join('\n') + '\n' });
    expect(r.code, r.stderr).toBe(0);
  }
  const clean = tsm(['index', '--vault', v.clean]);
  expect(clean.code, clean.stderr).toBe(0);

  const [merged, small, built] = [ftsPages(v.one), ftsPages(v.small), ftsPages(v.clean)];
  expect(merged.sections, JSON.stringify({ merged, built })).toBeLessThanOrEqual(built.sections * 1.05);
  expect(merged.notes, JSON.stringify({ merged, built })).toBeLessThanOrEqual(built.notes * 1.05);
  // What the merge saves (and what the old code left after the one big sync too).
  expect(small.sections, JSON.stringify({ small, built })).toBeGreaterThan(built.sections * 1.2);

  // The same notes, ids and scores, byte for byte, merged or not.
  for (const q of QUERIES) {
    const a = tsm(['search', '--vault', v.one, '-f', 'json', '-n', '20', q]);
    const b = tsm(['search', '--vault', v.small, '-f', 'json', '-n', '20', q]);
    expect(a.code, a.stderr).toBe(0);
    expect(JSON.parse(a.stdout).length, q).toBeGreaterThan(0);
    expect(a.stdout, q).toBe(b.stdout);
  }
}, 120_000);
