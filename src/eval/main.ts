// npm run eval -- --vault DIR --qrels FILE [--json] [--verbose]
// Indexes the vault into a temporary index, runs every judged query through tsm's search and prints
// nDCG@10, MRR@10 and Recall@5 overall and by query kind and language.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openReader } from '../index/db.js';
import { syncVault } from '../index/sync.js';
import type { Tuning } from '../search/rank.js';
import { search } from '../search/search.js';
import { loadConfig } from '../vault/config.js';
import { mean, mrrAt, ndcgAt, recallAt, type Judgements } from './metrics.js';

interface Judged {
  query: string;
  relevant: Judgements;
  kind?: string;
  lang?: string;
}

const { values } = parseArgs({
  options: {
    vault: { type: 'string' },
    qrels: { type: 'string' },
    db: { type: 'string' },
    json: { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    now: { type: 'string' },
    tune: { type: 'string' },
  },
});
if (!values.vault || !values.qrels) {
  process.stderr.write('usage: npm run eval -- --vault DIR --qrels FILE [--db FILE] [--json] [--verbose] [--now YYYY-MM-DD]\n');
  process.exit(1);
}

const judged = JSON.parse(readFileSync(values.qrels, 'utf8')) as Judged[];
// --tune '{"rankers":["words","bigrams"]}' tries ranking settings without editing code.
const tune = values.tune ? (JSON.parse(values.tune) as Partial<Tuning>) : {};
const tmp = values.db ? null : mkdtempSync(join(tmpdir(), 'tsm-eval-'));
const cfg = loadConfig({ vaultFlag: values.vault, dbFlag: values.db ?? join(tmp as string, 'index.db') });
try {
  const summary = await syncVault(cfg);
  process.stderr.write(`eval: indexed ${summary.added + summary.updated + summary.unchanged} notes in ${summary.seconds} s\n`);
  const db = openReader(cfg.db);
  const now = values.now ? new Date(`${values.now}T12:00:00`) : new Date();
  const rows = judged.map((j) => {
    const resp = search(db, { query: j.query, limit: 10, now, tuning: { halfLifeDays: cfg.halfLifeDays, ...tune } });
    const ranked = resp.hits.map((h) => h.path);
    const row = {
      query: j.query,
      kind: j.kind ?? 'all',
      lang: j.lang ?? 'all',
      ndcg10: ndcgAt(ranked, j.relevant, 10),
      mrr10: mrrAt(ranked, j.relevant, 10),
      recall5: recallAt(ranked, j.relevant, 5),
    };
    if (values.verbose) {
      process.stderr.write(`${row.ndcg10.toFixed(2)}  ${j.query.slice(0, 60)}\n`);
      for (const p of ranked.slice(0, 5)) process.stderr.write(`      ${j.relevant[p] ? `[${j.relevant[p]}]` : '   '} ${p}\n`);
    }
    return row;
  });
  db.close();
  const agg = (rs: typeof rows) => ({
    n: rs.length,
    ndcg10: round(mean(rs.map((r) => r.ndcg10))),
    mrr10: round(mean(rs.map((r) => r.mrr10))),
    recall5: round(mean(rs.map((r) => r.recall5))),
  });
  const groups = (key: 'kind' | 'lang') =>
    Object.fromEntries([...new Set(rows.map((r) => r[key]))].sort().map((k) => [k, agg(rows.filter((r) => r[key] === k))]));
  const result = { qrels: values.qrels, ...agg(rows), byKind: groups('kind'), byLang: groups('lang') };
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    process.stdout.write(`queries ${result.n}  nDCG@10 ${result.ndcg10}  MRR@10 ${result.mrr10}  Recall@5 ${result.recall5}\n`);
    for (const [k, v] of Object.entries({ ...result.byKind, ...result.byLang })) {
      process.stdout.write(`  ${k.padEnd(10)} n=${String(v.n).padEnd(3)} nDCG@10 ${v.ndcg10}  MRR@10 ${v.mrr10}  Recall@5 ${v.recall5}\n`);
    }
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
} finally {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
