// Keeps the semantic model in step with the index, after each sync: a rebuild trains it; an incremental
// sync gives new and changed sections vectors from the current word vectors at once, and retrains when
// the vault has changed enough (RETRAIN_SHARE) — at once for `tsm index`, in the background for `tsm watch`.
import type { Database } from '../db.js';
import { embedSections } from './embed.js';
import { train, TRAIN_DEFAULTS, type TrainOptions } from './model.js';
import type { Trained } from './types.js';
import { SEMANTIC_VERSION, SemanticStore, type SemanticState } from './store.js';

/**
 * Retrain when the vault has moved this share of the sections trained on away from them (changeSinceTraining).
 * New words are unknown to the model until then: a section made of them gets a weaker vector, and its
 * lexical rankers still find it.
 */
export const RETRAIN_SHARE = 0.2;

export interface RefreshOptions {
  /** The index was built from nothing (or `--full`): train now. */
  rebuild: boolean;
  /** Never train here (the watcher trains in a worker thread); only embed. */
  background?: boolean;
  train?: Partial<TrainOptions>;
}

export interface RefreshResult {
  embedded: number;
  trained: boolean;
  retrainDue: boolean;
}

export function refreshSemantic(db: Database, opts: RefreshOptions): RefreshResult {
  const store = new SemanticStore(db);
  const trainOpts = { ...TRAIN_DEFAULTS, ...opts.train };
  if (opts.rebuild && !opts.background) {
    trainAndStore(db, trainOpts);
    return { embedded: 0, trained: true, retrainDue: false };
  }
  // Read, embed and write under the write lock (BEGIN IMMEDIATE): a read transaction that turns into a
  // write fails at once with "database is locked" when another writer (the watcher, a second `tsm index`)
  // committed in between, whatever the busy timeout.
  let state: SemanticState | null = null;
  let embedded = 0;
  db.transaction(() => {
    state = store.state();
    if (state?.kind !== 'trained') return;
    const todo = store.sectionsToEmbed();
    if (todo.length === 0) return;
    const seq = state.seq + 1;
    store.putSectionVectors(embedSections(store, todo, state.dims), seq);
    state = { ...state, seq, embeddedSince: state.embeddedSince + todo.length };
    store.setState(state);
    embedded = todo.length;
  }).immediate();
  const due = retrainDue(state, store.sectionCounts(), trainOpts.minSections);
  if (due && !opts.background) {
    trainAndStore(db, trainOpts);
    return { embedded, trained: true, retrainDue: false };
  }
  return { embedded, trained: false, retrainDue: due };
}

/** The index's sections now, and how many of them have no vector row (SemanticStore.sectionCounts). */
export interface SectionCounts {
  sections: number;
  unembedded: number;
}

/**
 * How far the vault has moved from a trained model, in sections: the larger of the sections it has not
 * seen (given vectors since, or none yet) and the sections it learned from that are gone. A new section is
 * one unseen, a deleted one one gone, a changed one both (it takes a new row id), so each counts once.
 * With `unseen` exact, gone = unseen − (sections now − sections trained on), hence the sum below. The
 * sum of unseen and the change in count that it replaces counted a new section twice: 50 sections
 * added to 400 (12.5 %) retrained at once. Sections added and others deleted in the same span count as
 * the larger of the two, and a section edited twice twice (each edit embeds it).
 */
export function changeSinceTraining(state: SemanticState, now: SectionCounts): number {
  const unseen = state.embeddedSince + now.unembedded;
  return unseen + Math.max(0, state.sections - now.sections);
}

/** Whether the model should be (re)trained: none yet on a vault big enough, another version, or enough change. */
export function retrainDue(state: SemanticState | null, now: SectionCounts, minSections = TRAIN_DEFAULTS.minSections): boolean {
  const { sections } = now;
  if (!state) return sections >= minSections;
  if (state.kind === 'too-small') {
    if (state.sections < minSections) return sections >= minSections;
    // Sections enough but words too few (a vault in a script it does not learn, such as Hangul, or of
    // numbers and single kanji): tried again when the vault has changed as much as a trained model waits
    // for. Retrying at every sync read the whole vault again on every save (0.35 s an edit on 27,000
    // sections of Hangul; 0.07 s without the training).
    return Math.abs(sections - state.sections) >= RETRAIN_SHARE * state.sections;
  }
  return changeSinceTraining(state, now) >= RETRAIN_SHARE * state.sections;
}

/** Why a model state of kind 'too-small' has no model: too few sections, or sections enough with too few words. */
export function tooSmallBecause(state: SemanticState, minSections = TRAIN_DEFAULTS.minSections): 'sections' | 'words' {
  return state.sections < minSections ? 'sections' : 'words';
}

/** Trains from every section now in the index and stores the result. */
export function trainAndStore(db: Database, opts: TrainOptions = TRAIN_DEFAULTS): void {
  const store = new SemanticStore(db);
  const snapshotSeq = store.state()?.seq ?? 0;
  // Read in one snapshot; better-sqlite3 reads while iterating, so nothing is written until it is done.
  const trained = db.transaction(() => train(store.allSectionTexts(), opts))();
  storeTrained(db, trained, snapshotSeq, store.sectionCount());
}

/**
 * Stores what a training produced (here or in a worker thread). Sections written since its snapshot
 * (`snapshotSeq`) are embedded again with the new word vectors, as are any it did not see.
 */
export function storeTrained(db: Database, trained: Trained | null, snapshotSeq: number, sectionsNow: number): void {
  const store = new SemanticStore(db);
  db.transaction(() => {
    const now = new Date().toISOString();
    if (!trained) {
      store.clear();
      store.setState({ version: SEMANTIC_VERSION, kind: 'too-small', dims: 0, words: 0, sections: sectionsNow, trainedAt: now, embeddedSince: 0, seq: 0 });
      return;
    }
    store.replaceModel(trained, snapshotSeq);
    const dims = trained.model.dims;
    const late = store.sectionsToEmbed(snapshotSeq);
    store.putSectionVectors(embedSections(store, late, dims), 0);
    store.setState({
      version: SEMANTIC_VERSION,
      kind: 'trained',
      dims,
      words: trained.model.words.length,
      sections: trained.model.sections,
      trainedAt: now,
      embeddedSince: 0,
      seq: 0,
    });
  }).immediate();
}

/** Whether the index holds a model state of this version (trained, or too small to train); one meta read. */
export function hasSemanticModel(db: Database): boolean {
  return new SemanticStore(db).state() !== null;
}

/** The model's state, the sections now and whether a retrain is due (a sync asks this: a meta read and two counts). */
export function semanticStatus(db: Database): { state: SemanticState | null; sections: number; unembedded: number; retrainDue: boolean } {
  const store = new SemanticStore(db);
  const state = store.state();
  const now = store.sectionCounts();
  return { state, ...now, retrainDue: retrainDue(state, now) };
}

/**
 * What `tsm status` says about the model: semanticStatus, plus the sections that have a vector search can use
 * now (`state.sections` is the count the model was trained on; 4 ms more on 60,000 sections, so not asked by a sync).
 */
export function semanticReport(db: Database): ReturnType<typeof semanticStatus> & { withVector: number } {
  const status = semanticStatus(db);
  return { ...status, withVector: status.state?.kind === 'trained' ? new SemanticStore(db).vectorsHeld() : 0 };
}
