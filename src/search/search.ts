// tsm's search: query → terms and filters → FTS5 rankers → fusion by score → the vault model's section and
// note lists (and a resident model's neural list) → recency × status → one hit per note → link evidence →
// snippets and related paths. Reads only; the index layer holds the SQL.
import type { DatesUnread, NoteType, SearchFilters, SearchHit, SearchResponse } from '../core/types.js';
import type { Database } from '../index/db.js';
import { buildUnfinished } from '../index/build-state.js';
import { NoteReader } from '../index/note-reader.js';
import { SectionSearch, type HitDetails, type RankedSection } from '../index/section-search.js';
import { withoutCopies } from './copies.js';
import { bestSnippet } from './snippet.js';
import { linkReadingOf } from './link-reading.js';
import type { LinkReading } from '../text/markdown-line.js';
import { bigrams, normalize } from '../text/normalize.js';
import { ENGLISH_STOPWORDS } from '../text/stopwords.js';
import { buildFilters, type FilterFlags } from './filters.js';
import { anyTermMatch, buildRankers, NAME_CJK_COLUMNS, NAME_WORD_COLUMNS, wordMatch, type Ranker } from './rankers.js';
import { bestSectionPerNote, namesEveryTerm } from './display-section.js';
import { queryTerms, type QueryTerms } from './query-terms.js';
import { DEFAULT_TUNING, fileNameShare, fuse, listCredits, nameKey, noteRecency, RRF_K, statusFactor, type Tuning } from './rank.js';
import { compoundWords, semanticNearest, semanticNoteOrder, semanticOrder, semanticQuery, type SemanticQuery } from './semantic.js';
import { extractTemporal } from './temporal.js';
import { mtimeCrowd, type MtimeCrowd } from './mtime-crowd.js';
import { localDay } from '../core/days.js';
import { applySyntax, phraseMatch } from './constraints.js';
import { didYouMean } from './did-you-mean.js';
import type { ParsedQuery } from './query-syntax.js';
import type { QueryVector } from '../embed/socket-protocol.js';
import { nearestNotes, neuralList } from './neural.js';
import { byPlace, descending } from '../core/order.js';
import { redactNoteHeadingPath, redactNoteSecrets } from '../text/redact.js';

export interface SearchRequest {
  query: string;
  flags?: FilterFlags;
  limit: number;
  offset?: number;
  allSections?: boolean;
  snippetChars?: number;
  now?: Date;
  tuning?: Partial<Tuning>;
  /** The query parsed by the query language (query-syntax.ts): `tsm search` and MCP; the prompt hook searches free text. */
  syntax?: ParsedQuery;
  /** When nothing matches, look for near words in the index's vocabulary (SearchResponse.didYouMean). */
  suggest?: boolean;
  /**
   * The query's vector from a resident embedding model (issue 17): the neural ranker's input. Search never
   * loads a model; without this (or with a vector of a model the index holds no vectors of) it is lexical.
   */
  queryVector?: QueryVector;
  /**
   * Each passage once (search/copies.ts): a hit whose section is a copy of one ranked above it is left out and
   * named in that hit's `copies`. For a model's budget (the prompt hook, MCP); `tsm search` lists every note, as
   * the eval measures it (on the tldr pages, whose BSD variants are copies judged relevant: −0.012, 2 losses).
   */
  collapseCopies?: boolean;
  /** Obsidian's Excluded files (TsmConfig.excludedFiles): the notes they name are no result, as in Obsidian's search. */
  excludedFiles?: readonly string[];
  /**
   * The hits go to a model without the user asking (the prompt hook, MCP): the text they show — snippet, heading
   * path, title, content — has its secrets redacted (text/redact.ts). The snippet is cut from the redacted
   * section, so that neither its window nor a later cut to a budget can show part of a secret (a key block's
   * first lines, a token's head). Only the hits' own sections are read this way, after the ranking: which
   * notes are found and their order do not change. `tsm search` shows the notes as written.
   */
  redactSecrets?: boolean;
}

/** Sections the vault's nearest by cosine add (semanticAddWeight, a measurement aid). */
const NEAREST_DEPTH = 300;
/** Longest term lists sent to FTS5 (long prompts): the rarest terms are kept. */
const MAX_WORDS = 40;
const MAX_BIGRAMS = 80;
const MAX_PIECES = 40;
const MAX_RELATED = 5;


/**
 * Runs in one read transaction, so every query sees the same snapshot: a writer (`tsm watch`, `tsm index`)
 * committing between the ranking and the details can no longer make a section vanish mid-search.
 */
export function search(db: Database, req: SearchRequest): SearchResponse {
  return db.transaction(() => {
    const resp = searchSnapshot(db, req);
    if (req.suggest && resp.total === 0 && !resp.datesOnly) {
      const hint = didYouMean(db, req.syntax ? [req.syntax.text, ...req.syntax.quoted].join(' ') : req.query, req.query, req.excludedFiles);
      if (hint) resp.didYouMean = hint;
    }
    return resp;
  })();
}

/** Best first; ties by path and section order, never by row id (ids differ between builds of one vault). */
function byScore(a: { score: number; path: string; ord: number }, b: { score: number; path: string; ord: number }): number {
  return descending(a.score, b.score) || byPlace(a, b);
}

/**
 * One search, in its stages: the query (temporal expressions, filters, terms), the rankers, their fusion
 * (section lists by score relative to their best, note-level lists as a credit per note), the scores
 * (recency, status, file name, one per note), then the page of hits.
 *
 * A date range read from the text ("last week", "先週") is what the query asks about first, not all it
 * may want: its notes come first, ranked among themselves as under a filter, and when they do not fill
 * the page the rest of the vault follows them, ranked without it (their scores scaled below the range's
 * last). "what did I decide last week about the antenna" found last week's daily note and nothing else;
 * the antenna note now follows it. When no note of the range matches, the words were incidental (a prompt
 * asking how to append to today's note, in a vault with no dated notes): the result says so
 * (`datesIgnored`). Flags and the query language's date filters stay hard. Measured: docs/search.md,
 * section 1.
 */
