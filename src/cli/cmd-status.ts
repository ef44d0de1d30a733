// tsm status: what the index holds and how fresh it is.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { localDay, localTime } from '../core/days.js';
import { buildUnfinished, INCOMPLETE_INDEX_NOTE } from '../index/build-state.js';
import type { Database } from '../index/db.js';
import { withIndexReader } from '../index/open-reader.js';
import { NoteReader } from '../index/note-reader.js';
import { mtimeCrowd } from '../search/mtime-crowd.js';
import { TRAIN_DEFAULTS } from '../index/semantic/model.js';
import { semanticReport, tooSmallBecause } from '../index/semantic/refresh.js';
import { VectorStore } from '../index/vectors.js';
import { keptNotes, type KeptNote } from '../sessions/ingest.js';
import { ingestStateDir } from '../sessions/ingest-and-index.js';
import { tsmDir, type TsmConfig } from '../vault/config.js';
import { socketPath } from '../vault/embed-socket.js';
import { fingerprintModel } from '../embed/fingerprint.js';
import { runningWatcher } from '../vault/watcher-pid.js';
import { oneLine } from '../text/controls.js';
import { configFrom, printJson } from './args.js';
import { ALL_LINKS } from './doctor-links.js';
import { withIgnored } from '../index/ignored-links.js';
import { writeOut } from './stdio.js';
import { withTarget } from './fix-target.js';
import { count } from '../text/count.js';

/** How many note warnings `tsm doctor` lists (text and --json) before its "… and N more": status points there. */
export const DOCTOR_WARNINGS_SHOWN = 200;

export async function run(argv: Record<string, unknown>): Promise<void> {
  const cfg = configFrom(argv);
  const resident = await residentModel(cfg);
  withIndexReader(cfg.db, (db) => report(cfg, db, argv, resident), { tsmDir: tsmDir(cfg), vault: cfg.vault, checkWalFirst: true });
}

/**
 * The model of the resident process that answers query vectors for the vault (and embeds its sections), or
 * null: no socket file (one stat), or nothing answers on it. A resident that stood down for another model
 * (src/embed/query-embedder.ts standDown) answers no more; one that has not noticed yet answers with its own.
 */
async function residentModel(cfg: TsmConfig): Promise<string | null> {
  if (!existsSync(socketPath(cfg.vault))) return null;
  const { answeringModel } = await import('../embed/socket-client.js');
  return answeringModel(cfg.vault);
}

