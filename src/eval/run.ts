// One judged set through this build's index and search: per-query scores.
import { openReader, openWriter } from '../index/db.js';
import { semanticStatus, trainAndStore } from '../index/semantic/refresh.js';
import { syncVault } from '../index/sync.js';
import { DEFAULT_TUNING, type Tuning } from '../search/rank.js';
import { search } from '../search/search.js';
import { loadConfig } from '../vault/config.js';
import { mrrAt, ndcgAt, queryProbes, recallAt, shownAt } from './metrics.js';
import { queryTerms } from '../search/query-terms.js';
import type { QueryRow } from './report.js';
import type { NeuralEval } from './neural.js';
import type { JudgedQuery } from './sets.js';

export interface RunOptions {
  vault: string;
  /** The index file: built or brought up to date by the same sync as `tsm index`, kept for the next run. */
  db: string;
  /** YYYY-MM-DD; the queries are asked at noon, local time, of that day. */
  now?: string;
  tuning: Partial<Tuning>;
  /** With `--model`: the index gets the model's vectors, and each query its vector (src/eval/neural.ts). */
  neural?: NeuralEval;
}

export async function runQueries(queries: JudgedQuery[], o: RunOptions): Promise<QueryRow[]> {
  const cfg = loadConfig({ vaultFlag: o.vault, dbFlag: o.db });
  const summary = await syncVault(cfg);
  if (summary.added + summary.updated > 0) process.stderr.write(`eval: indexed ${summary.added + summary.updated} notes of ${o.vault} in ${summary.seconds} s\n`);
  // The semantic ranker needs a trained model. A judged vault has no config: the sync trains it where the
  // default turns it on; a side that asks for the ranker anyway (a variant with the default off, as
  // before) gets it trained here, else it would rank exactly as the base (the ranker a no-op).
  const t = { ...DEFAULT_TUNING, ...o.tuning };
  if ((t.semanticWeight ?? 0) > 0 || (t.semanticNoteWeight ?? 0) > 0) ensureSemanticModel(cfg.db);
  if (o.neural) await o.neural.embedIndex(cfg.db);
  const vectors = o.neural ? await Promise.all(queries.map((j) => (o.neural as NeuralEval).queryVector(j.query, cfg.db))) : null;
  const db = openReader(cfg.db);
  try {
    const now = o.now ? new Date(`${o.now}T12:00:00`) : new Date();
    return queries.map((j, i) => {
      // Not tuningOf(cfg): --compare builds this harness against older revisions, which lack it.
      const resp = search(db, {
        query: j.query,
        limit: 10,
        now,
        tuning: { halfLifeDays: cfg.halfLifeDays, ...o.tuning },
        ...(vectors ? { queryVector: vectors[i] } : {}),
      });
      const ranked = resp.hits.map((h) => h.path);
      const terms = queryTerms(j.query);
      return {
        query: j.query,
        kind: j.kind ?? 'all',
        lang: j.lang ?? 'all',
        ndcg10: ndcgAt(ranked, j.relevant, 10),
        mrr10: mrrAt(ranked, j.relevant, 10),
        recall5: recallAt(ranked, j.relevant, 5),
        shown5: shownAt(
          resp.hits.map((h) => h.snippet),
          queryProbes(terms.words, terms.cjk),
          5,
        ),
        top: ranked,
      };
    });
  } finally {
    db.close();
  }
}

/** Trains the semantic model into the cached index once (a later sync keeps it), unless the vault is too small. */
function ensureSemanticModel(path: string): void {
  const { db } = openWriter(path);
  try {
    const { state } = semanticStatus(db);
    if (state) return;
    const started = performance.now();
    trainAndStore(db);
    const seconds = Math.round(performance.now() - started) / 1000;
    const trained = semanticStatus(db).state?.kind === 'trained';
    process.stderr.write(`eval: semantic model of ${path}: ${trained ? `trained in ${seconds} s` : 'too few sections to learn from'}\n`);
  } finally {
    db.close();
  }
}