function searchSnapshot(db: Database, req: SearchRequest): SearchResponse {
  const now = req.now ?? new Date();
  const tuning: Tuning = { ...DEFAULT_TUNING, ...req.tuning };
  const store = new SectionSearch(db);
  const offset = Math.max(0, req.offset ?? 0);
  const wanted = offset + Math.max(0, req.limit);
  const first = rankAll(db, store, req, tuning, now, true);
  let run = first;
  let datesIgnored: SearchResponse['datesIgnored'];
  let datesFirst: SearchResponse['datesFirst'];
  const fill = tuning.textRangeMode === 'filter' ? first.ranked.length === 0 : first.ranked.length < wanted;
  // A query of written days only (`2026-07-18`) whose range holds no note searches them as words.
  const daysAsWords = first.datesOnly && first.ranked.length === 0 && first.q.writtenDays;
  let datesListed: SearchResponse['datesListed'];
  let listedNotes: Set<number> | null = null;
  // The results an offset can reach, when not all ranked: a list of dates reads only the page asked for.
  let reachable: (() => number) | null = null;
  if (first.q.textRange && (first.searched || daysAsWords) && fill) {
    const rest = rankAll(db, store, req, tuning, now, false);
    // A word or two that no note of the range holds ("summarize last week", "what did I do yesterday",
    // "昨日の作業を続けて") ask about the range itself: its notes come first, newest first, as for a query
    // of dates only. More words are a question of their own, whose dates were incidental ("how do I
    // append to today's daily note with QuickAdd"): the search runs without the range, as before.
    const listed = first.searched && first.ranked.length === 0 && queryTermCount(first.q.analysed) <= LIST_RANGE_MAX_TERMS
      ? datedNotes(store, first.q, wanted)
      : null;
    const lead = listed && listed.ranked.length > 0 ? listed : first;
    const shown = new Set(lead.ranked.map((r) => r.noteId));
    const others = rest.ranked.filter((r) => !shown.has(r.noteId));
    // Scores stay in order: the others are scaled to start at the last score of the range's notes.
    const floor = lead.ranked.at(-1)?.score;
    const scale = floor !== undefined && others.length > 0 && others[0].score > floor ? floor / others[0].score : 1;
    run = {
      ...rest,
      ranked: [...lead.ranked, ...(scale === 1 ? others : others.map((r) => ({ ...r, score: Math.min(floor as number, r.score * scale) })))],
      sectionLists: [...first.sectionLists, ...rest.sectionLists],
    };
    const span = dateSpanOf(first.q.filters);
    if (lead === listed) {
      datesListed = { ...span, notes: listed.total() };
      listedNotes = shown;
      reachable = () => listed.total() + others.length;
    } else if (first.ranked.length === 0) datesIgnored = span;
    else if (others.length > 0) datesFirst = { ...span, notes: first.ranked.length };
  }
  const { q, ranked, terms, sectionLists } = run;
  const choose = (notes: Scored[]) => {
    // A date-only list has no words to choose a section by: each note keeps its first section with text.
    const chosen = req.allSections || run.datesOnly ? notes : showBestBodySections(store, terms, notes, sectionLists);
    return listedNotes ? chosen.map((p, i) => (listedNotes.has(p.noteId) ? notes[i] : p)) : chosen;
  };
  const paged = req.collapseCopies
    ? pageWithoutCopies(ranked, offset, wanted, choose, store)
    : { page: choose(ranked.slice(offset, wanted)), next: (i: number) => ranked[offset + i + 1]?.score, details: undefined, copies: new Map<number, string[]>() };
  const { page, copies } = paged;
  const nextScores = page.map((_, i) => paged.next(i));
  const hits = buildHits(db, store, page, nextScores, offset, terms, q.text, req.snippetChars ?? 300, paged.details, placesOf(ranked), req.redactSecrets).map((h) => {
    const others = copies.get(h.id);
    return others ? { ...h, copies: others } : h;
  });
  // Copies left out are no results of their own (those found among the notes looked at: a count, not a search).
  const leftOut = [...copies.values()].reduce((n, paths) => n + paths.length, 0);
  // The range's notes and the rest are two rankings: a note of the range may be in no list of the rest's.
  const total = Math.max(ranked.length, run.total()) - leftOut;
  return {
    query: req.query,
    total,
    ranked: Math.min(total, (reachable ? reachable() : run.datesOnly ? run.total() : ranked.length) - leftOut),
    hits,
    filters: datesIgnored ? run.q.filters : first.q.filters,
    ...(datesIgnored ? { datesIgnored } : {}),
    ...(datesFirst ? { datesFirst } : {}),
    ...(datesListed ? { datesListed } : {}),
    ...(first.datesOnly && !datesIgnored ? { datesOnly: dateSpanOf(first.q.filters) } : {}),
    ...(first.q.datesUnread ? { datesUnread: first.q.datesUnread } : {}),
    // Also when the range then held no match: the notice says why ("today" after a clone holds no note).
    ...(first.q.datesCrowded ? { datesCrowded: first.q.datesCrowded } : {}),
    // A search during a first build or a `--full` found only the notes written so far: say so.
    ...(buildUnfinished(db) ? { indexIncomplete: true as const } : {}),
  };
}

/**
 * The page with each passage once (SearchRequest.collapseCopies, copies.ts). Looked at from the first result,
 * so that a later page leaves out copies of an earlier page's hits; while copies left out leave the page short,
 * twice as many results are looked at, until the ranking ends. A page must come from a prefix that fills
 * it: cut after 4 rounds of a few more results each, 20 copies ranked first left page 1 of 3 with one hit,
 * page 2 with none and page 3 at the 7th, so the 2nd to 6th were on no page. (The ranking is bounded:
 * tuning.rankerDepth per list.)
 */
function pageWithoutCopies(
  ranked: Scored[],
  offset: number,
  wanted: number,
  choose: (notes: Scored[]) => Scored[],
  store: SectionSearch,
): { page: Scored[]; next: (i: number) => number | undefined; details: Map<number, HitDetails>; copies: Map<number, string[]> } {
  let upto = wanted;
  let details = new Map<number, HitDetails>();
  let shown = withoutCopies<Scored>([], details);
  for (;;) {
    const chosen = choose(ranked.slice(0, upto));
    details = store.details(chosen.map((p) => p.id));
    shown = withoutCopies(chosen, details);
    if (shown.kept.length >= wanted || upto >= ranked.length) break;
    upto = Math.min(ranked.length, Math.max(upto * 2, upto + wanted - shown.kept.length));
  }
  const { kept, copies } = shown;
  return { page: kept.slice(offset, wanted), next: (i) => kept[offset + i + 1]?.score ?? ranked[upto]?.score, details, copies };
}

/**
 * A query that names only dates (`yesterday`, `先週`, `last week`) has nothing to rank by, and found nothing while its did-you-mean offered `3 days go` for
 * `3 days ago`. It lists the notes of its range instead, newest first (daily notes are what such a query
 * asks for), each shown by its first section with text; scores fall by place as a list's do under fusion.
 * Only the page asked for is read (offset + limit), and `total` counts the whole range.
 */
