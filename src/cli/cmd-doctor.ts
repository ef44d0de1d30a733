// tsm doctor: every check of the index, of the Claude Code wiring of the project it runs in, and of the
// hooks' recent errors; each problem comes with its fix.
import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { DoctorProblem as Problem, LinkRecord } from '../core/types.js';
import { IndexError, lockedIndexError, type Database } from '../index/db.js';
import { pendingChanges } from '../index/sync.js';
import { describeChangedSettings } from '../index/reading-settings.js';
import { withIndexReader } from '../index/open-reader.js';
import { NoteReader } from '../index/note-reader.js';
import { isSyncReport } from '../hooks/background-sync.js';
import { hookLogPath, shownLogLine } from '../hooks/hook-log.js';
import { ConfigFileError, envSetting, tsmDir, TSM_DIR, unknownConfigKeys, vaultAboveCwd, type TsmConfig } from '../vault/config.js';
import { runningWatcher } from '../vault/watcher-pid.js';
import { indexInGit } from '../vault/index-in-git.js';
import { conflictCopyOf } from '../vault/conflict-copies.js';
import { excludedBy, OBSIDIAN_APP_FILE, readObsidianExcluded, searchExcludedFix } from '../vault/obsidian-excluded.js';
import { indexIgnoredFix } from '../vault/ignored-files.js';
import { fileKind, isNotRegular, NOT_REGULAR, notPlainFileError, readUtf8RegularFile } from '../vault/file-kind.js';
import { UserError } from './run.js';
import { namesFileNotNote, noteExtensionOf } from '../text/file-not-note.js';
import { ALL_LINKS, unresolvedForDoctor, type IgnoredTargets } from './doctor-links.js';
import { withIgnored } from '../index/ignored-links.js';
import { keptNotes, transcriptOfSession } from '../sessions/ingest.js';
import { sessionIdOfNote } from '../sessions/note-format.js';
import { readRange } from '../sessions/files.js';
import { ingestStateDir, isSkippedLinesReport } from '../sessions/ingest-and-index.js';
import { embeddingChecks } from '../embed/status.js';
import { configFrom, printJson } from './args.js';
import { DOCTOR_WARNINGS_SHOWN, keptLine } from './cmd-status.js';
import { oneLine } from '../text/controls.js';
import { writeOut } from './stdio.js';
import { withTarget } from './fix-target.js';
import { count } from '../text/count.js';


