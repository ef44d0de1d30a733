// Once a tenth of the notes were written since the full-text indexes were one segment (by a sync that
// rewrites many notes: a `git pull`, a branch switch, below sync.ts REBUILD_SHARE; or by many small ones: a
// watcher's), the sync merges them again (sync.ts COMPACT_SHARE). Before, a rewritten note's old rows stayed
// in the build's segment, hidden by delete marks, until FTS5's automerge got to it: on the handbook a sync
// of half the notes left sections_fts_data 1.64 times a clean build's rows, 3,000 one-note syncs 1.65 times.
// The syncs between two merges do not pay for one, and a merge changes no result.
import { appendFileSync, cpSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tsm, writeFiles } from '../helpers/cli.js';
import { segmentCount } from '../helpers/fts-segments.js';
import { generateVault } from '../resilience/vault-gen.js';

const NOTES = 100;
/** One clock for the edited files of both copies: a note's date in the JSON output is its file's day. */
const EDITED_AT = new Date('2026-03-01T12:00:00Z');
const QUERIES = ['antenna firmware', 'battery', '電源 設計', 'field test notes', 'edit'];

let root: string;
/** Vault paths: `one` syncs the edit of half its notes at once; `small` one note at a time; `clean` is built from the edited notes. */
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

/** Whether both full-text indexes are one segment each (merged). */
function merged(vault: string): boolean {
  const db = new Database(join(vault, '.tsm', 'index.db'), { readonly: true });
  try {
    return ['sections_fts', 'notes_fts'].every((t) => segmentCount(db.prepare(`SELECT block FROM ${t}_data WHERE id = 10`).pluck().get() as Uint8Array) === 1);
  } finally {
    db.close();
  }
}

it('half the notes rewritten leaves the full-text indexes about the size of a clean build, at once or one by one, with the same results', () => {
  const one = tsm(['index', '--vault', v.one]);
  expect(one.code, one.stderr).toBe(0);
  expect(one.stdout).toMatch(new RegExp(`^0 added, ${edited.length} updated`));
  // One note at a time, as a watcher or a hook writes: a merge after about every tenth of the notes, not after each.
  let merges = 0;
  for (const rel of edited) {
    const r = tsm(['index', '--vault', v.small, '--files-from-stdin'], { input: `${rel}\n` });
    expect(r.code, r.stderr).toBe(0);
    if (merged(v.small)) merges++;
  }
  expect(merges).toBeGreaterThan(0);
  expect(merges).toBeLessThanOrEqual(Math.ceil(edited.length / (NOTES * 0.1)));
  const clean = tsm(['index', '--vault', v.clean]);
  expect(clean.code, clean.stderr).toBe(0);

  const [once, small, built] = [ftsPages(v.one), ftsPages(v.small), ftsPages(v.clean)];
  expect(once.sections, JSON.stringify({ once, built })).toBeLessThanOrEqual(built.sections * 1.05);
  expect(once.notes, JSON.stringify({ once, built })).toBeLessThanOrEqual(built.notes * 1.05);
  // Up to a tenth of the notes written since the last merge, one segment each at most.
  expect(small.sections, JSON.stringify({ small, built })).toBeLessThanOrEqual(built.sections * 1.3);

  // The same notes, ids and scores, byte for byte, however they were written and merged.
  for (const q of QUERIES) {
    const a = tsm(['search', '--vault', v.one, '-f', 'json', '-n', '20', q]);
    const b = tsm(['search', '--vault', v.small, '-f', 'json', '-n', '20', q]);
    expect(a.code, a.stderr).toBe(0);
    expect(JSON.parse(a.stdout).length, q).toBeGreaterThan(0);
    expect(a.stdout, q).toBe(b.stdout);
  }
}, 300_000);