function datedNotes(store: SectionSearch, q: PreparedQuery, wanted: number): RankedRun {
  const { list, total } = store.notesByDate(q.filters, wanted);
  const ranked = list.map((r, i) => ({ id: r.id, noteId: r.noteId, score: 1 / (RRF_K + 1 + i), path: r.path, ord: r.ord }));
  return { q, searched: false, datesOnly: true, terms: q.terms, ranked, sectionLists: [], total: () => total };
}

/** Most query terms for which a range that holds none of them is listed (searchSnapshot). */
const LIST_RANGE_MAX_TERMS = 2;

/**
 * Words and CJK pieces of the query, as a reader counts them (a CJK piece is one term, not its bigrams);
 * stopwords, which a query of nothing else keeps to search with ("what did I do"), count for none.
 */
function queryTermCount(t: QueryTerms): number {
  return t.words.filter((w) => !ENGLISH_STOPWORDS.has(w)).length + t.cjkPieces.length + t.cjkSingles.length;
}

function dateSpanOf({ after, before }: SearchFilters): { after?: string; before?: string } {
  return { ...(after ? { after } : {}), ...(before ? { before } : {}) };
}

interface RankedRun {
  q: PreparedQuery;
  /** Whether the query had a term to search for at all. */
  searched: boolean;
  /** The query named only dates: `ranked` is its range's notes, newest first. */
  datesOnly?: boolean;
  terms: QueryTerms;
  /** One entry per note (or section), best first. */
  ranked: Scored[];
  /** The section-level lists, for choosing the section that shows a note. */
  sectionLists: RankedSection[][];
  /** Notes (or sections) holding a query word, before the cut; never fewer than the results ranked. */
  total: () => number;
}

/** The query's results, every one ranked: the stages of searchSnapshot up to the page. */
function rankAll(db: Database, store: SectionSearch, req: SearchRequest, tuning: Tuning, now: Date, textDates: boolean): RankedRun {
  const q = prepareQuery(req, db, store, tuning, now, textDates);
  if (!anyTermMatch(q.terms)) {
    // Dates only: the range's notes (the flags' range when a date flag won over the text's, as it does).
    if (q.datesInText) return datedNotes(store, q, Math.max(0, req.offset ?? 0) + Math.max(0, req.limit));
    return { q, searched: false, terms: q.terms, ranked: [], sectionLists: [], total: () => 0 };
  }
  const { rankers, lists, terms } = runRankers(store, q, tuning);
  const fused = fuseLists(rankers, lists, tuning);
  // The vault's own model (semantic.ts): one query vector for its section and note lists.
  const sq = (tuning.semanticWeight > 0 || tuning.semanticNoteWeight > 0) && fused.sectionFused.size > 0 ? semanticQuery(db, q.text) : null;
  if (sq) addSemantic(sq, fused.sectionFused, tuning);
  if (sq && tuning.semanticAddWeight > 0 && tuning.semanticWeight > 0) addSemanticNearest(sq, store, fused, q.filters, tuning);
  if (req.queryVector) addNeural(db, store, req.queryVector, fused, q.filters, tuning);
  if (sq && tuning.semanticNoteWeight > 0) addSemanticNotes(sq, fused, tuning);
  const factor = noteFactor(terms, q.filters, tuning, now);
  const ranked = scoreResults(fused, factor, tuning, Boolean(req.allSections));
  if (tuning.linkWeight > 0 && !req.allSections) addLinked(store, fused.info, ranked, factor, tuning);
  if (tuning.titleMatchBoost > 0) boostNamedNotes(store, ranked, q.text, tuning);
  const truncated = lists.some((l) => l.length >= tuning.rankerDepth);
  const total = () => {
    const words = truncated ? wordMatch(terms) : null;
    return words ? Math.max(ranked.length, store.count(words, q.filters, !req.allSections)) : ranked.length;
  };
  return { q, searched: true, terms, ranked, sectionLists: fused.sectionLists, total };
}

interface PreparedQuery {
  /** The query text without its temporal expressions. */
  text: string;
  filters: SearchFilters;
  /** Every term of the query, and the terms kept after pruning the common ones. */
  analysed: QueryTerms;
  terms: QueryTerms;
  /** Each term's share of the indexed sections. */
  share: Map<string, number>;
  /** Whether the date filters came from the text alone (no date flag): a range whose notes come first, not a filter. */
  textRange: boolean;
  /** Whether the text named a date at all (its range may have lost to a date flag). */
  datesInText: boolean;
  /** Whether the text wrote a day out (`2026-07-18`, `7月18日`), which is also words (`textWithDays`). */
  writtenDays: boolean;
  /** Dates of the text its range does not show: days of no date, and (when the text's range counts) dates apart from it. */
  datesUnread?: DatesUnread;
  /** The text's range left out notes dated by a crowd of mtimes (mtime-crowd.ts). */
  datesCrowded?: { day: string; notes: number };
}

/** Temporal expressions become a date range, flags and the query language's operators filters, the rest terms. */
function prepareQuery(req: SearchRequest, db: Database, store: SectionSearch, tuning: Tuning, now: Date, textDates: boolean): PreparedQuery {
  // The query language's operators only add constraints and terms: free text ranks as it always has.
  const temporal = extractTemporal(req.syntax?.text ?? req.query, now);
  const range = textDates ? temporal.range : null;
  // Looking past the range, a day written out is words again: `antenna 2026-07-18` finds the day's note by
  // its title when no note of that day holds `antenna`.
  const text = textDates ? temporal.text : temporal.textWithDays;
  let filters = buildFilters(req.flags ?? {}, range, now);
  if (req.syntax) filters = applySyntax(filters, req.syntax, now);
  if (req.excludedFiles?.length) filters = { ...filters, excludedFiles: req.excludedFiles };
  const analysed = queryTerms(req.syntax?.quoted.length ? [text, ...req.syntax.quoted].join(' ') : text, tuning.cutter);
  if (req.syntax?.prefixes.length) analysed.prefixes = req.syntax.prefixes.map(normalize);
  if (tuning.compoundSplit !== 'off') splitCompounds(db, analysed, tuning.compoundSplit);
  const share = termShares(analysed, store);
  // Neighbouring words written as one (`mind map` → `mindmap`) join the words only where the vault uses them
  // (looked up with the words' shares, which hold only terms some section has).
  for (const w of analysed.joined ?? []) if (share.has(w)) analysed.words.push(w);
  // Date flags win over the text's range (filters.ts): the range is the text's only when it changed the filters.
  const flagsOnly = range ? buildFilters(req.flags ?? {}, null, now) : filters;
  const textRange = flagsOnly.after !== filters.after || flagsOnly.before !== filters.before;
  // A text's range leaves out the notes dated by a modification time most of the vault shares (mtime-crowd.ts).
  const crowd = textRange ? crowdInRange(db, filters) : null;
  if (crowd) filters = { ...filters, crowd: { from: crowd.from, to: crowd.to } };
  const datesInText = range !== null;
  const writtenDays = temporal.textWithDays !== temporal.text;
  // Dates apart from the range are news only when the text's range is the one used (a date flag wins).
  const { apart, noDays } = temporal.unread ?? {};
  const unread = { ...(apart && textRange ? { apart } : {}), ...(noDays ? { noDays } : {}) };
  const datesUnread = unread.apart || unread.noDays ? unread : undefined;
  const datesCrowded = crowd ? { day: crowd.day, notes: crowd.notes } : undefined;
  // A phrase or an OR side the query requires keeps its terms however common: the sections that hold it are
  // found by them. `lora OR espresso` found only the espresso note in a vault about LoRa, its `lora` pruned.
  const required = new Set((req.syntax?.required ?? []).flat().flatMap((side) => {
    const t = queryTerms(side, tuning.cutter);
    return [...t.words, ...t.cjk];
  }));
  const terms = pruneTerms(analysed, share, tuning.commonTermShare, tuning.keepCommonUpTo, required);
  return { text, filters, analysed, terms, share, textRange, datesInText, writtenDays, datesUnread, datesCrowded };
}

