// Fusion and the multipliers: ranked lists fused by score or place, recency decay per note type, status penalty.
import type { NoteType } from '../core/types.js';
import { DEFAULT_EXTENSIONS, DEFAULT_HALF_LIVES, type TsmConfig } from '../vault/config.js';
import { withoutNoteExtension } from '../vault/paths.js';
import { isStale, recencyFactor } from './recency.js';
import { searchText } from '../text/normalize.js';
import { letterOrNumberRuns } from '../text/unicode.js';
import { ageInDays } from './dates.js';
import { DEFAULT_CUTS, type CutterOptions } from './query-terms.js';
import type { RankerName } from './rankers.js';

export const RRF_K = 60;

/**
 * How ranked lists are fused. `rrf`: by place, 1 / (k + rank) — nearly flat (rank 1 → 1/61, rank 5 →
 * 1/65), so a section far ahead on BM25 counts hardly more than the next one. `best` (the default): by
 * BM25 score relative to the list's first row, s / s₁; `minmax`: (s − s_last) / (s₁ − s_last). Both scaled by
 * 1 / (k + 1), so a list's first row counts what it does under RRF, and the lists stay comparable with
 * the ones fused by place (semantic, neural) and with the note-level credit.
 */
export type Fusion = 'rrf' | 'best' | 'minmax';

/** What each row of a ranked list (best first; `scores` higher is better) adds to the fusion. */
export function listCredits(scores: readonly number[], fusion: Fusion, k: number): number[] {
  const first = scores[0];
  const last = scores[scores.length - 1];
  return scores.map((s, i) => {
    if (fusion === 'rrf') return 1 / (k + i + 1);
    const rel = fusion === 'best' ? (first > 0 ? s / first : 1) : first === last ? 1 : (s - last) / (first - last);
    return rel / (k + 1);
  });
}

/** Σ weight × credit over the lists (listCredits); without scores, or with fusion `rrf`, Reciprocal Rank Fusion. */
export function fuse(lists: { ids: number[]; scores?: number[]; weight?: number }[], k = RRF_K, fusion: Fusion = 'rrf'): Map<number, number> {
  const out = new Map<number, number>();
  for (const list of lists) {
    const w = list.weight ?? 1;
    const credits = listCredits(list.scores ?? list.ids.map(() => 0), list.scores ? fusion : 'rrf', k);
    list.ids.forEach((id, i) => out.set(id, (out.get(id) ?? 0) + w * credits[i]));
  }
  return out;
}