export async function run(argv: Record<string, unknown>): Promise<void> {
  // The project doctor is run in: its Claude Code wiring is checked, and when nothing else names a vault
  // (--vault, TSM_VAULT, a vault folder at or above it), the vault its tsm hooks use is the one checked.
  const setup = await import('../hooks/claude-check.js');
  const project = setup.claudeProject(process.env);
  const projectDir = project.dir;
  let vaultFlag = typeof argv.vault === 'string' ? argv.vault : undefined;
  const wired = vaultFlag === undefined && envSetting(process.env, 'TSM_VAULT') === undefined && vaultAboveCwd(process.cwd()) === null ? setup.wiredVaultFrom(projectDir) : null;
  if (wired) {
    // Said with where it was named: "correct --vault" named a flag nobody typed.
    if (fileKind(wired.vault) !== 'directory') throw new UserError(`vault not found: ${wired.vault}, named by ${wired.from} (correct it there, or create the folder first)`);
    vaultFlag = wired.vault;
  }
  const { cfg, badConfig } = doctorConfig({ ...argv, vault: vaultFlag });
  const problems: Problem[] = badConfig ? [badConfig] : [];
  // The index's last sync, when the index opens now: hook.log lines about the index logged before it are over.
  let lastSync: number | null = null;
  try {
    problems.push(
      ...withIndexReader(
        cfg.db,
        (db) => {
          const reader = new NoteReader(db, cfg.db);
          lastSync = Date.parse(reader.status().lastSync ?? '') || null;
          return indexChecks(cfg, db, reader);
        },
        { tsmDir: tsmDir(cfg), vault: cfg.vault },
      ),
    );
    // Read, but not written: searches answer, while `tsm index`, `tsm watch` and the hooks' syncs fail.
    const readOnly = lockedIndexError(cfg.db, 'write');
    if (readOnly !== null) problems.push({ check: 'index', severity: 'warning', message: readOnly.message, fix: readOnly.fix });
  } catch (err) {
    if (!(err instanceof IndexError)) throw err;
    problems.push({ check: 'index', severity: 'error', message: err.message, fix: err.fix });
  }
  const unknownKeys = badConfig ? [] : unknownConfigKeys(cfg.vault);
  if (unknownKeys.length) {
    problems.push({
      check: 'config',
      severity: 'warning',
      message: `${join(cfg.vault, TSM_DIR, 'config.json')} has ${unknownKeys.length === 1 ? 'a setting' : 'settings'} tsm does not know, which change${unknownKeys.length === 1 ? 's' : ''} nothing: ${unknownKeys.join(', ')}`,
      fix: 'correct the name or remove the key (the config.json `tsm init` writes for a new vault lists every setting)',
    });
  }
  const inGit = existsSync(cfg.db) ? indexInGit(cfg.vault, cfg.db) : null;
  if (inGit) {
    const untrack = `\`git rm -r -q --cached ${TSM_DIR} && git add ${TSM_DIR}\`, and commit (the index leaves git; config.json stays)`;
    problems.push({
      check: 'git',
      severity: 'warning',
      message:
        inGit.state === 'tracked'
          ? `the index ${cfg.db} is committed to the git repository at ${inGit.root}: every commit takes it again`
          : `the index ${cfg.db} is not ignored by the git repository at ${inGit.root}: \`git add -A\` (and Obsidian Git's auto-commit) would commit it`,
      fix: `run \`tsm init\` in the vault (it writes ${join(TSM_DIR, '.gitignore')}, which keeps all but config.json out of git)${inGit.state === 'tracked' ? `, then ${untrack}` : ''}`,
    });
  }
  const kept = keptNotes(ingestStateDir(cfg), cfg);
  if (kept.length) {
    const shown = kept.slice(0, 5).map((k) => `${relative(cfg.vault, k.path)} (${k.reason})`);
    problems.push({
      check: 'sessions',
      severity: 'info',
      message: `${keptLine(kept)}: ${shown.join(', ')}${kept.length > shown.length ? ` … and ${kept.length - shown.length} more` : ''}`,
      fix: 'nothing to do; to let tsm write a session again, delete its state file in <vault>/.tsm/sessions/ (named by the session id)',
    });
  }
  // Once for every check below: `claude --version` is a process (~50 ms for 2.1, ~300 ms for 2.0).
  const claudeVersion = setup.claudeCodeVersion();
  const promptHook = setup.promptHookLine(projectDir, process.env, claudeVersion);
  if (project.problem) {
    // A project that is not there has no wiring to check: "run `tsm init --claude` in <it>" led nowhere.
    problems.push({ check: 'claude', severity: 'warning', message: `${project.problem}: its Claude Code wiring was not checked`, fix: 'correct $CLAUDE_PROJECT_DIR, or unset it to check the current folder' });
  } else {
    problems.push(...setup.checkClaudeWiring(projectDir, process.env, claudeVersion));
  }
  // A vault that is itself a Claude Code project elsewhere keeps being checked, as before.
  const vaultSetup = join(cfg.vault, '.claude');
  if (resolve(cfg.vault) !== resolve(projectDir) && existsSync(vaultSetup) && statSync(vaultSetup).isDirectory()) {
    // The user-level findings (the plugin, tsm on PATH) are the same for both folders: say them once.
    const seen = new Set(problems.map((p) => `${p.check}\n${p.message}`));
    problems.push(...setup.checkClaudeWiring(cfg.vault, process.env, claudeVersion).filter((p) => !seen.has(`${p.check}\n${p.message}`)));
  }
  problems.push(...hookLogChecks(cfg, lastSync));
  problems.push(...embeddingChecks(cfg));
  if (!runningWatcher(tsmDir(cfg))) {
    problems.push({
      check: 'watcher',
      severity: 'info',
      message: 'no `tsm watch` is running for this vault',
      fix: 'run `tsm watch` in the background to keep the index fresh (or `tsm index` after edits)',
    });
  }
  const errors = problems.filter((p) => p.severity === 'error').length;
  for (const p of problems) p.fix = withTarget(p.fix); // the commands to run, on this vault (fix-target.ts)
  if (argv.json) {
    printJson({ vault: cfg.vault, db: cfg.db, project: projectDir, ok: errors === 0, prompt_hook: promptHook, problems });
  } else if (problems.length === 0) {
    writeOut(`prompt hook: ${oneLine(promptHook)}\nall checks passed\n`);
  } else {
    writeOut(`prompt hook: ${oneLine(promptHook)}\n`);
    for (const p of problems) writeOut(`${p.severity.padEnd(7)} ${p.check}: ${textMessage(p.message)}\n        fix: ${oneLine(p.fix)}\n`);
  }
  if (errors) process.exitCode = 1;
}