/** The vault's crowd of mtimes (mtime-crowd.ts) when its days meet the range, else null. */
function crowdInRange(db: Database, { after, before }: SearchFilters): MtimeCrowd | null {
  const crowd = mtimeCrowd(new NoteReader(db));
  if (!crowd) return null;
  const meets = (!before || crowd.day < before) && (!after || localDay(crowd.to) >= after);
  return meets ? crowd : null;
}

interface RankerRun {
  rankers: Ranker[];
  lists: RankedSection[][];
  /** The terms the lists were ranked with (all of them when the pruned ones found nothing). */
  terms: QueryTerms;
}

function runRankers(store: SectionSearch, q: PreparedQuery, tuning: Tuning): RankerRun {
  const rankAll = (t: QueryTerms): RankerRun => {
    // The bigram ranker matches any section sharing one bigram with the query: its common bigrams add
    // tens of thousands of rows to score and little order, so it keeps only the rarer ones.
    const bigramTerms = t === q.analysed ? t : rarerBigrams(t, q.share, tuning.bigramShare);
    const rankers = buildRankers(tuning.rankers, t, bigramTerms, tuning.headColumnWeight, tuning.noteWeights);
    // Rankers can ask the same question: without CJK terms (an English query) the phrase and bigram
    // rankers are one FTS query, and FTS5 scores every matching row whatever the LIMIT. Asked once.
    const asked = new Map<string, RankedSection[]>();
    const lists = rankers.map((r) => {
      const key = `${r.level} ${r.weights.join(',')} ${r.match}`;
      let list = asked.get(key);
      if (!list) {
        list = r.level === 'note' ? store.rankNotes(r.match, r.weights, q.filters, tuning.rankerDepth) : store.rank(r.match, r.weights, q.filters, tuning.rankerDepth);
        asked.set(key, list);
      }
      return list;
    });
    return { rankers, lists, terms: t };
  };
  const run = rankAll(q.terms);
  // Pruning drops common terms in favour of rarer ones; when those occur nowhere (a typo, a word the vault
  // never uses), the common terms are all there is: search with every term rather than find nothing.
  if (termCount(q.terms) < termCount(q.analysed) && run.lists.every((l) => l.length === 0)) return rankAll(capTerms(q.analysed, q.share));
  return run;
}

interface Fused {
  /** Every ranked row by section id. */
  info: Map<number, RankedSection>;
  sectionLists: RankedSection[][];
  /** Section id → RRF score of the section-level lists. */
  sectionFused: Map<number, number>;
  /** Note id → RRF credit of the note-level lists, and the section that shows a note found only by them. */
  noteCredit: Map<number, number>;
  noteFallback: Map<number, number>;
}

function fuseLists(rankers: Ranker[], lists: RankedSection[][], tuning: Tuning): Fused {
  const info = new Map<number, RankedSection>();
  for (const list of lists) for (const r of list) info.set(r.id, r);
  const weightOf = (i: number) => tuning.rankerWeights[rankers[i].name] ?? 1;
  const sectionLists = lists.filter((_, i) => rankers[i].level === 'section');
  // bm25() is lower for better rows: its negation is the score fused.
  const sectionFused = fuse(
    lists.flatMap((l, i) => (rankers[i].level === 'section' ? [{ ids: l.map((r) => r.id), scores: l.map((r) => -r.bm25), weight: weightOf(i) }] : [])),
    tuning.rrfK,
    tuning.fusion,
  );
  // Note-level rankers (title, aliases, headings): their evidence is about the note, so it is credited to
  // the note once, at the rank of the note's first section in their list — never to a section for having
  // the shortest heading.
  const noteCredit = new Map<number, number>();
  const noteFallback = new Map<number, number>();
  const sectionNotes = tuning.headMode === 'refine' ? new Set([...sectionFused.keys()].map((id) => (info.get(id) as RankedSection).noteId)) : null;
  lists.forEach((l, i) => {
    if (rankers[i].level !== 'note') return;
    const seen = new Set<number>();
    // One row per note (rankNotes), so a note's place in the list is its rank among notes.
    const credits = listCredits(l.map((r) => -r.bm25), tuning.fusion, tuning.rrfK);
    l.forEach((r, at) => {
      if (seen.has(r.noteId)) return;
      seen.add(r.noteId);
      // Refining: title evidence reorders the notes the text found, and brings in none of its own.
      if (sectionNotes && !sectionNotes.has(r.noteId)) return;
      noteCredit.set(r.noteId, (noteCredit.get(r.noteId) ?? 0) + weightOf(i) * credits[at]);
      if (!noteFallback.has(r.noteId)) noteFallback.set(r.noteId, r.id);
    });
  });
  return { info, sectionLists, sectionFused, noteCredit, noteFallback };
}

type Scored = { id: number; noteId: number; score: number; path: string; ord: number };

/** A note's multiplier: file name × recency × status (the same for every section of the note). */
type NoteFactor = (r: RankedSection) => number;