function report(cfg: TsmConfig, db: Database, argv: Record<string, unknown>, resident: string | null): void {
  const reader = new NoteReader(db, cfg.db);
  const s = reader.status();
  // Counted among the unresolved (no note holds them), but the file is there: doctor names it and why.
  const linksToSkippedFiles = reader.linksToSkippedFiles(cfg.extensions);
  // Counted among the unresolved too (the index has no note nor attachment for them), but the note or
  // attachment is there, left out by an ignore rule: doctor names them. A walk of the vault (index/ignored-links.ts), made only when other unresolved
  // links are left: on the Obsidian Hub (214 unresolved, nothing ignored) status took ~0.11 s before, ~0.16 s
  // now; with a third of its notes ignored (3,506 links to them) ~0.32 s (a loaded machine, load 3–5).
  const linksToIgnored =
    s.unresolvedLinks > linksToSkippedFiles ? withIgnored(reader.unresolvedLinks(ALL_LINKS, cfg.extensions), cfg.vault, cfg.extensions).filter((l) => l.ignored !== null).length : 0;
  const watcherPid = runningWatcher(tsmDir(cfg));
  const warnings = reader.warnings(20);
  const sem = semanticReport(db);
  const kept = keptNotes(ingestStateDir(cfg), cfg);
  const vectors = new VectorStore(db).heldModel();
  // Notes a clone or a copy dated all at once: a date in a query leaves them out (search/mtime-crowd.ts).
  const crowd = mtimeCrowd(reader);
  const datesCrowded = crowd ? { day: crowd.day, notes: crowd.notes } : null;
  // A first build under way or stopped: the counts below are of the notes written so far, every link among them
  // unresolved. Search and doctor said so; status showed half a vault as if it were the whole of it.
  const unfinished = buildUnfinished(db);
  if (argv.json) {
    // `sections` is the state's: the count the model was trained on (or found too small). Said plainly beside it:
    // that count, and the sections that have a vector now (a model of 400 sections on a vault grown to 450).
    const trainedOn = sem.state?.kind === 'trained' ? sem.state.sections : null;
    const semantic = {
      enabled: cfg.semantic,
      ...(sem.state ?? { kind: 'none' }),
      retrainDue: cfg.semantic && sem.retrainDue,
      sectionsTrainedOn: trainedOn,
      sectionsWithVector: sem.withVector,
    };
    const keptSessionNotes = kept.map((k) => ({ path: relative(cfg.vault, k.path), sessionId: k.sessionId, reason: k.reason, since: k.since }));
    printJson({ vault: cfg.vault, db: cfg.db, ...s, buildUnfinished: unfinished, linksToSkippedFiles, linksToIgnoredFiles: linksToIgnored, semantic, vectors, datesCrowded, keptSessionNotes, watcher: watcherPid ? { pid: watcherPid } : null, resident: residentJson(resident), warningList: warnings });
    return;
  }
  const lines = [
    `vault     ${oneLine(cfg.vault)}`,
    `index     ${oneLine(cfg.db)} (${formatBytes(s.indexBytes)}, schema ${s.schemaVersion})`,
    ...(unfinished ? [`build     ${INCOMPLETE_INDEX_NOTE}`] : []),
    `notes     ${s.notes} (daily ${s.byType.daily}, knowledge ${s.byType.knowledge}, session ${s.byType.session})`,
    ...(datesCrowded ? [`dates     ${datesCrowded.notes} notes are dated only by their files' time, ${datesCrowded.day}, all changed at once (a clone, a copy or a bulk edit): a date in a query leaves them out (give them \`created:\` to date them)`] : []),
    `sections  ${s.sections}`,
    `links     ${s.links} (${s.unresolvedLinks} unresolved${linksNote(linksToSkippedFiles, linksToIgnored)})`,
    `warnings  ${s.warnings}`,
    `semantic  ${cfg.semantic ? semanticLine(sem) : 'off ("semantic": true in .tsm/config.json turns it on; see docs/search.md)'}`,
    `vectors   ${vectorsLine(vectors, resident)}`,
    ...(kept.length ? [`sessions  ${keptLine(kept)}`] : []),
    `last sync ${s.lastSync ? shownTime(s.lastSync) : 'never'}`,
    `watcher   ${watcherPid ? `running (pid ${watcherPid})` : 'not running'}`,
  ];
  // Paths and messages come from file names: shown as search shows them (src/text/controls.ts).
  for (const w of warnings) lines.push(`  ! ${oneLine(w.path)}: ${oneLine(w.message)}`);
  if (s.warnings > warnings.length) {
    // "tsm doctor --json lists all" was not so past 200: doctor cuts its list there too.
    const where = s.warnings > DOCTOR_WARNINGS_SHOWN ? `the first ${DOCTOR_WARNINGS_SHOWN}` : 'all';
    lines.push(`  … ${s.warnings - warnings.length} more (\`tsm doctor\` lists ${where})`);
  }
  writeOut(withTarget(lines.join('\n')) + '\n');
}

/**
 * The model a resident (`tsm watch` or `tsm serve`) answers query vectors with, or null when none answers: its
 * name as the vectors line gives it, and its whole fingerprint, which equals `vectors.fingerprint` when it is
 * the index's model (only then does it embed the sections left). Before, only the text said so, and only with
 * sections left to embed.
 */
function residentJson(fingerprint: string | null): { model: string; fingerprint: string } | null {
  return fingerprint === null ? null : { model: fingerprintModel(fingerprint), fingerprint };
}