/**
 * The vault's settings, and the finding when its config.json is bad: then the checks run with the defaults
 * (and the environment). Doctor stopped at a bad config.json with its one line, as every command does, and
 * checked nothing else.
 */
function doctorConfig(argv: Record<string, unknown>): { cfg: TsmConfig; badConfig: Problem | null } {
  try {
    return { cfg: configFrom(argv), badConfig: null };
  } catch (err) {
    if (!(err instanceof ConfigFileError)) throw err;
    return {
      cfg: configFrom(argv, { skipFile: true }),
      badConfig: {
        check: 'config',
        severity: 'error',
        message: `${err.message} (every tsm command stops at it; the checks below used the default settings)`,
        fix: err.fix ?? `correct ${err.configFile} (\`tsm init\` in an empty folder writes a commented config.json that lists every setting), then run \`tsm doctor\` again`,
      },
    };
  }
}

/** Where a message goes on to lines of its own in the text output (the hook.log lines it quotes). */
const DETAIL_BREAK = '\n          ';

/**
 * A message as the text output prints it: messages quote file names, link targets and log lines, which
 * may hold terminal escapes or a newline; each line is shown as search shows note text, so none can
 * forge a line of doctor's (the JSON output keeps them exact).
 */
function textMessage(message: string): string {
  return message.split(DETAIL_BREAK).map(oneLine).join(DETAIL_BREAK);
}

/** Lists doctor prints in full up to these lengths; past them it says how many more there are. */
const MAX_LINKS = 50;
const MAX_WARNINGS = DOCTOR_WARNINGS_SHOWN;

