// What a file-system event means for the index: a note to re-check, a reason to rescan the whole vault,
// or nothing. Pure functions, so the rules can be tested without a watcher.
import type { Stats } from 'node:fs';
import { RULES_FILES } from '../vault/ignore-rules.js';
import { DENDRON_FILE } from '../vault/dendron.js';
import { DAILY_NOTES_FILE, PERIODIC_NOTES_FILE } from '../vault/obsidian-daily.js';
import { isNoteName, inSkippedFolder, isSkippedFolder, vaultRelative } from '../vault/paths.js';
import { isAttachmentName } from '../vault/scan.js';
import { machineShortOf } from '../core/machine-limits.js';

export { isNoteName, vaultRelative } from '../vault/paths.js';

/** chokidar's events, and `entry`: a name in a watched folder came or went (a file chokidar does not watch, fs-watcher.ts). */
export type WatchEventName = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir' | 'entry';

export type EventMeaning =
  | { kind: 'note'; rel: string }
  | { kind: 'rescan'; reason: string }
  | { kind: 'attachment'; rel: string }
  | { kind: 'none' };

/** Files whose change alters which notes are indexed (so everything must be looked at again). */
const RULE_FILES: ReadonlySet<string> = new Set(RULES_FILES);

/**
 * Obsidian's daily-note settings (src/vault/obsidian-daily.ts): the notes they type and date change with them,
 * files unchanged included, so a change rescans (a sync of the whole vault compares them with the ones the
 * notes were read with, and reads every note again when they differ). Watched in folders that are otherwise
 * never watched: those on the way to them, and nothing else of .obsidian/ (workspace.json changes at every click).
 * So is the vault's dendron.yml (src/vault/dendron.ts), which decides how every labelled link reads (one in a
 * folder above the vault is not watched: the next `tsm index` finds it).
 */
const SETTINGS_FILES: ReadonlySet<string> = new Set([DAILY_NOTES_FILE, PERIODIC_NOTES_FILE, DENDRON_FILE]);
const SETTINGS_FOLDERS: ReadonlySet<string> = new Set(
  [...SETTINGS_FILES].flatMap((f) => f.split('/').slice(0, -1).map((_, i, parts) => parts.slice(0, i + 1).join('/'))),
);

/** True when a folder on the way to `rel` (or `rel` itself, when it is a folder) is never watched. */
function belowSkippedFolder(rel: string, isDir: boolean): boolean {
  const parts = rel.split('/');
  if (!isDir) parts.pop();
  return inSkippedFolder(parts);
}

function baseName(rel: string): string {
  return rel.slice(rel.lastIndexOf('/') + 1);
}

export function classifyEvent(event: WatchEventName, rel: string, extensions: string[]): EventMeaning {
  // Notes, rule files and folders come as chokidar's own events; a name with an extension that no note has
  // is a file links may name (an image pasted into the vault), which chokidar does not watch.
  if (event === 'entry') return !belowSkippedFolder(rel, false) && isAttachmentName(baseName(rel), extensions) ? { kind: 'attachment', rel } : { kind: 'none' };
  if (SETTINGS_FILES.has(rel) && (event === 'add' || event === 'change' || event === 'unlink')) {
    return { kind: 'rescan', reason: `${rel} ${event === 'unlink' ? 'removed' : 'changed'}` };
  }
  if (belowSkippedFolder(rel, event === 'addDir' || event === 'unlinkDir')) return { kind: 'none' };
  if (event === 'addDir') return { kind: 'rescan', reason: `folder added: ${rel}` };
  if (event === 'unlinkDir') return { kind: 'rescan', reason: `folder removed: ${rel}` };
  if (RULE_FILES.has(baseName(rel))) return { kind: 'rescan', reason: `${rel} ${event === 'unlink' ? 'removed' : 'changed'}` };
  if (isNoteName(baseName(rel), extensions)) return { kind: 'note', rel };
  return { kind: 'none' };
}

/**
 * chokidar's `ignored` test. Skips the always-skipped folders (so the index's own writes under .tsm/
 * never start a batch) and files that are neither notes nor ignore rules (fewer watch handles).
 * Without stats a path may be a folder, so only the folder rule applies then. Folders that lead back
 * into their own ancestors through a symlink (`isLoop`) are not entered.
 */
export function createIgnoredTest(
  vault: string,
  extensions: string[],
  isLoop: (abs: string) => boolean = () => false,
): (abs: string, stats?: Stats) => boolean {
  return (abs, stats) => {
    const rel = vaultRelative(vault, abs);
    if (rel === null) return false;
    if (SETTINGS_FILES.has(rel)) return stats !== undefined && !stats.isFile();
    if (SETTINGS_FOLDERS.has(rel)) return stats !== undefined && !stats.isDirectory();
    if (belowSkippedFolder(rel, false)) return true;
    const name = baseName(rel);
    const wanted = RULE_FILES.has(name) || isNoteName(name, extensions);
    if (stats?.isFile()) return !wanted;
    // A folder never entered; without stats the name may also be a rule file's (`.gitignore`).
    const parent = baseName(rel.slice(0, Math.max(0, rel.lastIndexOf('/'))));
    if (isSkippedFolder(name, parent)) return stats !== undefined || !wanted;
    return stats?.isDirectory() === true && isLoop(abs);
  };
}

export type WatchFailure = 'handles' | 'permission' | 'other';

/**
 * ENOSPC (inotify watches used up) and EMFILE/ENFILE (file descriptors used up) are helped by polling;
 * EACCES/EPERM is one folder or note this user may not read (fs-watcher.ts watches it again once it can).
 */
export function watchFailureKind(err: unknown): WatchFailure {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission';
  return code === 'ENOSPC' || code === 'EMFILE' || code === 'ENFILE' ? 'handles' : 'other';
}

/**
 * The sentence that tells the user why the watcher fell back to polling and how to avoid it.
 * `instancesOut`: the EMFILE is the user's inotify instances used up (fs-watcher.ts inotifyInstancesOut).
 */
export function handlesAdvice(err: unknown, instancesOut = false): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code ?? 'unknown';
  if (code === 'ENOSPC') {
    return (
      'the system limit on file watches is reached (ENOSPC); ' +
      'raise it with `sudo sysctl fs.inotify.max_user_watches=524288` to get instant updates again'
    );
  }
  if (instancesOut) {
    return (
      `the system limit on inotify instances per user is reached (${code}: other programs hold them); ` +
      'raise it with `sudo sysctl fs.inotify.max_user_instances=1024` to get instant updates again'
    );
  }
  // The wording every command uses (core/machine-limits.ts): one limit, one advice.
  return `${machineShortOf(err) ?? `too many open files (${code})`}, to get instant updates again`;
}