function noteFactor(terms: QueryTerms, filters: SearchFilters, tuning: Tuning, now: Date): NoteFactor {
  // Recency: always for daily and session notes; for knowledge notes only with a temporal expression or a
  // date filter (an old reference note is as good an answer as a new one: dated twins +0.011 ± 0.004 over
  // 622 queries, docs/search.md), unless the tuning applies it everywhere ('all') or only then ('asked-all').
  const timeAsked = Boolean(filters.after || filters.before);
  // File-name evidence refines: a bounded multiplier, never a vote of its own (docs/search.md).
  const nameShares = new Map<string, number>();
  const nameFactor = (path: string) => {
    if (!tuning.fileNameBoost || terms.words.length === 0) return 1;
    let v = nameShares.get(path);
    if (v === undefined) nameShares.set(path, (v = fileNameShare(terms.words, path, tuning.noteExtensions)));
    return 1 + tuning.fileNameBoost * v;
  };
  return (r) =>
    nameFactor(r.path) *
    (tuning.recencyScope === 'all' || timeAsked || (r.type !== 'knowledge' && tuning.recencyScope === 'asked') ? noteRecency(r.type as NoteType, r.date, r.dateSource, now, tuning) : 1) *
    statusFactor(r.status, tuning);
}

/** Fused scores × the note's factor; one result per note (its best section) unless allSections. */
function scoreResults(f: Fused, factor: NoteFactor, tuning: Tuning, allSections: boolean): Scored[] {
  const { info, noteCredit } = f;
  type Fusing = Scored & { rrf: number };
  const scoredOf = (id: number, rrf: number): Fusing => {
    const r = info.get(id) as RankedSection;
    return { id, noteId: r.noteId, rrf, path: r.path, ord: r.ord, score: 0 };
  };
  // Notes matched only through their titles still appear, shown by their first matching section.
  const fallbacks: Fusing[] = [];
  const bodyNotes = new Set<number>();
  f.sectionFused.forEach((_, id) => bodyNotes.add((info.get(id) as RankedSection).noteId));
  f.noteFallback.forEach((id, noteId) => {
    if (!bodyNotes.has(noteId)) fallbacks.push(scoredOf(id, 0));
  });

  let ranked: Fusing[];
  if (allSections) {
    ranked = [];
    f.sectionFused.forEach((rrf, id) => ranked.push(scoredOf(id, rrf)));
    ranked.push(...fallbacks);
    for (const s of ranked) s.score = (s.rrf + (noteCredit.get(s.noteId) ?? 0)) * factor(info.get(s.id) as RankedSection);
  } else {
    // A note ranks by its best section, plus a share of its second best (a note that answers the query in
    // two places beats one that mentions it once), plus its note-level credit; it is shown by its best
    // section (the first in section order among equals). One pass, not a sort of every section found.
    const best = new Map<number, Fusing>();
    const second = new Map<number, number>();
    const consider = (s: Fusing) => {
      const b = best.get(s.noteId);
      if (!b) {
        best.set(s.noteId, s);
        return;
      }
      let other = s.rrf;
      if (s.rrf > b.rrf || (s.rrf === b.rrf && s.ord < b.ord)) {
        best.set(s.noteId, s);
        other = b.rrf;
      }
      const was = second.get(s.noteId);
      if (was === undefined || other > was) second.set(s.noteId, other);
    };
    f.sectionFused.forEach((rrf, id) => consider(scoredOf(id, rrf)));
    for (const s of fallbacks) consider(s);
    ranked = [...best.values()];
    for (const b of ranked) {
      const s2 = second.get(b.noteId);
      const score = s2 === undefined ? b.rrf : b.rrf + tuning.secondSection * s2;
      b.score = (score + (noteCredit.get(b.noteId) ?? 0)) * factor(info.get(b.id) as RankedSection);
    }
  }
  ranked.sort(byScore);
  return ranked;
}

/**
 * The semantic ranker reorders the best `semanticDepth` sections of the lexical fusion: their cosine order
 * is fused in as one more list at `semanticWeight`. (Sections it alone would find are never added.)
 */
function addSemantic(sq: SemanticQuery, fused: Map<number, number>, tuning: Tuning): void {
  if (!(tuning.semanticWeight > 0)) return;
  // Equal scores keep the lists' order (row ids differ between builds of one vault).
  const top = topKeys(fused, tuning.semanticDepth);
  const order = semanticOrder(sq, top);
  // By place, or (semanticFusion) by cosine relative to the best candidate's, as the lexical lists are fused.
  const credits = listCredits(order.map((o) => Math.max(0, o.cos)), tuning.semanticFusion, RRF_K);
  order.forEach(({ id }, i) => fused.set(id, (fused.get(id) ?? 0) + tuning.semanticWeight * credits[i]));
}

/**
 * The vault's sections most like the query by cosine as one more RRF list at `semanticAddWeight`: it may
 * bring sections no lexical ranker found (shown like one a lexical ranker found).
 */
function addSemanticNearest(sq: SemanticQuery, store: SectionSearch, f: Fused, filters: SearchFilters, tuning: Tuning): void {
  const ids = semanticNearest(sq, NEAREST_DEPTH);
  if (ids.length === 0) return;
  const found = store.rankIds(ids.filter((id) => !f.info.has(id)), filters);
  for (const r of found) f.info.set(r.id, r);
  f.sectionLists.push(found.map((r) => f.info.get(r.id) as RankedSection));
  const list = ids.filter((id) => f.info.has(id));
  list.forEach((id, i) => f.sectionFused.set(id, (f.sectionFused.get(id) ?? 0) + tuning.semanticAddWeight / (tuning.rrfK + i + 1)));
}

/**
 * The note-level semantic list: the first `semanticNoteDepth` notes (by their best section's fused score
 * and their note-level credit) reordered by the cosine of the query with each note's vector, a whole
 * note's topic (index/semantic/note-vectors.ts), and credited once per note by place at
 * `semanticNoteWeight`, as the heading ranker is. The sections' list (addSemantic) sees one section at a
 * time; a note whose body as a whole is about the query's topic beats one that mentions its words in
 * passing. It only reorders the notes found. Measured: docs/search.md 2b.
 */
