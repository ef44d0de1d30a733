// Scores per query → per-group summaries and paired comparisons of two runs (pure: unit-tested).
import { mean } from './metrics.js';

export interface QueryRow {
  query: string;
  kind: string;
  lang: string;
  ndcg10: number;
  mrr10: number;
  recall5: number;
  /** Share of the first five hits whose snippet shows a word of the query (metrics.ts shownAt). */
  shown5: number;
  /** The ranked paths (top 10), for --verbose and for reading differences. */
  top?: string[];
}

export interface Summary {
  n: number;
  ndcg10: number;
  mrr10: number;
  recall5: number;
  shown5: number;
}

/** The groups a set is reported by: all, each kind, each language. */
export function groups(rows: QueryRow[]): [string, QueryRow[]][] {
  const out: [string, QueryRow[]][] = [['all', rows]];
  for (const key of ['kind', 'lang'] as const) {
    for (const k of [...new Set(rows.map((r) => r[key]))].sort()) out.push([k, rows.filter((r) => r[key] === k)]);
  }
  return out;
}

export function summarize(rows: QueryRow[]): Summary {
  return {
    n: rows.length,
    ndcg10: mean(rows.map((r) => r.ndcg10)),
    mrr10: mean(rows.map((r) => r.mrr10)),
    recall5: mean(rows.map((r) => r.recall5)),
    shown5: mean(rows.map((r) => r.shown5)),
  };
}

export interface Paired {
  n: number;
  /** Mean of B − A per query. */
  mean: number;
  /** Standard error of that mean (sample SD / √n; 0 for n < 2). */
  se: number;
  wins: number;
  losses: number;
  ties: number;
}

/** The paired per-query difference B − A of nDCG@10; queries are matched by their text. */
export function pairedDiff(a: QueryRow[], b: QueryRow[]): Paired {
  const byQuery = new Map(a.map((r) => [r.query, r]));
  const d: number[] = [];
  for (const r of b) {
    const o = byQuery.get(r.query);
    if (o) d.push(r.ndcg10 - o.ndcg10);
  }
  const m = mean(d);
  const sd = d.length > 1 ? Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / (d.length - 1)) : 0;
  const eps = 1e-9;
  return {
    n: d.length,
    mean: m,
    se: d.length > 1 ? sd / Math.sqrt(d.length) : 0,
    wins: d.filter((x) => x > eps).length,
    losses: d.filter((x) => x < -eps).length,
    ties: d.filter((x) => Math.abs(x) <= eps).length,
  };
}

const f3 = (x: number) => x.toFixed(3);
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;

/** One set's scores, a line per group. */
export function formatRun(title: string, rows: QueryRow[]): string {
  const lines = [title, `  ${'group'.padEnd(11)}${'n'.padStart(4)}  nDCG@10  MRR@10  Recall@5  Shown@5`];
  for (const [g, rs] of groups(rows)) {
    const s = summarize(rs);
    lines.push(`  ${g.padEnd(11)}${String(s.n).padStart(4)}  ${f3(s.ndcg10).padStart(7)}  ${f3(s.mrr10).padStart(6)}  ${f3(s.recall5).padStart(8)}  ${f3(s.shown5).padStart(7)}`);
  }
  return lines.join('\n');
}

/** A set's two runs side by side per group, with the paired nDCG@10 difference B − A. */
export function formatCompare(title: string, a: QueryRow[], b: QueryRow[]): string {
  const lines = [
    title,
    `  ${'group'.padEnd(11)}${'n'.padStart(4)}  nDCG@10 A→B    MRR@10 A→B     Recall@5 A→B   ΔnDCG@10 (B−A) ± SE   W/L/T      Shown@5 A→B`,
  ];
  const bByQuery = new Map(b.map((r) => [r.query, r]));
  for (const [g, ra] of groups(a)) {
    const rb = ra.map((r) => bByQuery.get(r.query)).filter((r): r is QueryRow => r !== undefined);
    const sa = summarize(ra);
    const sb = summarize(rb);
    const p = pairedDiff(ra, rb);
    lines.push(
      `  ${g.padEnd(11)}${String(sa.n).padStart(4)}  ${f3(sa.ndcg10)}→${f3(sb.ndcg10)}  ${f3(sa.mrr10)}→${f3(sb.mrr10)}  ${f3(sa.recall5)}→${f3(sb.recall5)}   ${signed(p.mean)} ± ${f3(p.se)}       ${`${p.wins}/${p.losses}/${p.ties}`.padEnd(9)}  ${f3(sa.shown5)}→${f3(sb.shown5)}`,
    );
  }
  return lines.join('\n');
}
