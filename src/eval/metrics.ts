// Ranking metrics over graded judgements: nDCG@k (gain 2^g − 1), MRR@k, Recall@k; and one display measure,
// Shown@k: how many of the first k hits show a word of the query in their snippet.
import { normalize } from '../text/normalize.js';

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

/**
 * The strings a snippet is searched for: each Latin word of the query by its first five letters (a snippet
 * says `deploy` for `deployment`, `plugin` for `plugins`), each CJK bigram that is not all hiragana.
 */
export function queryProbes(words: readonly string[], cjkBigrams: readonly string[]): string[] {
  return [...new Set([...words.map((w) => w.slice(0, 5)), ...cjkBigrams.filter((b) => !/^[\u3040-\u309f]+$/.test(b))])];
}

/**
 * Share of the first k snippets that show one of the probes (queryProbes), as a reader of the hook's block
 * would see it; 0 for no hits. A display measure: the ranking is the same whatever it says. A snippet that
 * shows none (a plugin's badges, a footer of links) tells the reader nothing about why the note came up.
 */
export function shownAt(snippets: readonly string[], probes: readonly string[], k: number): number {
  const top = snippets.slice(0, k);
  if (top.length === 0 || probes.length === 0) return 0;
  return top.filter((s) => {
    const text = normalize(s);
    return probes.some((p) => text.includes(p));
  }).length / top.length;
}

function gain(g: number): number {
  return Math.pow(2, g) - 1;
}

export function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}
