// tsm index: bring the index in step with the vault and print what changed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmbedSummary } from '../index/embed-job.js';
import { syncVault } from '../index/sync.js';
import type { TsmConfig } from '../vault/config.js';
import { configFrom, printJson } from './args.js';
import { progressBar } from './progress.js';
import { UsageError, UserError } from './run.js';
import { writeErr, writeOut } from './stdio.js';

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
  if (!argv.json) {
    const s = summary;
    writeOut(
      `${s.added} added, ${s.updated} updated, ${s.removed} removed, ${s.unchanged} unchanged, ${s.skipped} skipped` +
        ` in ${s.seconds.toFixed(2)} s${s.warnings ? ` (${s.warnings} warnings: tsm status)` : ''}\n`,
    );
  }
  const embedded = argv.embed ? await embed(cfg, threadsOf(argv.threads)) : undefined;
  if (argv.json) printJson({ vault: cfg.vault, db: cfg.db, ...summary, ...(embedded ? { embedding: embedded } : {}) });
}

/**
 * `--embed`: after the sync, gives every section lacking a vector of the vault's model its vectors
 * (src/index/embed-job.ts): resumable (committed every few dozen sections), one thread unless --threads.
 */
async function embed(cfg: TsmConfig, threads: number): Promise<EmbedSummary> {
  const { loadVaultEmbedder } = await import('../embed/query-embedder.js');
  const embedder = await loadVaultEmbedder(cfg, { threads });
  if (!embedder) {
    throw new UserError(
      `--embed needs a model: run \`tsm model pull\` (the model named by "model", ${cfg.model}), or set "modelDir" in ` +
        `${join(cfg.vault, '.tsm', 'config.json')} to a model folder of your own (docs/embeddings.md)`,
    );
  }
  const { openWriter } = await import('../index/db.js');
  const { embedPending } = await import('../index/embed-job.js');
  const { db } = openWriter(cfg.db, { vault: cfg.vault });
  const bar = progressBar('embedding');
  try {
    const s = await embedPending(db, embedder, { onProgress: (done, total) => bar.update(done, total) });
    bar.end();
    // On a TTY the bar showed the way; elsewhere (a log, a CI job) this one line is the whole report.
    writeErr(
      `embedded ${s.embedded} section${s.embedded === 1 ? '' : 's'} in ${s.seconds.toFixed(2)} s; ${s.withVectors} of ${s.total} have vectors` +
        `${s.remaining ? ` (${s.remaining} left: run \`tsm index --embed\` again)` : ''}\n` +
        (s.failed ? `the model failed on ${s.failed} section${s.failed === 1 ? '' : 's'}: ${s.firstError}\n` : ''),
    );
    return s;
  } finally {
    bar.end();
    db.close();
    await embedder.close();
  }
}

function threadsOf(value: unknown): number {
  const n = value === undefined ? 1 : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`--threads takes a whole number from 1 to 64 (got ${String(value)})`);
  return n;
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
