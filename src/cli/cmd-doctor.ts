// tsm doctor: every check of the index and its wiring; each problem comes with its fix.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DoctorProblem as Problem } from '../core/types.js';
import { IndexError, openReader, type Database } from '../index/db.js';
import { NoteReader } from '../index/note-reader.js';
import { tsmDir, type TsmConfig } from '../vault/config.js';
import { scanVault } from '../vault/scan.js';
import { runningWatcher } from '../vault/watcher-pid.js';
import { configFrom, printJson } from './args.js';


export async function run(argv: Record<string, unknown>): Promise<void> {
  const cfg = configFrom(argv);
  const problems: Problem[] = [];
  let db: Database | null = null;
  try {
    db = openReader(cfg.db);
  } catch (err) {
    if (!(err instanceof IndexError)) throw err;
    problems.push({ check: 'index', severity: 'error', message: err.message, fix: 'run `tsm index`' });
  }
  if (db) {
    try {
      problems.push(...indexChecks(cfg, new NoteReader(db, cfg.db)));
    } finally {
      db.close();
    }
  }
  problems.push(...(await claudeChecks(cfg)));
  if (!runningWatcher(tsmDir(cfg))) {
    problems.push({
      check: 'watcher',
      severity: 'info',
      message: 'no `tsm watch` is running for this vault',
      fix: 'run `tsm watch` in the background to keep the index fresh (or `tsm index` after edits)',
    });
  }
  const errors = problems.filter((p) => p.severity === 'error').length;
  if (argv.json) {
    printJson({ vault: cfg.vault, db: cfg.db, ok: errors === 0, problems });
  } else if (problems.length === 0) {
    process.stdout.write('all checks passed\n');
  } else {
    for (const p of problems) process.stdout.write(`${p.severity.padEnd(7)} ${p.check}: ${p.message}\n        fix: ${p.fix}\n`);
  }
  if (errors) process.exitCode = 1;
}

function indexChecks(cfg: TsmConfig, reader: NoteReader): Problem[] {
  const problems: Problem[] = [];
  const bad = reader.integrityCheck();
  if (bad.length) {
    problems.push({
      check: 'integrity',
      severity: 'error',
      message: `the index fails SQLite's integrity check: ${bad.slice(0, 3).join('; ')}`,
      fix: 'run `tsm index --full` (if that fails, delete the index file and run `tsm index`)',
    });
  }
  const known = new Map(reader.fileStats().map((f) => [f.path, f]));
  const { files } = scanVault(cfg.vault, { extensions: cfg.extensions });
  let stale = 0;
  let added = 0;
  for (const f of files) {
    const k = known.get(f.path);
    if (!k) added++;
    else if (k.size !== f.size || k.mtimeMs !== Math.floor(f.mtimeMs)) stale++;
    known.delete(f.path);
  }
  const removed = known.size;
  if (stale + added + removed > 0) {
    problems.push({
      check: 'staleness',
      severity: 'warning',
      message: `the index is behind the vault: ${added} new, ${stale} changed, ${removed} deleted files`,
      fix: 'run `tsm index` (or keep `tsm watch` running)',
    });
  }
  for (const l of reader.unresolvedLinks(50)) {
    problems.push({
      check: 'links',
      severity: 'warning',
      message: `${l.sourcePath}${l.line ? `:${l.line}` : ''} links to "${l.target}", which is not in the vault`,
      fix: 'create that note, or correct the link',
    });
  }
  for (const w of reader.warnings(200)) {
    problems.push({ check: 'notes', severity: 'warning', message: `${w.path}: ${w.message}`, fix: fixFor(w.message) });
  }
  return problems;
}

function fixFor(message: string): string {
  if (/yaml|frontmatter/i.test(message)) return 'correct the YAML between the `---` lines';
  if (/utf-?8/i.test(message)) return 'save the file as UTF-8';
  if (/binary/i.test(message)) return 'rename it (not .md) or add it to .tsmignore';
  if (/large|size/i.test(message)) return 'split the file, raise maxFileBytes in .tsm/config.json, or add it to .tsmignore';
  if (/symlink/i.test(message)) return 'remove the looping symlink or add it to .tsmignore';
  return 'see the message; edit the note, then run `tsm index`';
}

async function claudeChecks(cfg: TsmConfig): Promise<Problem[]> {
  const setup = join(cfg.vault, '.claude');
  if (!existsSync(setup) || !statSync(setup).isDirectory()) return [];
  const { checkClaudeWiring } = await import('../hooks/claude-setup.js');
  return checkClaudeWiring(cfg.vault);
}
