// Named ranking variants: switches of the ranking tuning that `npm run eval -- --compare base NAME` (or
// `--variant NAME`, or TSM_RANK_VARIANT for the eval) measures against the default. Not a user setting:
// a variant that wins on every judged set becomes the default, and its switch goes.
import type { Tuning } from './rank.js';

export const RANK_VARIANTS: Record<string, Partial<Tuning>> = {
  base: {},
  // Reproduce earlier defaults, to show what the current ones gained.
  'second-0.3': { secondSection: 0.3 },
  'head-vote': { rankerWeights: { head: 1 } },
  // Alternatives to measure.
  'no-head': { rankers: ['all-phrases', 'all-bigrams'] },
  'bigrams-only': { rankers: ['all-bigrams'] },
  'phrases-only': { rankers: ['all-phrases'] },
  'no-bigram-pruning': { bigramShare: 1 },
};

/** The tuning of `a+b+…` (later variants override earlier ones); throws on an unknown name. */
export function variantTuning(spec: string | undefined): Partial<Tuning> {
  if (!spec) return {};
  let out: Partial<Tuning> = {};
  for (const name of spec.split('+').filter(Boolean)) {
    const v = RANK_VARIANTS[name];
    if (!v) throw new Error(`unknown ranking variant "${name}" (known: ${Object.keys(RANK_VARIANTS).join(', ')})`);
    out = { ...out, ...v, rankerWeights: { ...out.rankerWeights, ...v.rankerWeights } };
  }
  return out;
}
