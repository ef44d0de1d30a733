// tsm status: what the index holds and how fresh it is.
import type { Database } from '../index/db.js';
import { withIndexReader } from '../index/open-reader.js';
import { NoteReader } from '../index/note-reader.js';
import { semanticStatus } from '../index/semantic/refresh.js';
import { tsmDir, type TsmConfig } from '../vault/config.js';
import { runningWatcher } from '../vault/watcher-pid.js';
import { configFrom, printJson } from './args.js';

export function run(argv: Record<string, unknown>): void {
  const cfg = configFrom(argv);
  withIndexReader(cfg.db, (db) => report(cfg, db, argv));
}

function report(cfg: TsmConfig, db: Database, argv: Record<string, unknown>): void {
  const reader = new NoteReader(db, cfg.db);
  const s = reader.status();
  const watcherPid = runningWatcher(tsmDir(cfg));
  const warnings = reader.warnings(20);
  const sem = semanticStatus(db);
  if (argv.json) {
    const semantic = { ...(sem.state ?? { kind: 'none' }), retrainDue: sem.retrainDue };
    printJson({ vault: cfg.vault, db: cfg.db, ...s, semantic, watcher: watcherPid ? { pid: watcherPid } : null, warningList: warnings });
    return;
  }
  const lines = [
    `vault     ${cfg.vault}`,
    `index     ${cfg.db} (${formatBytes(s.indexBytes)}, schema ${s.schemaVersion})`,
    `notes     ${s.notes} (daily ${s.byType.daily}, knowledge ${s.byType.knowledge}, session ${s.byType.session})`,
    `sections  ${s.sections}`,
    `links     ${s.links} (${s.unresolvedLinks} unresolved)`,
    `warnings  ${s.warnings}`,
    `semantic  ${semanticLine(sem)}`,
    `last sync ${s.lastSync ?? 'never'}`,
    `watcher   ${watcherPid ? `running (pid ${watcherPid})` : 'not running'}`,
  ];
  for (const w of warnings) lines.push(`  ! ${w.path}: ${w.message}`);
  if (s.warnings > warnings.length) lines.push(`  … ${s.warnings - warnings.length} more (tsm doctor --json lists all)`);
  process.stdout.write(lines.join('\n') + '\n');
}

function semanticLine({ state, retrainDue }: ReturnType<typeof semanticStatus>): string {
  const due = retrainDue ? '; retrain due (`tsm index` or a running `tsm watch` does it)' : '';
  if (!state) return `no model${due}`;
  if (state.kind === 'too-small') return `off: ${state.sections} sections are too few to learn from${due}`;
  return `${state.words} words × ${state.dims} dims from ${state.sections} sections (${state.trainedAt.slice(0, 10)}), ${state.embeddedSince} sections embedded since${due}`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