/** What the unresolved links of the links line are, when some name a file that is there: doctor says why. */
function linksNote(toSkipped: number, toIgnored: number): string {
  const parts = [
    ...(toSkipped ? [`${toSkipped} of them to files tsm skipped`] : []),
    ...(toIgnored ? [`${toIgnored} ${toSkipped ? '' : 'of them '}to files .gitignore or .tsmignore leave out`] : []),
  ];
  return parts.length ? `, ${parts.join(', ')}: \`tsm doctor\` says why` : '';
}

/** A stored UTC time (ISO) as the user reads it, in their zone (localTime); text that is no time, as it is. */
function shownTime(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? oneLine(iso) : localTime(t);
}

/** Session notes tsm no longer writes because their user edited or deleted them (src/sessions/ingest.ts). */
export function keptLine(kept: KeptNote[]): string {
  const edited = kept.filter((k) => k.reason === 'edited').length;
  return `${count(kept.length, 'session note')} left as you left ${kept.length === 1 ? 'it' : 'them'} (${edited} edited: later prompts go to a continuation note; ${kept.length - edited} deleted: not written again)`;
}

function semanticLine({ state, sections, unembedded, withVector, retrainDue }: ReturnType<typeof semanticReport>): string {
  const due = retrainDue ? '; retrain due (`tsm index` or a running `tsm watch` does it)' : '';
  // Counted now: the state keeps the count of the sync that found the vault too small (a growing vault read
  // "off: 15 sections" at 296), and a watcher started on an empty vault stores no state at all ("no model").
  const min = TRAIN_DEFAULTS.minSections;
  if (sections < min && state?.kind !== 'trained') return `off: ${sections === 1 ? '1 section is' : `${sections} sections are`} too few to learn from (${min} needed)${due}`;
  if (!state || (state.kind === 'too-small' && tooSmallBecause(state) === 'sections')) return `no model${due}`;
  if (state.kind === 'too-small') {
    // Counted now as well: the state's count is the sync's that last tried (400 read at 425).
    return `off: ${sections} sections, but too few words it learns from (kanji compounds, katakana and Latin words; docs/search.md, 2b)${due}`;
  }
  // "from N sections" read as the sections with vectors now; it is the count at training time.
  const noWord = sections - unembedded - withVector;
  const since = [
    `${state.embeddedSince} embedded since`,
    ...(noWord > 0 ? [`${noWord} with no word it knows`] : []),
    ...(unembedded > 0 ? [`${unembedded} not embedded yet: \`tsm index\` embeds them`] : []),
  ];
  return `${state.words} words × ${state.dims} dims, trained on ${state.sections} sections (${trainedDay(state.trainedAt)}); ${withVector} of ${sections} sections have a vector now (${since.join(', ')})${due}`;
}

/** The day of a training (stored as an ISO time in UTC) in the reader's zone, as a daily note names it. */
function trainedDay(iso: string): string {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso.slice(0, 10) : localDay(t);
}

/** The neural model's vectors in the index (docs/embeddings.md): which model, how far its embedding got. */
function vectorsLine(v: ReturnType<VectorStore['heldModel']>, resident: string | null): string {
  if (!v) return 'none (a neural model is opt-in: docs/embeddings.md; `tsm index --embed` or a resident process embeds)';
  const name = fingerprintModel(v.fingerprint);
  const left = v.sections - v.embedded;
  // Said of a resident only when one answers with this model: one on another model (loaded before the vault's
  // model changed) embeds nothing here, and "a running `tsm watch` does it" beside it waited forever.
  const who =
    resident === v.fingerprint
      ? ', or the running `tsm watch`/`tsm serve` does it'
      : resident !== null
        ? `; the running \`tsm watch\`/\`tsm serve\` has another model loaded (${fingerprintModel(resident)}): restart it to load the vault's model`
        : '';
  return `${v.embedded} of ${v.sections} sections embedded by ${name} (${v.dims} dims)${left ? `; ${left} to go: \`tsm index --embed\`${who}` : ''}`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