function addSemanticNotes(sq: SemanticQuery, f: Fused, tuning: Tuning): void {
  const best = new Map<number, number>();
  const first = new Map<number, RankedSection>();
  // forEach, not for…of over entries: in a fresh process each entry would allocate a pair and a result.
  f.sectionFused.forEach((score, id) => {
    const r = f.info.get(id) as RankedSection;
    const b = best.get(r.noteId);
    if (b === undefined || score > b) best.set(r.noteId, score);
    if (!first.has(r.noteId)) first.set(r.noteId, r);
  });
  best.forEach((score, note) => best.set(note, score + (f.noteCredit.get(note) ?? 0)));
  // Ties by path (row ids differ between builds of one vault): every note tied at the cut is sorted in.
  const top = keysFrom(best, tuning.semanticNoteDepth)
    .map((note) => ({ note, score: best.get(note) as number, path: (first.get(note) as RankedSection).path, ord: 0 }))
    .sort(byScore)
    .slice(0, tuning.semanticNoteDepth)
    .map((n) => n.note);
  semanticNoteOrder(sq, top).forEach(({ id }, i) => f.noteCredit.set(id, (f.noteCredit.get(id) ?? 0) + tuning.semanticNoteWeight / (RRF_K + i + 1)));
}

/**
 * The keys of the `k` highest values, best first, equal values in the map's order: what a stable sort of
 * every entry, cut at k, gives, without sorting (or allocating a pair for) each of a search's ~1,000 rows.
 */
function topKeys(m: Map<number, number>, k: number): number[] {
  const keys = keysFrom(m, k);
  const at = new Map(keys.map((key, i) => [key, i]));
  return keys.sort((a, b) => descending(m.get(a) as number, m.get(b) as number) || (at.get(a) as number) - (at.get(b) as number)).slice(0, k);
}

/** The keys whose values are at least the k-th highest, in the map's order (all of them when k ≥ the size). */
function keysFrom(m: Map<number, number>, k: number): number[] {
  if (k <= 0) return [];
  if (m.size <= k) return [...m.keys()];
  const values = Float64Array.from(m.values()).sort();
  const cut = values[values.length - k];
  const out: number[] = [];
  m.forEach((v, key) => {
    if (v >= cut) out.push(key);
  });
  return out;
}

/**
 * The neural ranker (issue 17) as one more RRF list: the vault's best notes by cosine (each by its best
 * section, the filters applied) at `neuralAddWeight`, which may bring notes no lexical ranker found, when
 * there is such a list (neuralAdds: a resident's, or read from the index); else a reordering of the best
 * `neuralDepth` sections of the lexical fusion at `neuralWeight`.
 */
function addNeural(db: Database, store: SectionSearch, qv: QueryVector, f: Fused, filters: SearchFilters, tuning: Tuning): void {
  const nearest = tuning.neuralAdds !== 'never' && tuning.neuralAddWeight > 0 ? nearestNotes(db, qv, tuning.neuralAdds === 'always') : null;
  if (nearest) {
    const known = nearest.filter((id) => f.info.has(id));
    const found = store.rankIds(nearest.filter((id) => !f.info.has(id)), filters);
    for (const r of found) f.info.set(r.id, r);
    // Shown like a section a lexical ranker found: a note it brings is shown by its best section.
    f.sectionLists.push([...known, ...found.map((r) => r.id)].map((id) => f.info.get(id) as RankedSection));
    const list = nearest.filter((id) => f.info.has(id));
    list.forEach((id, i) => f.sectionFused.set(id, (f.sectionFused.get(id) ?? 0) + tuning.neuralAddWeight / (tuning.rrfK + i + 1)));
    return;
  }
  if (!(tuning.neuralWeight > 0)) return;
  const top = [...f.sectionFused].sort((a, b) => descending(a[1], b[1])).slice(0, tuning.neuralDepth).map(([id]) => id);
  const ids = neuralList(db, qv, top);
  ids?.forEach((id, i) => f.sectionFused.set(id, (f.sectionFused.get(id) ?? 0) + tuning.neuralWeight / (tuning.rrfK + i + 1)));
}

/**
 * Each note is shown by the section whose own text best matches the query (headings aside). The
 * candidates are the note's sections that the section rankers found; a note found only by its headings
 * offers all its sections. (Reading every section of every page note costs more than the ranking.)
 */
function showBestBodySections<T extends { id: number; noteId: number }>(
  store: SectionSearch,
  terms: QueryTerms,
  page: T[],
  sectionLists: RankedSection[][],
): T[] {
  if (page.length === 0) return page;
  const onPage = new Set(page.map((p) => p.noteId));
  const found = new Map<number, RankedSection['type']>();
  const candidates = new Set<number>();
  for (const list of sectionLists) {
    for (const r of list) {
      if (!onPage.has(r.noteId)) continue;
      found.set(r.noteId, r.type);
      candidates.add(r.id);
    }
  }
  const headingOnly = [...onPage].filter((n) => !found.has(n));
  const sections = [...store.sectionTexts([...candidates]), ...(headingOnly.length ? store.sectionsOfNotes(headingOnly) : [])];
  // A session note's title is its first prompt, and its lead that prompt: it keeps the section that answers.
  const named = [...found].filter(([, type]) => type !== 'session').map(([noteId]) => noteId);
  const names = named.length ? store.noteNames(named) : new Map<number, { title: string; aliases: string[] }>();
  const leadNotes = new Set(named.filter((n) => {
    const d = names.get(n);
    return d !== undefined && namesEveryTerm([d.title, ...d.aliases], terms);
  }));
  const sessionNotes = new Set([...found].filter(([, type]) => type === 'session').map(([noteId]) => noteId));
  const best = bestSectionPerNote(sections, terms, leadNotes, sessionNotes);
  return page.map((p) => ({ ...p, id: best.get(p.noteId) ?? p.id }));
}

/**
 * Link evidence (Tuning.linkWeight): a note the best notes link to is likely what they point the reader to
 * (`engineering/workflow/code-review.md`, linked from a team's own code-review page, for `コードレビュー
 * 承認`). Each of the first `linkDepth` notes passes `linkWeight` × its score to the notes it links to,
 * shared among them (÷ their count ^ `linkNorm`, so a roundup note's hundred links each pass little); the
 * credit is multiplied by the target's own factor (file name, recency, status), as its score is. It only
 * reorders: a linked note that holds none of the query's words is not added (adding them measured the
 * same, and every result keeps saying the query's words somewhere). Measured: docs/search.md.
 */