function indexChecks(cfg: TsmConfig, db: Database, reader: NoteReader): Problem[] {
  const problems: Problem[] = [];
  const bad = reader.integrityCheck();
  if (bad.length) {
    problems.push({
      check: 'integrity',
      severity: 'error',
      message: `the index fails SQLite's integrity check: ${bad.slice(0, 3).join('; ')}${bad.length > 3 ? ` … and ${bad.length - 3} more` : ''}`,
      fix: 'run `tsm index --full` (if that fails, delete the index file and run `tsm index`)',
    });
  }
  const { added, changed: stale, removed, settings, olderReading } = pendingChanges(cfg, db);
  let staleness: Problem | null = null;
  if (stale + added + removed > 0) {
    const why =
      settings.length > 0
        ? ` (${describeChangedSettings(settings)} since the notes were read: \`tsm index\` reads every note again)`
        : olderReading > 0
          ? ` (${olderReading} of them not edited: an older tsm read them, and \`tsm index\` reads them again, once)`
          : '';
    staleness = {
      check: 'staleness',
      severity: 'warning',
      message: `the index is behind the vault: ${added} new, ${stale} changed, ${removed} deleted files${why}`,
      fix: 'run `tsm index` (or keep `tsm watch` running)',
    };
    problems.push(staleness);
  }
  const totals = reader.status();
  // A link to a file tsm skipped (NUL bytes, too large, no permission, a FIFO, a broken symlink) names a file
  // that is there: creating "that note" would be the wrong fix (NoteReader.skippedTargets says which).
  // All of them (the handbook's 2,093 take 30 ms), so that a site's pictures can be told from the rest. Links to
  // notes and attachments the ignore rules leave out are told apart by a walk of the vault
  // (index/ignored-links.ts), made only when such a link may be there: the Obsidian Hub with a third of its
  // notes ignored, doctor ~0.4 s → ~0.7 s (3,506 links to them; a loaded machine).
  const unresolved = unresolvedForDoctor(withIgnored(reader.unresolvedLinks(ALL_LINKS, cfg.extensions), cfg.vault, cfg.extensions), cfg.vault, cfg.extensions);
  for (const f of unresolved.folders) {
    const where = `${f.first.sourcePath}${f.first.line ? `:${f.first.line}` : ''}`;
    problems.push({
      check: 'links',
      severity: 'warning',
      message: `${count(f.links, 'link')} name files under "${f.folder}", a folder not in the vault (the first: ${where} links to "${f.first.target}")`,
      fix: `add those files to the vault (a site keeps them in its static folder: Hugo's static${f.folder}), or leave them: the links stay unresolved`,
    });
  }
  problems.push(...unresolved.ignored.map(ignoredLinksLine));
  const links = unresolved.links.slice(0, MAX_LINKS);
  for (const l of links) {
    const where = `${l.sourcePath}${l.line ? `:${l.line}` : ''}`;
    const file = l.skipped;
    problems.push(
      file !== null
        ? {
            check: 'links',
            severity: 'warning',
            message: `${where} links to "${l.target}", which is ${file.path}: a file tsm skipped (its warning says why)`,
            fix: linkedFileFix(file.path, file.reason),
          }
        : {
            check: 'links',
            severity: 'warning',
            message: `${where} links to "${l.target}", which is not in the vault`,
            fix: fullWidthAliasFix(l.target) ?? pageFix(l, reader, cfg.extensions) ?? (namesFileNotNote(l.target, cfg.extensions) ? 'add that file to the vault, or correct the link' : 'create that note, or correct the link'),
          },
    );
  }
  const grouped = unresolved.folders.reduce((n, f) => n + f.links, 0) + unresolved.ignored.reduce((n, g) => n + g.links, 0);
  // Past ALL_LINKS the list was cut: the count is the index's, less what the folders' lines already say.
  const listed = totals.unresolvedLinks > ALL_LINKS ? totals.unresolvedLinks - grouped : unresolved.links.length;
  problems.push(...more('links', listed, links.length));
  const warnings = reader.warnings(MAX_WARNINGS);
  for (const w of warnings) {
    problems.push({ check: 'notes', severity: 'warning', message: `${w.path}: ${w.message}`, fix: oversizedSessionNoteFix(cfg, w) ?? fixFor(w.message) });
  }
  problems.push(...more('notes', totals.warnings, warnings.length));
  const paths = reader.notePaths();
  problems.push(...conflictCopies(paths));
  problems.push(...obsidianExcluded(cfg, paths));
  // The lists below come from the index: behind the vault, a link to a note added since reads "not in the
  // vault", and a note fixed since keeps its warning, until the next sync.
  if (staleness && (links.length > 0 || warnings.length > 0)) staleness.message += '; the unresolved links and note warnings below are as the last sync found them';
  return problems;
}

/**
 * Links to notes (or attachments) one ignore rule leaves out (doctor-links.ts): information, not a fault. The
 * file is there and Obsidian resolves the link; the user left it out of tsm, and the fix says how to bring it
 * back if wanted.
 */
