// A generated vault on disk and its clean reference builds (an index built from nothing, with --db
// pointing outside the vault), which every damaged or raced index is compared with.
import { existsSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { makeVault, tsm, writeFiles, type RunResult } from '../helpers/cli.js';
import { dumpDifferences, inspectIndex, type IndexDump } from './index-check.js';
import { snapshot, snapshotDifferences, type SearchSnapshot } from './snapshot.js';
import { generateVault, type GeneratedVault } from './vault-gen.js';

/**
 * No recency decay: scores must not depend on the minute the comparison runs at, only on the index.
 * (Decay itself is covered by the search tests.) No semantic model either: its vectors depend on the
 * order of syncs (an incremental sync embeds new sections with the word vectors it has; a clean build
 * trains on everything), so an index reached through kills and updates ranks differently from a clean
 * build by design; these tests are about the lexical index. (The model is covered by semantic-*.test.ts.)
 */
export const NO_DECAY_CONFIG = JSON.stringify({ halfLifeDays: { daily: 0, knowledge: 0, session: 0 }, semantic: false });

/** File times of the first version of the vault and of later edits: fixed, so a reference stays valid. */
export const FIRST_MTIME = new Date('2026-11-01T09:00:00Z');
export const LATER_MTIME = new Date('2026-11-10T09:00:00Z');

export interface VaultOnDisk {
  dir: string;
  /** The default index, <vault>/.tsm/index.db. */
  db: string;
  first: GeneratedVault;
  /** The version now on disk. */
  current: GeneratedVault;
  cleanup: () => void;
}

export function generatedVault(seed: number, notes: number): VaultOnDisk {
  const first = generateVault(seed, notes);
  const v = makeVault({ ...first.files, '.tsm/config.json': NO_DECAY_CONFIG });
  for (const path of first.notes) utimesSync(join(v.dir, path), FIRST_MTIME, FIRST_MTIME);
  return { dir: v.dir, db: join(v.dir, '.tsm', 'index.db'), first, current: first, cleanup: v.cleanup };
}

/**
 * Puts another version of the vault on disk: deletes, writes what differs. A file's time says which
 * version its content comes from, so switching back and forth always gives the same files and times.
 */
export function switchVault(v: VaultOnDisk, to: GeneratedVault): void {
  for (const path of v.current.notes) if (!(path in to.files)) rmSync(join(v.dir, path), { force: true });
  for (const [path, content] of Object.entries(to.files)) {
    if (v.current.files[path] === content) continue;
    writeFiles(v.dir, { [path]: content });
    const time = v.first.files[path] === content ? FIRST_MTIME : LATER_MTIME;
    utimesSync(join(v.dir, path), time, time);
  }
  v.current = to;
}

export interface Reference {
  db: string;
  dump: IndexDump;
  snap: SearchSnapshot;
  /** Wall time of the clean build, ms. */
  buildMs: number;
  cleanup: () => void;
}

/** Builds the vault as it is on disk from nothing, into a separate file, and records what it holds. */
export async function cleanReference(vault: string): Promise<Reference> {
  const dir = mkdtempSync(join(tmpdir(), 'tsm-ref-'));
  const db = join(dir, 'clean.db');
  const started = performance.now();
  const r = tsm(['index', '--vault', vault, '--db', db]);
  const buildMs = performance.now() - started;
  if (r.code !== 0) throw new Error(`clean build failed (${r.code}): ${r.stderr}`);
  const { problems, dump } = inspectIndex(db);
  if (problems.length > 0 || dump === null) throw new Error(`the clean build itself is unhealthy: ${problems.join('; ')}`);
  const snap = await snapshot(vault, db);
  return { db, dump, snap, buildMs, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The full comparison: integrity, then every row (by path), then what searches and status show. */
export async function expectSameAsClean(vault: string, db: string, ref: Reference, label: string): Promise<void> {
  const { problems, dump } = inspectIndex(db);
  expect(problems, `${label}: integrity`).toEqual([]);
  expect(dump, `${label}: schema`).not.toBeNull();
  expect(dumpDifferences(dump as IndexDump, ref.dump).slice(0, 10), `${label}: rows differ from a clean build`).toEqual([]);
  const snap = await snapshot(vault, db);
  expect(snapshotDifferences(snap, ref.snap), `${label}: searches differ from a clean build`).toEqual([]);
}

/** Integrity problems of an index file, or none when a kill came before the file was created. */
export function problemsIfAny(db: string): string[] {
  return existsSync(db) ? inspectIndex(db).problems : [];
}

export function removeIndex(db: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(db + suffix, { force: true });
}

/** Exit 1 and one `tsm: …` line on stderr (naming the fix when `names` is given), never a stack trace. */
export function expectClearMessage(r: RunResult, what: string, names?: RegExp): void {
  expect(r.code, `${what}: exit code (stderr: ${r.stderr})`).toBe(1);
  expect(r.stdout, `${what}: stdout`).toBe('');
  expect(r.stderr, `${what}: one line`).toMatch(/^tsm: [^\n]+\n$/);
  if (names) expect(r.stderr, `${what}: names the fix`).toMatch(names);
}

/** A Claude Code UserPromptSubmit payload whose prompt matches the generated vaults. */
export function promptPayload(cwd: string): string {
  return JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'resilience', cwd, prompt: 'LoRa のアンテナ設計について教えて' });
}