export interface Tuning {
  /** Days for the decay to halve, per type; 0 = no decay. */
  halfLifeDays: Record<NoteType, number>;
  /** Share of the score an old note keeps however old it is: recency reorders, never hides. */
  recencyFloor: number;
  /** Multiplier for archived/outdated/superseded/deprecated notes. */
  stalePenalty: number;
  /** The rankers fused (src/search/rankers.ts). */
  rankers: readonly RankerName[];
  /** Share of a note's second-best section score added to its best (0 = the best section alone). */
  secondSection: number;
  /** A query term held by more than this share of sections is too common to drive ranking (dropped). */
  commonTermShare: number;
  /** Queries of at most this many words and CJK pieces keep their common terms too (0: every query prunes). */
  keepCommonUpTo: number;
  /** The same, for the terms of the bigram rankers (which match on any one shared bigram). */
  bigramShare: number;
  /** Fusion weight per ranker (default 1). */
  rankerWeights: Partial<Record<RankerName, number>>;
  /**
   * RRF weight of the semantic ranker (src/search/semantic.ts), which reorders the sections found; 0 = off.
   * It acts only where the index holds a model (a vault with `"semantic": true`, the default, of ≥ 300
   * sections); elsewhere it costs one read of the model's state.
   */
  semanticWeight: number;
  /** Sections of the lexical fusion, best first, that the semantic ranker reorders. */
  semanticDepth: number;
  /**
   * RRF weight of the semantic note list (search.ts addSemanticNotes): the first `semanticNoteDepth` notes
   * reordered by the cosine of the query with each note's vector; 0 = off. Acts only where the index holds
   * a model, as the semantic ranker does.
   */
  semanticNoteWeight: number;
  semanticNoteDepth: number;
  /**
   * RRF weight of a second semantic list: the vault's sections most like the query by cosine (every
   * vector read), which may bring sections no lexical ranker found; 0 = off. Measured only.
   */
  semanticAddWeight: number;
  /**
   * A date range read from the query's text: its notes first, then the rest of the vault when they do not
   * fill the page ('first', the default), or only its notes ('filter', as before 2026-11-27; still the rest
   * when none of them matches).
   */
  textRangeMode: 'first' | 'filter';
  /**
   * RRF weight of the neural ranker (issue 17): the cosine of the query's vector (SearchRequest.queryVector,
   * made by a resident model) with the sections' stored vectors. Acts only when a query vector is given,
   * which only happens with a model configured; 0 = off. Not measured here (no real model can be
   * downloaded on our machines): 0.3 and reorder-only are what helped the PPMI ranker (docs/search.md).
   */
  neuralWeight: number;
  /** Sections of the lexical fusion, best first, that the neural ranker reorders (when it adds none). */
  neuralDepth: number;
  /**
   * Whether the neural ranker may add notes the lexical rankers did not find: its list is then the best
   * notes of the whole vault by cosine (NEAREST_NOTES, each by its best section), not a reordering of the
   * top `neuralDepth`. 'listed': when the query vector lists them (QueryVector.nearest, made by a resident
   * process from its copy of the vectors in memory, for this index), else a reordering; 'always': read every
   * vector from the index when the vector lists none (0.1–0.4 s a search: measuring only); 'never'.
   */
  neuralAdds: 'never' | 'listed' | 'always';
  /** RRF weight of the neural list when it adds notes (neuralWeight when it reorders); 0 = the neural ranker only reorders. */
  neuralAddWeight: number;
  /** Weight of the head columns (heading path, title, aliases, path words) in the section rankers; body is 1. */
  headColumnWeight: number;
  /**
   * Where recency multiplies the score: 'all' notes with a date, or only where time was 'asked' for —
   * daily and session notes always, knowledge notes when the query has a temporal expression or a date filter
   * — or 'asked-all': any note only then.
   */
  recencyScope: 'all' | 'asked' | 'asked-all';
  /**
   * Note-level (title/headings) evidence: a 'vote' adds its RRF share to any note it lists, and lists notes the
   * section rankers did not find; 'refine' only adds to notes the section rankers found.
   */
  headMode: 'vote' | 'refine';
  /** Query cutting switches (src/search/query-terms.ts). */
  cutter: CutterOptions;
  /**
   * RRF's k: under `rrf`, smaller gives the first ranks of each list more weight over the later ones; under
   * score fusion only the scale (a list's first row counts 1 / (k + 1), as the semantic list's first does).
   */
  rrfK: number;
  /** Weights of the note-level ranker's name (title, aliases, tags, path) and headings columns. */
  noteWeights: [number, number];
  /**
   * File-name refinement: a note's score × (1 + fileNameBoost × share of the query's words in its file
   * name). 0 = off.
   */
  fileNameBoost: number;
  /** The vault's note extensions (config.json's `extensions`): a file name's words are read without them. */
  noteExtensions: readonly string[];
  /**
   * Compound CJK pieces cut into the vault's words (semantic.ts compoundWords): 'add' their words as more
   * phrases beside the piece, 'replace' the piece (and its bigrams) by its words' — no bigram across a
   * word boundary (`経費精算`'s `費精`); 'off' leaves pieces whole.
   */
  compoundSplit: 'off' | 'add' | 'replace';
  /** How the lexical lists are fused: by their BM25 scores relative to their best, or by place (listCredits). */
  fusion: Fusion;
  /** How the semantic ranker's list is fused: by place, or by cosine relative to the best candidate's. */
  semanticFusion: Fusion;
  /**
   * A note whose title or an alias is the whole query: its score × (1 + titleMatchBoost), and with
   * `titleMatchFirst` at least just above the first note's. 0 = off.
   */
  titleMatchBoost: number;
  /** How deep the named-note check reads the ranked notes (0: all of them). */
  titleMatchDepth: number;
  titleMatchFirst: boolean;
  /**
   * Link evidence: each of the first `linkDepth` notes passes `linkWeight` × its score, shared among the
   * notes it links to (÷ their count ^ `linkNorm`), from the whole note or only its best section
   * (`linkScope`); it reorders the notes found, and adds none. 0 = off.
   */
  linkWeight: number;
  linkDepth: number;
  linkNorm: number;
  linkScope: 'note' | 'section';
  /** Sections (or notes, for the note-level ranker) each ranker hands to fusion. */
  rankerDepth: number;
}