function ignoredLinksLine(g: IgnoredTargets): Problem {
  const where = `${g.first.sourcePath}${g.first.line ? `:${g.first.line}` : ''}`;
  const one = g.links === 1;
  const left = `${g.by} leaves out of the index`;
  // A note, or notes: as before; an attachment among them makes them files.
  const notes = g.toAttachments === 0;
  const a = notes ? 'a note' : 'a file';
  const what = g.rule.endsWith('/')
    ? one
      ? `${where} links to "${g.first.target}", which is ${g.file}, ${a} in ${g.rule}, which ${left}`
      : `${g.links} links name ${notes ? 'notes' : 'files'} in ${g.rule}, which ${left} (the first: ${where} links to "${g.first.target}", ${g.file})`
    : one
      ? `${where} links to "${g.first.target}", which is ${g.file}, ${a} ${left}`
      : `${g.links} links name ${g.file}, ${a} ${left} (the first: ${where} links to "${g.first.target}")`;
  // An attachment is searched in no case: left out, only its links read unresolved to tsm.
  const keep = `nothing to do if you keep ${g.rule} out of ${g.toNotes > 0 ? 'searches' : 'the index'}`;
  return {
    check: 'links',
    severity: 'info',
    message: `${what}: ${one ? 'the link is right (Obsidian resolves it)' : 'the links are right (Obsidian resolves them)'}`,
    fix: `${keep}; to index it, ${indexIgnoredFix(g)}`,
  };
}

/** Copies shown by name; the rest are counted. */
const MAX_COPIES = 20;

/**
 * The notes a sync tool left as conflicted copies (vault/conflict-copies.ts), in one line: each holds an edit
 * its original may lack, and searches find both, so the user wants to merge and delete them, and nothing
 * else said they were there.
 */
function conflictCopies(paths: string[]): Problem[] {
  const notes = new Set(paths);
  const copies: string[] = [];
  for (const p of paths) {
    const original = conflictCopyOf(p, (o) => notes.has(o));
    if (original !== null) copies.push(`${p} (of ${notes.has(original) ? original : `${original}, not in the vault`})`);
  }
  if (copies.length === 0) return [];
  const shown = copies.slice(0, MAX_COPIES);
  return [
    {
      check: 'copies',
      severity: 'info',
      message: `${count(copies.length, 'note')} named as a sync tool names its conflicted copies: ${shown.join(', ')}${copies.length > shown.length ? ` … and ${copies.length - shown.length} more` : ''}`,
      fix: 'merge what each holds into its original and delete it (tsm changes no file; until then searches find both)',
    },
  ];
}

/**
 * Obsidian's Excluded files (vault/obsidian-excluded.ts): which notes they leave out of every search, so that a
 * note missing from the results has its reason in sight, and an entry tsm cannot use.
 */
function obsidianExcluded(cfg: TsmConfig, paths: string[]): Problem[] {
  const { filters, problems } = readObsidianExcluded(cfg.vault);
  const out: Problem[] = problems.map((message) => ({
    check: 'excluded',
    severity: 'warning',
    message,
    fix: 'correct it in Obsidian (Settings → Files and links → Excluded files), or in the file',
  }));
  if (filters.length === 0) return out;
  const excluded = paths.filter(excludedBy(filters)).length;
  const entries = filters.map((f) => JSON.stringify(f)).join(', ');
  out.push(
    cfg.obsidianExcludedFiles
      ? {
          check: 'excluded',
          severity: 'info',
          message: `Obsidian's Excluded files (${OBSIDIAN_APP_FILE}: ${entries}) leave ${count(excluded, 'note')} out of every search, as Obsidian's search leaves them out`,
          fix: `nothing to do; to search them too, ${searchExcludedFix(cfg.vault)}`,
        }
      : {
          check: 'excluded',
          severity: 'info',
          message: `Obsidian's Excluded files (${OBSIDIAN_APP_FILE}: ${entries}) name ${count(excluded, 'note')}, which searches find: "obsidianExcludedFiles" is false`,
          fix: 'nothing to do; remove the setting to leave them out of searches as Obsidian does',
        },
  );
  return out;
}