function addLinked(store: SectionSearch, info: Map<number, RankedSection>, ranked: Scored[], factor: NoteFactor, tuning: Tuning): void {
  const head = ranked.slice(0, tuning.linkDepth);
  if (head.length === 0) return;
  const bestSection = new Map(head.map((h) => [h.noteId, h.id]));
  const targetsOf = new Map<number, Set<number>>();
  for (const l of store.outLinks(head.map((h) => h.noteId))) {
    if (tuning.linkScope === 'section' && l.sectionId !== bestSection.get(l.noteId)) continue;
    let t = targetsOf.get(l.noteId);
    if (!t) targetsOf.set(l.noteId, (t = new Set()));
    t.add(l.targetId);
  }
  // Credits come from the scores before any is added: the order of the head does not matter.
  const credit = new Map<number, number>();
  for (const h of head) {
    const targets = targetsOf.get(h.noteId);
    if (!targets?.size) continue;
    const share = (tuning.linkWeight * h.score) / Math.pow(targets.size, tuning.linkNorm);
    for (const t of targets) credit.set(t, (credit.get(t) ?? 0) + share);
  }
  if (credit.size === 0) return;
  let moved = false;
  for (const r of ranked) {
    const c = credit.get(r.noteId);
    if (c === undefined) continue;
    r.score += c * factor(info.get(r.id) as RankedSection);
    moved = true;
  }
  if (moved) ranked.sort(byScore);
}

/**
 * Notes named by the whole query (title or an alias) go first, wherever they ranked: a keyword query that
 * names a note (`templater`, `Obsidian Sync`) wants that note, as Obsidian's quick switcher puts it first.
 * Measured: × 1.5 among the first 30 won 4 queries and lost none of 129 judged (+0.056 nDCG@10 on the Hub's
 * keyword queries); but the Hub's concept notes named by the query ranked lower than 30 (`Obsidian Sync`
 * 68th, behind every `*-sync` plugin; `Websites` 301st), so the named notes are looked up by name — the
 * query as a phrase of the notes' name columns, at most 20, then their titles and aliases compared — and
 * one that ranked goes first (no judged query moved: 0/0/219). Reading every ranked note's names instead
 * cost ~1 ms a search on the handbook (a Japanese prompt without spaces counts as one word). Only for
 * queries of at most 6 words.
 */
function boostNamedNotes(store: SectionSearch, ranked: Scored[], text: string, tuning: Tuning): void {
  const key = nameKey(text);
  if (!key || key.split(' ').length > 6 || ranked.length === 0) return;
  // The first 30 (the rule's old reach) and the notes looked up by name.
  const candidates = new Set(ranked.slice(0, tuning.titleMatchDepth > 0 ? tuning.titleMatchDepth : 30).map((r) => r.noteId));
  if (tuning.titleMatchDepth === 0) {
    const match = phraseMatch(text, { words: NAME_WORD_COLUMNS, cjk: NAME_CJK_COLUMNS });
    // A title whose letters and digits are the query's is not much longer than it (spaces, dashes, an emoji).
    const maxTitle = 2 * key.length + 8;
    if (match) for (const id of store.notesByName(match, maxTitle, normalize(text.trim()), NAMED_LOOKUP)) candidates.add(id);
  }
  if (candidates.size === 0) return;
  const names = store.noteNames([...candidates]);
  const named = new Set([...names].filter(([, d]) => [d.title, ...d.aliases].some((n) => nameKey(n) === key)).map(([id]) => id));
  if (named.size === 0) return;
  const top = ranked[0].score;
  let moved = false;
  for (const r of ranked) {
    if (!named.has(r.noteId)) continue;
    // × 1.5 as before; one that this leaves below the first note is put just above it (its own score
    // keeps two named notes in order), so a score stays what it was wherever the multiplier did the job.
    const boosted = r.score * (1 + tuning.titleMatchBoost);
    r.score = tuning.titleMatchFirst ? Math.max(boosted, top + r.score * 1e-3) : boosted;
    moved = true;
  }
  if (moved) ranked.sort(byScore);
}

/** Most notes looked up by name (a phrase of their name columns, a title not much longer) before their titles are compared. */
const NAMED_LOOKUP = 200;

/** Compound CJK pieces as the vault's words (Tuning.compoundSplit), in place. */
function splitCompounds(db: Database, t: QueryTerms, mode: 'add' | 'replace'): void {
  const parts = compoundWords(db, t.cjkPieces);
  if (parts.size === 0) return;
  const pieces: string[] = [];
  const push = (p: string) => {
    if (!pieces.includes(p)) pieces.push(p);
  };
  for (const p of t.cjkPieces) {
    const words = parts.get(p);
    if (mode === 'add' || !words) push(p);
    if (words) words.forEach(push);
  }
  t.cjkPieces = pieces;
  if (mode === 'replace') t.cjk = [...new Set(pieces.flatMap((p) => bigrams(p)))];
}

function termCount(t: QueryTerms): number {
  return t.words.length + t.cjk.length + t.cjkSingles.length + t.cjkPieces.length;
}

/**
 * Share of sections holding each query word, joined word and bigram, for the terms some section holds (none
 * looked up for a one-term query, which has no joined words either).
 */
function termShares(terms: QueryTerms, store: SectionSearch): Map<string, number> {
  const all = [...terms.words, ...terms.cjk];
  if (all.length <= 1) return new Map();
  const n = Math.max(1, store.indexedSections());
  return new Map([...store.docFrequencies([...terms.words, ...(terms.joined ?? [])], terms.cjk)].map(([t, df]) => [t, df / n]));
}

/** The terms with only the bigrams held by at most `maxShare` of sections (all of them if none is). */
function rarerBigrams(terms: QueryTerms, share: Map<string, number>, maxShare: number): QueryTerms {
  const cjk = terms.cjk.filter((t) => (share.get(t) ?? 0) <= maxShare);
  return cjk.length === terms.cjk.length || cjk.length === 0 ? terms : { ...terms, cjk };
}

/** Drops terms so common they only add noise and time (never a `required` one); caps long prompts to their rarest terms. */
function pruneTerms(terms: QueryTerms, share: Map<string, number>, commonShare: number, keepUpTo = 0, required: ReadonlySet<string> = new Set()): QueryTerms {
  if (share.size === 0) return capTerms(terms, share);
  if (terms.words.length + terms.cjkPieces.length <= keepUpTo) return terms;
  const keep = (list: string[], max: number) => {
    const rare = list.filter((t) => (share.get(t) ?? 0) <= commonShare || required.has(t));
    const chosen = rare.length ? rare : list;
    if (chosen.length <= max) return chosen;
    return [...chosen].sort((a, b) => (share.get(a) ?? 0) - (share.get(b) ?? 0)).slice(0, max);
  };
  const words = keep(terms.words, MAX_WORDS);
  const cjk = keep(terms.cjk, MAX_BIGRAMS);
  // Keep at least one side non-empty: if pruning emptied everything, fall back to the originals.
  if (words.length + cjk.length + terms.cjkSingles.length === 0) return terms;
  return { words, cjk, cjkSingles: terms.cjkSingles, cjkPieces: terms.cjkPieces.slice(0, MAX_PIECES), prefixes: terms.prefixes };
}

