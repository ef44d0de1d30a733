// Ranking metrics over graded judgements: nDCG@k (gain 2^g − 1), MRR@k, Recall@k.

export type Judgements = Record<string, number>;

export function ndcgAt(ranked: string[], rel: Judgements, k: number): number {
  const dcg = ranked.slice(0, k).reduce((sum, p, i) => sum + gain(rel[p] ?? 0) / Math.log2(i + 2), 0);
  const ideal = Object.values(rel)
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + gain(g) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

export function mrrAt(ranked: string[], rel: Judgements, k: number): number {
  const i = ranked.slice(0, k).findIndex((p) => (rel[p] ?? 0) > 0);
  return i < 0 ? 0 : 1 / (i + 1);
}

export function recallAt(ranked: string[], rel: Judgements, k: number): number {
  const relevant = Object.keys(rel).filter((p) => rel[p] > 0);
  if (relevant.length === 0) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((p) => top.has(p)).length / relevant.length;
}

function gain(g: number): number {
  return Math.pow(2, g) - 1;
}

export function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}