/**
 * [[ノート｜別名]], typed with a Japanese IME's full-width ｜ (U+FF5C): Obsidian, and so tsm, read the ｜ as part
 * of the note's name, not as the alias separator, so "create that note" would be the wrong fix.
 */
function fullWidthAliasFix(target: string): string | undefined {
  const bar = target.indexOf('｜');
  if (bar <= 0) return undefined;
  return `for an alias, write [[${target.slice(0, bar)}|${target.slice(bar + 1)}]] with the ASCII | (Obsidian reads the full-width ｜ as part of the name)`;
}

/** A markdown link to `x.html` beside the note `x.md` (a site's page of it): link the note. */
function pageFix(l: LinkRecord, reader: NoteReader, extensions: readonly string[]): string | undefined {
  const note = l.kind === 'markdown' ? reader.noteOfPage(l.target, l.sourcePath, extensions) : null;
  if (note === null) return undefined;
  const ext = noteExtensionOf(note, extensions) ?? '.md';
  return `link the note ${note} (write ${l.target.replace(/\.html?$/i, ext)}): ${l.target} is the page a site builds from it`;
}

/**
 * The fix for each kind of note warning, first match wins. `linked` is the fix when a link names the
 * skipped file: there the link is right, so removing the file or ignoring it (the plain fix) would only
 * break the link.
 */
const FIXES: { cause: RegExp | string; fix: string; linked?: (file: string) => string }[] = [
  // First: a .gitignore that is a pipe says NOT_REGULAR too, and adding it to .tsmignore would change nothing.
  // Obsidian's settings files (src/vault/obsidian-daily.ts): Obsidian writes them, so they are corrected there.
  { cause: /calendarSets must be a list of calendar sets/, fix: "open Periodic Notes' settings in Obsidian so that it writes its calendar sets again, or remove `calendarSets` from the file, then run `tsm index`" },
  { cause: /(daily|weekly|monthly|quarterly|yearly)-note settings are not read/, fix: 'correct them in Obsidian (Settings → Daily notes, or Periodic Notes), or delete the file, then run `tsm index`' },
  {
    cause: /tsm takes no day from these (daily|weekly|monthly|quarterly|yearly)-note settings/,
    fix: "choose a format of the tokens tsm reads in Obsidian's settings, or give each note `date:` in its frontmatter",
  },
  { cause: /its ignore rules are not applied/, fix: 'make it a plain file your user can read (or remove it)' },
  { cause: /not a type tsm knows/, fix: 'set `type:` to daily, knowledge or session, or remove it (tags can carry your own kinds)' },
  { cause: /frontmatter not closed/, fix: 'end the properties with a line of `---`' },
  { cause: /no date tsm reads/, fix: 'write the date as an ISO date, YYYY-MM-DD (`created: 2026-07-18`), or remove the key' },
  { cause: /yaml|frontmatter/i, fix: 'correct the YAML between the `---` lines' },
  // Before the encodings: the name, not the text, is what is wrong.
  {
    cause: /file name is not valid UTF-8/,
    fix: 'rename the file (a name of valid UTF-8, in NFC), or add it to .tsmignore',
    linked: (f) => `the name of ${f} is not valid UTF-8: rename the file and the link to a name of valid UTF-8`,
  },
  { cause: /only in Unicode normalization/, fix: 'rename the file (a name of valid UTF-8, in NFC), or add it to .tsmignore' },
  { cause: /invalid UTF-(8|16)/i, fix: 'save the file as UTF-8', linked: (f) => `save ${f} as UTF-8` },
  { cause: /binary/i, fix: 'rename it (not .md) or add it to .tsmignore' },
  {
    cause: NOT_REGULAR,
    fix: 'remove it, or add it to .tsmignore',
    linked: (f) => `${f} is a pipe, a socket or a device, not a file: replace it with the note`,
  },
  {
    cause: /large|size/i,
    fix: 'split the file, raise maxFileBytes in .tsm/config.json, or add it to .tsmignore',
    linked: (f) => `split ${f}, or raise maxFileBytes in .tsm/config.json`,
  },
  {
    cause: /permission denied|EACCES|EPERM/,
    fix: 'give your user read permission (chmod u+r, and u+x for a folder), or add it to .tsmignore',
    linked: (f) => `give your user read permission on ${f} (chmod u+r)`,
  },
  { cause: /symlink loop/, fix: 'remove the looping symlink or add it to .tsmignore' },
  {
    cause: /broken symlink/,
    fix: 'point the symlink at an existing note, remove it, or add it to .tsmignore',
    linked: (f) => `${f} is a broken symlink: point it at the note`,
  },
  {
    cause: /symlink to a file/,
    fix: 'copy the file into the vault instead of linking to it, or add the link to .tsmignore',
    linked: (f) => `${f} is a symlink tsm does not follow (its warning says why): put the note itself in its place`,
  },
];