/**
 * The terms within the caps of pruneTerms, those some section holds first (rarest first), each list in query
 * order; the same object when every list is within its cap. Where pruning has nothing to go by (no term in
 * the index) or found nothing, a pasted page was otherwise searched by all its terms: 50,000 words no note
 * holds took 5 s in one FTS5 query.
 */
function capTerms(terms: QueryTerms, share: Map<string, number>): QueryTerms {
  const cap = (list: string[], max: number) => {
    if (list.length <= max) return list;
    const order = (t: string) => share.get(t) ?? Infinity;
    const chosen = new Set([...list].sort((a, b) => order(a) - order(b)).slice(0, max));
    return list.filter((t) => chosen.has(t));
  };
  const [words, cjk, cjkPieces] = [cap(terms.words, MAX_WORDS), cap(terms.cjk, MAX_BIGRAMS), cap(terms.cjkPieces, MAX_PIECES)];
  if (words === terms.words && cjk === terms.cjk && cjkPieces === terms.cjkPieces) return terms;
  return { ...terms, words, cjk, cjkPieces };
}

function buildHits(
  db: Database,
  store: SectionSearch,
  page: { id: number; noteId: number; score: number }[],
  nextScores: (number | undefined)[],
  offset: number,
  terms: QueryTerms,
  queryText: string,
  snippetChars: number,
  known?: Map<number, HitDetails>,
  places: Map<number, number> = new Map(),
  redact = false,
): SearchHit[] {
  if (page.length === 0) return [];
  const details = known ?? store.details(page.map((p) => p.id));
  const related = relatedByHit(new NoteReader(db), page, places);
  const links = linkReadingOf(db);
  const snippetTerms = [...terms.words, ...terms.cjk, ...terms.cjkSingles, ...(terms.prefixes ?? [])];
  return page.map((p, i) => {
    const d = details.get(p.id);
    if (!d) throw new Error(`section ${p.id} vanished during search`);
    // The hit's text as shown: for a model, redacted (SearchRequest.redactSecrets) before its snippet is cut from it.
    const shown = redact ? { text: redactNoteSecrets(d.text), title: redactNoteSecrets(d.title), headingPath: redactNoteHeadingPath(d.headingPath), description: redactNoteSecrets(d.description) } : d;
    return {
      rank: offset + i + 1,
      id: d.id,
      score: p.score,
      path: d.path,
      type: d.type,
      status: d.status,
      title: shown.title,
      section: shown.headingPath,
      line: d.startLine,
      endLine: d.endLine,
      date: d.date || null,
      tags: d.tags,
      snippet: snippetOf(shown, snippetTerms.length ? snippetTerms : [queryText], snippetChars, links),
      related: related.get(p.id) ?? [],
      content: shown.text,
      surprise: surpriseOf(d.frontmatter, p.score, nextScores[i]),
    };
  });
}

/**
 * The hit's passage: from its section's text; from the note's description when only that holds a query term
 * (a note found by its description, shown by a section that does not say the words).
 */
function snippetOf(d: Pick<HitDetails, 'text' | 'headingPath' | 'description'>, terms: string[], chars: number, links: LinkReading): string {
  return bestSnippet(d.text || d.headingPath, terms, chars, d.description || undefined, links);
}

/** Each ranked note's place in this search's ranking (its first, best place), by note id. */
function placesOf(ranked: readonly { noteId: number }[]): Map<number, number> {
  const places = new Map<number, number>();
  ranked.forEach((r, i) => {
    if (!places.has(r.noteId)) places.set(r.noteId, i);
  });
  return places;
}

/**
 * Per hit, the notes it links to, at most MAX_RELATED: first those this search ranked below the page, in
 * their order (the query's own evidence says where to look next), then the others by where the link is —
 * in the hit's section, the note's frontmatter `related`, the note's other sections — and last the page's
 * own results, which the reader has in front of them. In link order alone, over the 124 prompt queries of
 * eight judged sets, the prompt hook's related lists named a judged-relevant note that no result was 34
 * times (in 28 queries); so ordered, 56 (in 43). Ranked notes first with the page's among them: 54, the
 * lists of `tsm search` then mostly repeating its other results.
 */
function relatedByHit(reader: NoteReader, page: { id: number; noteId: number }[], places: Map<number, number>): Map<number, string[]> {
  const rows = reader.relatedPaths([...new Set(page.map((p) => p.noteId))]);
  const out = new Map<number, string[]>();
  const onPage = new Set(page.map((p) => p.noteId));
  const UNRANKED = Number.MAX_SAFE_INTEGER - 1;
  const place = (r: { targetId: number }) => (onPage.has(r.targetId) ? Number.MAX_SAFE_INTEGER : (places.get(r.targetId) ?? UNRANKED));
  for (const p of page) {
    const mine = rows.filter((r) => r.noteId === p.noteId);
    const byLink = [
      ...mine.filter((r) => r.sectionId === p.id),
      ...mine.filter((r) => r.sectionId === null),
      ...mine.filter((r) => r.sectionId !== null && r.sectionId !== p.id),
    ];
    // Array.prototype.sort is stable: links of one place (the unranked, the page's) keep their link order.
    const ordered = byLink.sort((a, b) => place(a) - place(b));
    const paths: string[] = [];
    for (const r of ordered) {
      if (!paths.includes(r.path)) paths.push(r.path);
      if (paths.length >= MAX_RELATED) break;
    }
    out.set(p.id, paths);
  }
  return out;
}

/**
 * Seed 003's "surprise": the note's frontmatter `surprise`/`importance` (0–1) when present; else the
 * hit's margin over the next candidate ranked, on the page or past it (a clear winner is a key moment):
 * min(1, 2 × (s − s_next) / s). A hit that no candidate follows (`next` undefined: the last of all ranked,
 * or of a list of dates read up to the page) has no margin to show and is none: taken as a margin over 0,
 * the last result of every search that ran out of results was a key moment.
 */
function surpriseOf(frontmatter: Record<string, unknown>, s: number, next: number | undefined): number {
  for (const key of ['surprise', 'importance']) {
    const v = Number(frontmatter[key]);
    if (frontmatter[key] !== undefined && frontmatter[key] !== null && Number.isFinite(v)) return Math.min(1, Math.max(0, v));
  }
  if (s <= 0 || next === undefined) return 0;
  return Math.min(1, Math.max(0, (2 * (s - next)) / s));
}
