// Which vault an index holds. An index kept outside its vault (`--db`, `$TSM_DB`) can be named by another
// vault too: a TSM_DB set once in a shell profile serves every vault. Each sync then replaced the other
// vault's notes with its own ("1 removed"), and a search in one vault showed the other's notes under this
// one's paths. The index records its vault's folder (meta `vault`); a vault that is not the recorded one
// may not use it while the recorded folder still exists. A vault moved or renamed (its old folder gone)
// takes its index along, and an index inside its vault (`.tsm/index.db`, the default) belongs to the
// vault it sits in, wherever the folder is copied.
import type { Database } from 'better-sqlite3';
import { fileIdentity, fileKind } from '../vault/file-kind.js';
import { lstatSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isInside, realPathOr } from '../vault/paths.js';

const META_KEY = 'vault';

/** The vault folder the index at `path` holds, when it is another vault than `vault` and still there; else null. */
export function otherVaultOf(db: Database, path: string, vault: string): string | null {
  return insideVault(vault, path) ? null : recordedOtherVault(db, vault);
}

/**
 * The vault folder the index records, when it is another vault than `vault` and still there, wherever the
 * index lies; else null. Inside a vault that is a copy not yet synced (the copy's index records the
 * original), unless the index's -wal holds another index's writes (wal-check.ts).
 */
export function recordedOtherVault(db: Database, vault: string): string | null {
  const recorded = recordedVault(db);
  // The same folder by another name (a symlink) is the same vault.
  if (recorded === null || recorded === vault || fileIdentity(recorded) === fileIdentity(vault)) return null;
  return fileKind(recorded) === 'directory' ? recorded : null;
}

/** Records `vault` as the index's vault (a writer's, after otherVaultOf found no other). */
export function recordVault(db: Database, vault: string): void {
  if (recordedVault(db) === vault) return;
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(META_KEY, vault);
}

/**
 * Whether the index lies inside the vault, by the names given and by where they lead: a `.tsm` that is a
 * link into another vault's `.tsm/` (a shared config, a vault copied with its links) holds that vault's
 * index, whose notes each sync of this vault replaced ("1 removed"), searches of the other vault then
 * finding nothing. One only named inside (through a linked folder) is checked as one kept outside is.
 */
function insideVault(vault: string, path: string): boolean {
  return isInside(vault, path) && isInside(realPathOr(vault), leadsTo(path)) && names(path) <= 1;
}

/**
 * How many names (hard links) the index file has: more than one, and another folder may hold the same
 * file — a vault copied with `cp -al` (or a backup tool's hard links): the copy's syncs wrote its notes into
 * the first vault's index, whose searches then found notes it does not have. Such an index is checked as
 * one kept outside (by its recorded vault). 0 when it is not there.
 */
function names(path: string): number {
  try {
    return statSync(path).nlink;
  } catch {
    return 0;
  }
}

/**
 * Where the index's path leads: through a link of its folder, then through a link that is the file itself
 * (`.tsm/index.db` linked to another vault's index: its syncs replaced that vault's notes, as with a linked
 * `.tsm`). A path that leads nowhere yet stays as its folder leads.
 */
function leadsTo(path: string): string {
  const inFolder = join(realPathOr(dirname(path)), basename(path));
  return fileLink(inFolder) ? realPathOr(inFolder) : inFolder;
}

/** Whether `path` is a symbolic link. */
function fileLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** What a writer or reader says when the index holds another vault, and the fix. */
export function otherVaultMessage(path: string, vault: string, other: string): string {
  const held = `the index ${path} holds the notes of the vault ${other}, not of ${vault}`;
  // Named inside this vault, it leads elsewhere: "neither --db nor TSM_DB" would name this very file.
  if (isInside(vault, path) && names(path) > 1) {
    return `${held} (${path} is one of the file's ${names(path)} names: a hard link, as \`cp -al\` or a backup tool makes): give this vault an index of its own (delete ${path}, which leaves the other name, and \`tsm index\` builds one, or name another file with --db or TSM_DB)`;
  }
  if (isInside(vault, path) && fileLink(path)) {
    return `${held} (${path} is a link to ${realPathOr(path)}): give this vault an index of its own (delete the link, and \`tsm index\` builds one there, or name another file with --db or TSM_DB)`;
  }
  if (isInside(vault, path)) {
    const folder = dirname(path);
    return `${held} (${folder} leads to ${realPathOr(folder)}): give this vault an index of its own (make ${folder} a folder of its own, not a link, or name another file with --db or TSM_DB)`;
  }
  return `${held}: give this vault an index of its own (--db or TSM_DB naming another file, or neither, for ${vault}/.tsm/index.db)`;
}

function recordedVault(db: Database): string | null {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(META_KEY) as { value: string } | undefined;
  return row?.value ?? null;
}