function fixOf(message: string): (typeof FIXES)[number] | undefined {
  return FIXES.find(({ cause }) => (typeof cause === 'string' ? message.includes(cause) : cause.test(message)));
}

/**
 * A session note skipped as too large was written by a tsm that let a note grow without end (or before
 * maxFileBytes was lowered): ingesting its transcript again writes it as notes closed at 1 MB or maxFileBytes.
 * Null for any other warning.
 */
function oversizedSessionNoteFix(cfg: TsmConfig, w: { path: string; message: string }): string | null {
  if (!/^skipped: file too large\b/.test(w.message)) return null;
  let head: string;
  try {
    head = readRange(join(cfg.vault, w.path), 0, 4096).toString('utf8');
  } catch {
    return null;
  }
  const sessionId = sessionIdOfNote(head);
  if (sessionId === null) return null;
  const transcript = transcriptOfSession(ingestStateDir(cfg), sessionId);
  const what = transcript === null ? `its transcript (\`~/.claude/projects/…/${sessionId}.jsonl\`)` : `\`${transcript}\``;
  return `it is session ${sessionId}'s note, larger than tsm writes one now: run \`tsm ingest-session\` on ${what}, which writes it again as notes of at most 1 MB or maxFileBytes (…-2.md, …-3.md)`;
}

function fixFor(message: string): string {
  return fixOf(message)?.fix ?? 'see the message; edit the note, then run `tsm index`';
}

/** The fix for a link to `file`, which tsm skipped for `reason` (its warning). */
function linkedFileFix(file: string, reason: string): string {
  return `the link is right: ${fixOf(reason)?.linked?.(file) ?? `make ${file} a note tsm can read (its warning says how)`}`;
}

/** How far back hook.log lines count as recent, and how many of them doctor prints. */
const RECENT_LOG_DAYS = 7;
const LOG_LINES_SHOWN = 3;
/**
 * A hook.log line whose fix is a sync: the index missing, of another version, locked, or a session note
 * not indexed (IndexError's fixes, src/index/db.ts, and dispatch's "a background `tsm index` started").
 */
