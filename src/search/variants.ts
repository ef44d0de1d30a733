// Named ranking variants: switches of the ranking tuning that `npm run eval -- --compare base NAME` (or
// `--variant NAME`, or TSM_RANK_VARIANT for the eval) measures against the default. Not a user setting:
// a variant that wins on every judged set becomes the default, and its switch goes.
import { DEFAULT_TUNING, type Tuning } from './rank.js';

export const RANK_VARIANTS: Record<string, Partial<Tuning>> = {
  base: {},
  // Reproduce earlier defaults, to show what the current ones gained.
  'second-0.3': { secondSection: 0.3 },
  'head-vote': { rankerWeights: { head: 1 } },
  // Every dated note decays, knowledge notes too (until 2026-11-28: docs/search.md, "Recency where time is asked").
  'recency-all': { recencyScope: 'all' },
  // Alternatives to measure.
  'no-head': { rankers: ['all-phrases', 'all-bigrams'] },
  'bigrams-only': { rankers: ['all-bigrams'] },
  'phrases-only': { rankers: ['all-phrases'] },
  'no-bigram-pruning': { bigramShare: 1 },
  'no-second': { secondSection: 0 },
  'recency-asked-all': { recencyScope: 'asked-all' },
  'head-refine': { headMode: 'refine' },
  'head-0.5': { rankerWeights: { head: 0.5 } },
  'head-0.3': { rankerWeights: { head: 0.3 } },
  'headcol-1': { headColumnWeight: 1 },
  'headcol-0.75': { headColumnWeight: 0.75 },
  'keep-hiragana': { cutter: { ...DEFAULT_TUNING.cutter, dropHiragana: false } },
  'no-trim': { cutter: { ...DEFAULT_TUNING.cutter, trimTails: false } },
  'no-split': { cutter: { ...DEFAULT_TUNING.cutter, splitScripts: false } },
  'k-20': { rrfK: 20 },
  'k-10': { rrfK: 10 },
  'k-30': { rrfK: 30 },
  'name-only': { noteWeights: [1, 0] },
  'fname-0': { fileNameBoost: 0 },
  'title-0': { titleMatchBoost: 0 },
  'title-0.2': { titleMatchBoost: 0.2 },
  'named-30': { titleMatchDepth: 30, titleMatchFirst: false },
  'fname-0.2': { fileNameBoost: 0.2 },
  'fname-0.05': { fileNameBoost: 0.05 },
  'second-0.15': { secondSection: 0.15 },
  'second-0.5': { secondSection: 0.5 },
  'bigram-w0.5': { rankerWeights: { 'all-bigrams': 0.5 } },
  'bigram-w1.5': { rankerWeights: { 'all-bigrams': 1.5 } },
  'head-1.5': { rankerWeights: { head: 1.5 } },
  'bigram-w2': { rankerWeights: { 'all-bigrams': 2 } },
  'phrase-w1.5': { rankerWeights: { 'all-phrases': 1.5 } },
  'recency-0.9': { recencyFloor: 0.9 },
  'common-0.1': { commonTermShare: 0.1 },
  'keep-common-2': { keepCommonUpTo: 2 },
  'keep-common-4': { keepCommonUpTo: 4 },
  // How deep each ranker's list is (300 by default).
  'depth-200': { rankerDepth: 200 },
  'depth-150': { rankerDepth: 150 },
  'depth-100': { rankerDepth: 100 },
  // The semantic ranker (src/search/semantic.ts), on by default at weight 1 over the best 100: off, and
  // other weights and depths.
  'semantic-off': { semanticWeight: 0, semanticNoteWeight: 0 },
  // The note-level semantic list (on by default at weight 1 over the first 100 notes): off, other weights and depths.
  'semnote-off': { semanticNoteWeight: 0 },
  'range-filter': { textRangeMode: 'filter' },
  'semnote-0.5': { semanticNoteWeight: 0.5 },
  'semnote-1.5': { semanticNoteWeight: 1.5 },
  'semnote-d50': { semanticNoteDepth: 50 },
  'semnote-d300': { semanticNoteDepth: 300 },
  'semantic-0.5-d100': { semanticWeight: 0.5, semanticDepth: 100 },
  'semantic-1.5-d100': { semanticWeight: 1.5, semanticDepth: 100 },
  'semantic-0.3': { semanticWeight: 0.3, semanticDepth: 30 },
  'semantic-0.3-d20': { semanticWeight: 0.3, semanticDepth: 20 },
  'semantic-0.3-d50': { semanticWeight: 0.3, semanticDepth: 50 },
  'semantic-0.3-d100': { semanticWeight: 0.3, semanticDepth: 100 },
  'semantic-0.3-dall': { semanticWeight: 0.3, semanticDepth: 1000 },
  'semantic-0.5-d50': { semanticWeight: 0.5, semanticDepth: 50 },
  'semantic-0.5-dall': { semanticWeight: 0.5, semanticDepth: 1000 },
  'semantic-1-dall': { semanticWeight: 1, semanticDepth: 1000 },
  'semantic-1-d100': { semanticWeight: 1, semanticDepth: 100 },
  'semantic-1-d300': { semanticWeight: 1, semanticDepth: 300 },
  'semantic-0.5-d300': { semanticWeight: 0.5, semanticDepth: 300 },
  // The "on" setting plus the vault's nearest sections by cosine (which may add sections) at a low weight.
  'semantic-add-0.2': { semanticWeight: 1, semanticDepth: 100, semanticAddWeight: 0.2 },
  'semantic-add-0.5': { semanticWeight: 1, semanticDepth: 100, semanticAddWeight: 0.5 },
  // The neural ranker (issue 17): acts only with a query vector (`npm run eval -- --model DIR`).
  'neural-off': { neuralWeight: 0, neuralAddWeight: 0 },
  'neural-0.5': { neuralWeight: 0.5 },
  'neural-1': { neuralWeight: 1 },
  'neural-d50': { neuralDepth: 50 },
  // Added notes: the default is 'listed' (a resident's list, which the eval's query vectors carry).
  'neural-reorder': { neuralAdds: 'never' },
  'neural-add-0.3': { neuralAdds: 'always', neuralAddWeight: 0.3 },
  'neural-add-1': { neuralAdds: 'always', neuralAddWeight: 1 },
  'neural-add-2': { neuralAdds: 'always', neuralAddWeight: 2 },
  'common-0.5': { commonTermShare: 0.5 },
  'recency-0.97': { recencyFloor: 0.97 },
  'recency-off': { halfLifeDays: { daily: 0, knowledge: 0, session: 0 } },
  'notew-0.5': { noteWeights: [1, 0.5] },
  // The "plain single-ranker baseline": words + bigrams with the heading path at 0.5, a note by its
  // best section, no note-level ranker, no multipliers but the status penalty, no learned ranker.
  plain: {
    fusion: 'rrf',
    rankers: ['all-bigrams'], secondSection: 0, semanticWeight: 0, semanticNoteWeight: 0, fileNameBoost: 0, titleMatchBoost: 0,
    halfLifeDays: { daily: 0, knowledge: 0, session: 0 },
  },
  'plain-hc1': {
    fusion: 'rrf',
    rankers: ['all-bigrams'], secondSection: 0, semanticWeight: 0, semanticNoteWeight: 0, fileNameBoost: 0, titleMatchBoost: 0,
    halfLifeDays: { daily: 0, knowledge: 0, session: 0 }, headColumnWeight: 1,
  },
  'split-add': { compoundSplit: 'add' },
  'split': { compoundSplit: 'replace' },
  // Fusion by rank (RRF, the default until 2026-11-26) and by BM25 scores relative to the list's last row.
  rrf: { fusion: 'rrf' },
  'no-join': { cutter: { ...DEFAULT_TUNING.cutter, joinPairs: false } },
  'fuse-minmax': { fusion: 'minmax' },
  'semantic-0.5': { semanticWeight: 0.5 },
  'semantic-1.5': { semanticWeight: 1.5 },
  'semantic-by-cos': { semanticFusion: 'best' },
  'semantic-by-cos-minmax': { semanticFusion: 'minmax' },
  // Link evidence (on by default at 0.1 from the first 10 notes, note-wide, shared ÷ √targets).
  'links-off': { linkWeight: 0 },
  'links-0.2': { linkWeight: 0.2 },
  'links-0.05': { linkWeight: 0.05 },
  'links-0.15': { linkWeight: 0.15 },
  'links-norm0.75': { linkNorm: 0.75 },
  'links-0.3': { linkWeight: 0.3 },
  'links-0.5': { linkWeight: 0.5 },
  'links-s-0.3': { linkWeight: 0.3, linkScope: 'section' },
  'links-d5': { linkDepth: 5 },
  'links-d20': { linkDepth: 20 },
  'links-norm1': { linkNorm: 1 },
  'links-norm0.25': { linkNorm: 0.25 },
  'plain-cutter': { cutter: { dropHiragana: false, trimTails: false, splitScripts: false, joinPairs: false } },
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
