// tsm index: bring the index in step with the vault and print what changed.
import { readFileSync } from 'node:fs';
import { syncVault } from '../index/sync.js';
import { configFrom, printJson } from './args.js';
import { progressBar } from './progress.js';

export async function run(argv: Record<string, unknown>): Promise<void> {
  const cfg = configFrom(argv, { cwdIsVault: true });
  const paths = argv['files-from-stdin'] ? readPathsFromStdin() : undefined;
  const bar = progressBar('indexing');
  const summary = await syncVault(cfg, {
    full: Boolean(argv.full),
    paths,
    onProgress: (done, total) => {
      if (total >= 50) bar.update(done, total);
    },
  });
  bar.end();
  if (argv.json) {
    printJson({ vault: cfg.vault, db: cfg.db, ...summary });
  } else {
    const s = summary;
    process.stdout.write(
      `${s.added} added, ${s.updated} updated, ${s.removed} removed, ${s.unchanged} unchanged, ${s.skipped} skipped` +
        ` in ${s.seconds.toFixed(2)} s${s.warnings ? ` (${s.warnings} warnings: tsm status)` : ''}\n`,
    );
  }
}

function readPathsFromStdin(): string[] {
  let text = '';
  try {
    text = readFileSync(0, 'utf8');
  } catch {
    return [];
  }
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}