export const DEFAULT_TUNING: Tuning = {
  halfLifeDays: DEFAULT_HALF_LIVES,
  recencyFloor: 0.7,
  stalePenalty: 0.6,
  rankers: ['all-phrases', 'all-bigrams', 'head'],
  rankerWeights: {},
  secondSection: 0.3,
  commonTermShare: 0.25,
  keepCommonUpTo: 0,
  bigramShare: 0.1,
  // Weight 1 over the best 100 sections: Obsidian Hub +0.042 ± 0.016 nDCG@10 (20 wins, 5 losses),
  // handbook +0.007 ± 0.013 (21/15); 0.3 over 20 moved neither (−0.002, +0.007); over the best 300, or
  // adding the vault's nearest sections, the handbook lost (docs/search.md 2b).
  semanticWeight: 1,
  semanticDepth: 100,
  // The note list at weight 1 over the first 100 notes: +0.012 ± 0.004 nDCG@10 over 219 judged queries
  // (68 wins, 28 losses; prompts +0.013 to +0.051), and +0.012 ± 0.005 on the 144 sealed ones, no sealed
  // set lower; handbook held-out −0.004 ± 0.010 (docs/search.md 2b).
  semanticNoteWeight: 1,
  semanticNoteDepth: 100,
  semanticAddWeight: 0,
  textRangeMode: 'first',
  neuralWeight: 0.3,
  neuralDepth: 30,
  neuralAdds: 'listed',
  neuralAddWeight: 1,
  headColumnWeight: 0.5,
  recencyScope: 'asked',
  headMode: 'vote',
  cutter: DEFAULT_CUTS,
  rrfK: RRF_K,
  noteWeights: [1, 0.25],
  fileNameBoost: 0.1,
  noteExtensions: DEFAULT_EXTENSIONS,
  titleMatchBoost: 0.5,
  titleMatchDepth: 0,
  titleMatchFirst: true,
  // Link evidence at 0.1 from the first 10 notes: +0.013 ± 0.004 nDCG@10 over 219 judged queries (58 wins,
  // 38 losses), no set lower (handbook +0.036, its held-out twin +0.011, Hub held-out +0.009, Hub +0.001,
  // vault-example +0.001); sealed sets +0.014 / +0.002 (docs/search.md).
  linkWeight: 0.1,
  linkDepth: 10,
  linkNorm: 0.5,
  linkScope: 'note',
  rankerDepth: 300,
  compoundSplit: 'off',
  // Score fusion: +0.018 ± 0.006 nDCG@10 over 219 judged queries (79 wins, 56 losses), every set up
  // (held-out handbook +0.015, handbook +0.005, held-out Hub +0.016, Hub +0.030, vault-example +0.028).
  fusion: 'best',
  semanticFusion: 'rrf',
};

/**
 * The ranking a vault's settings choose: its recency half-lives, its note extensions (file names), and no
 * semantic ranker if it turned that off.
 */
export function tuningOf(cfg: Pick<TsmConfig, 'halfLifeDays' | 'semantic' | 'extensions'>): Partial<Tuning> {
  return { halfLifeDays: cfg.halfLifeDays, noteExtensions: cfg.extensions, ...(cfg.semantic ? {} : { semanticWeight: 0, semanticNoteWeight: 0 }) };
}

/**
 * A note's recency multiplier: the decay of search/recency.ts with this type's half-life, toward
 * `recencyFloor` (recency reorders, never hides); notes without a real date are neutral (1).
 */
export function noteRecency(type: NoteType, date: string, dateSource: string, now: Date, t: Tuning): number {
  if (dateSource === 'mtime') return 1;
  return recencyFactor(ageInDays(date, now), t.halfLifeDays[type], t.recencyFloor);
}

export function statusFactor(status: string | null, t: Tuning): number {
  return isStale(status) ? t.stalePenalty : 1;
}

/**
 * Share of the query's words (as typed, lower-cased) that are words of the note's file name: `obsidian-kanban.md`
 * holds `kanban`, `Spaced repetition.md` both words of `spaced repetition`. A file name says what a note is
 * about; it refines the score as a bounded multiplier (`fileNameBoost`), it never votes on its own.
 */
export function fileNameShare(queryWords: readonly string[], path: string, noteExtensions: readonly string[]): number {
  if (queryWords.length === 0) return 0;
  // Without its note extension (`x.markdown` named `markdown` for every query holding the word).
  const base = withoutNoteExtension(path.slice(path.lastIndexOf('/') + 1), noteExtensions);
  const words = new Set(letterOrNumberRuns(searchText(base)));
  return queryWords.filter((w) => words.has(w)).length / queryWords.length;
}

/**
 * Text reduced for an exact name comparison: NFKC, lower case, C++/C#/F# spelled as words (searchText: `C++`
 * does not name a note titled `C#` or `C`), runs of anything but letters and digits → one space.
 */
export function nameKey(text: string): string {
  return letterOrNumberRuns(searchText(text)).join(' ');
}