const FIXED_BY_SYNC = /`tsm index\b/;

/**
 * Hooks fail silently by design; their log is where a user learns why nothing was injected. A log is what
 * happened, not what is: a line whose fix is a sync, logged before the index's last sync (`lastSync`, when
 * the index opens now), is over and left out; "no index: run `tsm index`" was reported for a week after the
 * `tsm index` that fixed it. The rest are said with when they were seen, as things that may be fixed since.
 */
function hookLogChecks(cfg: TsmConfig, lastSync: number | null): Problem[] {
  const path = hookLogPath(cfg.vault);
  let text: string;
  try {
    // Opened as a plain file or not at all: a FIFO there blocked doctor for good (the hooks write no log there).
    text = readUtf8RegularFile(path);
  } catch (err) {
    if (!isNotRegular(err)) return [];
    // The hooks do not write there either (hook-log.ts): their problems go to stderr, which Claude Code does not show.
    const fix = `move ${path} aside; the hooks then make a new log (meanwhile their problems are not logged)`;
    return [{ check: 'hooks', severity: 'warning', message: notPlainFileError(path, "the hooks' log").message, fix }];
  }
  const now = Date.now();
  const since = now - RECENT_LOG_DAYS * 86_400_000;
  const timeOf = (line: string) => Date.parse(line.slice(0, line.indexOf(' ')));
  const logged = text.split('\n').filter((line) => {
    const t = timeOf(line);
    return line.trim() !== '' && (Number.isNaN(t) || t >= since) && !isSyncReport(line);
  });
  // Transcript lines a session hook skipped are what it did with a damaged transcript, not a hook failing: told
  // apart, as information (they were "hook problems" to fix, for a week, with nothing to fix).
  const skipped = logged.filter(isSkippedLinesReport);
  const recent = logged.filter((line) => !isSkippedLinesReport(line));
  const skippedInfo: Problem[] = skipped.length
    ? [
        {
          check: 'sessions',
          severity: 'info',
          message: `the session hooks skipped lines that are not JSON objects in ${count(skipped.length, 'transcript read', 'transcript reads')} in the last ${RECENT_LOG_DAYS} days (${path}):${DETAIL_BREAK}${skipped.slice(-LOG_LINES_SHOWN).map((l) => shownLogLine(l.trim())).join(DETAIL_BREAK)}`,
          fix: 'nothing to do: the rest of each transcript is in its note (a transcript cut short or damaged has such lines)',
        },
      ]
    : [];
  // A line's time is to the second: it counts as before the sync only when its whole second is.
  const over = (line: string) => lastSync !== null && FIXED_BY_SYNC.test(line) && timeOf(line) + 1000 <= lastSync;
  const current = recent.filter((line) => !over(line));
  if (current.length === 0) return skippedInfo;
  const shown = current.slice(-LOG_LINES_SHOWN);
  const part = current.length > shown.length ? ` (the last ${shown.length} of ${current.length})` : '';
  const fixedBySync = recent.length - current.length;
  const left = fixedBySync ? ` (and ${fixedBySync} the index's last sync fixed, left out)` : '';
  const last = timeOf(current[current.length - 1]);
  const seen = Number.isNaN(last) ? '' : `, the latest ${ago(now - last)}`;
  const needsIndex = shown.some((l) => FIXED_BY_SYNC.test(l));
  const one = current.length === 1;
  return [
    {
      check: 'hooks',
      severity: 'warning',
      message: `${current.length} hook problem${one ? '' : 's'} logged in the last ${RECENT_LOG_DAYS} days in ${path}${seen}${left}; from the log, not checked now: ${one ? 'it' : 'each'} may be fixed since${part}:${DETAIL_BREAK}${shown.map((l) => shownLogLine(l.trim())).join(DETAIL_BREAK)}`,
      fix: `${needsIndex ? 'run `tsm index` in the vault (or keep `tsm watch` running)' : 'each line names its cause'}; once fixed, delete ${path} to stop seeing ${one ? 'it' : 'them'} here`,
    },
    ...skippedInfo,
  ];
}

/** A time span as "N minutes ago" (hours, days): how long ago a log line was written. */
function ago(ms: number): string {
  const [n, unit] = ms < 3_600_000 ? [Math.floor(ms / 60_000), 'minute'] : ms < 86_400_000 ? [Math.floor(ms / 3_600_000), 'hour'] : [Math.floor(ms / 86_400_000), 'day'];
  return n < 1 ? 'just now' : `${count(n, unit)} ago`;
}

/** "… and N more": a list doctor cut short says so, with the full count. */
function more(what: string, total: number, shown: number): Problem[] {
  if (total <= shown) return [];
  return [{ check: what, severity: 'info', message: `… and ${total - shown} more ${what === 'links' ? 'unresolved links' : 'note warnings'} (${shown} of ${total} shown above${what === 'links' ? ', the notes changed last first' : ''})`, fix: 'fix those above and run `tsm doctor` again; `tsm status` has the totals' }];
}
