// tsm search: rank the vault's sections for a query and print them as text, JSON, XML or markdown.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SearchResponse } from '../core/types.js';
import { checkIndexFiles, type Database } from '../index/db.js';
import { INCOMPLETE_INDEX_NOTE } from '../index/build-state.js';
import { withIndexReader } from '../index/open-reader.js';
import { VectorStore } from '../index/vectors.js';
import { searchWithNotices } from '../search/query-notices.js';
import { nearestNotes } from '../search/neural.js';
import type { FilterFlags } from '../search/filters.js';
import { NOTHING_TO_RANK, parseQuery, ranksBy } from '../search/query-syntax.js';
import { tsmDir, type TsmConfig } from '../vault/config.js';
import { readRegularFile } from '../vault/file-kind.js';
import { queryEcho } from '../text/chars.js';
import { DEFAULT_LINK_READING, type LinkReading } from '../text/markdown-line.js';
import { linkReadingOf } from '../search/link-reading.js';
import { configFrom, referenceNow, typedVaultPath, useColor } from './args.js';
import { ignoredOptions, SEARCH_OPTIONS } from './options.js';
import { isTerminal, writeErr, writeOut } from './stdio.js';
import { tuningOf, type Tuning } from '../search/rank.js';
import type { QueryVector } from '../embed/socket-protocol.js';
import { fingerprintModel } from '../embed/fingerprint.js';
import { socketPath } from '../vault/embed-socket.js';
import { count } from '../text/count.js';
import { UserError } from './run.js';
import { searchExclusions } from '../vault/obsidian-excluded.js';

export async function run(argv: Record<string, unknown>): Promise<void> {
  const cfg = configFrom(argv);
  const query = ((argv.query as string[] | undefined) ?? []).map(String).join(' ');
  // Number options come checked against their range (numberOption, src/cli/options.ts).
  const limit = (argv.limit as number | undefined) ?? 10;
  const now = referenceNow();
  for (const line of ignoredOptions(SEARCH_OPTIONS, argv)) writeErr(`tsm: ${line}\n`);
  if (!existsSync(cfg.db)) await buildFirstIndex(cfg);
  // `path:` in the query is confined to the vault by the parser (a path outside it is text).
  const syntax = parseQuery(query, { vault: cfg.vault });
  // Path filters, as the MCP search tool takes them (NFC, from the vault root).
  const paths = (argv.path as string[] | undefined)?.map((p) => typedVaultPath(cfg.vault, p, '--path'));
  const tuning = tuningOf(cfg);
  const queryVector = await askResident(cfg, syntax.text, tuning, Boolean(argv.verbose));
  // Why a path filter found nothing walks the vault's ignore rules: loaded only when a path filter is given.
  const pathNotice = paths?.length || syntax.filters.path?.length
    ? (await import('../search/path-notice.js')).pathNoticeFor({ root: cfg.vault, extensions: cfg.extensions })
    : undefined;

  // A damaged page met mid-search becomes an IndexError that says how to fix it.
  const { resp, notices, links } = withIndexReader(cfg.db, (db) => {
    if (queryVector && argv.verbose) writeErr(`tsm: ${vectorCoverage(db, queryVector)}\n`);
    const found = searchWithNotices(db, {
      query,
      syntax,
      queryVector,
      suggest: true,
      flags: { ...argv, path: paths } as FilterFlags,
      limit,
      allSections: Boolean(argv['all-sections']),
      snippetChars: cfg.snippetChars,
      now,
      tuning,
      excludedFiles: searchExclusions(cfg),
    }, pathNotice);
    // For the md format's summaries to read links as the snippets do: one meta row, for that format only.
    return { ...found, links: argv.format === 'md' && !argv.ids ? linkReadingOf(db) : DEFAULT_LINK_READING };
  }, { tsmDir: tsmDir(cfg), vault: cfg.vault, foundNothing: (r) => r.resp.total === 0 });
  // The query as stdout (xml's query attribute, md's "No results found") and every line below quote it: cut
  // to QUERY_ECHO_CHARS, as MCP and the hook echo it (a 110 KB query printed 111,788 bytes of empty XML).
  const echo = queryEcho(query);
  writeOut(await render({ ...resp, query: echo }, argv, cfg, now, links));
  const quoted = JSON.stringify(echo);
  writeErr(`tsm: ${count(resp.total, 'result')} for ${quoted}\n`);
  if (resp.didYouMean) writeErr(`tsm: did you mean: ${queryEcho(resp.didYouMean)}\n`);
  for (const n of notices) writeErr(`tsm: ${n}\n`);
  if (query.trim() !== '' && !ranksBy(syntax)) writeErr(`tsm: ${quoted} ${NOTHING_TO_RANK}\n`);
  if (resp.datesIgnored) writeErr(`tsm: no match dated ${dateSpan(resp.datesIgnored)} (read from the query); searched every date\n`);
  const first = resp.datesFirst;
  if (first) writeErr(`tsm: ${first.notes} ${first.notes === 1 ? 'match' : 'matches'} dated ${dateSpan(first)} (read from the query) first, then other dates\n`);
  const listed = resp.datesListed;
  if (listed) {
    writeErr(`tsm: no note dated ${dateSpan(listed)} (read from the query) holds its words: the ${listed.notes} ${listed.notes === 1 ? 'note' : 'notes'} of those dates first, newest first, then other dates\n`);
  }
  const only = resp.datesOnly;
  if (only) {
    writeErr(
      resp.total > 0
        ? `tsm: ${quoted} names only dates: the notes dated ${dateSpan(only)}, newest first\n`
        : `tsm: no note dated ${dateSpan(only)} (${quoted} names only dates)\n`,
    );
  }
  if (resp.indexIncomplete) writeErr(`tsm: ${INCOMPLETE_INDEX_NOTE}\n`);
}

/** `from 2026-11-22 to before 2026-11-23`, or one side of it. */
function dateSpan(r: { after?: string; before?: string }): string {
  return [r.after ? `from ${r.after}` : '', r.before ? `before ${r.before}` : ''].filter(Boolean).join(' to ');
}

/**
 * The query's vector from the vault's resident model (`tsm serve`, `tsm watch`), within QUERY_DEADLINE_MS;
 * undefined when no resident listens for the vault, and on any failure (no process, refused, timeout, a server that
 * died mid-answer), when search is lexical. Silent unless --verbose: a search that works without the model
 * is not an error. (A vector of another model than the index's vectors is ignored by search itself.)
 */
async function askResident(cfg: TsmConfig, text: string, tuning: Partial<Tuning>, verbose: boolean): Promise<QueryVector | undefined> {
  // A resident process listens only when the vault has a model: no socket file, no model (one stat).
  if ((tuning.neuralWeight === 0 && tuning.neuralAddWeight === 0) || !text.trim() || !existsSync(socketPath(cfg.vault))) {
    if (verbose) writeErr(`tsm: lexical search only: ${await whyNoResident(cfg, text, tuning)}\n`);
    return undefined;
  }
  const { askQueryVector } = await import('../embed/socket-client.js');
  const started = performance.now();
  const r = await askQueryVector(cfg.vault, text);
  const ms = (performance.now() - started).toFixed(0);
  if ('error' in r) {
    if (verbose) writeErr(`tsm: lexical search only: ${r.error} (${ms} ms)\n`);
    return undefined;
  }
  if (verbose) writeErr(`tsm: query vector from the resident model in ${ms} ms (${fingerprintModel(r.fingerprint)})\n`);
  return r;
}

/**
 * --verbose, when no resident was asked: why. A vault without a model was told "no resident process (tsm
 * serve, tsm watch) with a model for this vault", as if a model were there and only its process missing;
 * the model's folder is looked at here, under --verbose only (embed/status.ts reads files, loads no model).
 */
async function whyNoResident(cfg: TsmConfig, text: string, tuning: Partial<Tuning>): Promise<string> {
  if (tuning.neuralWeight === 0 && tuning.neuralAddWeight === 0) return 'the neural ranker is switched off';
  if (!text.trim()) return 'the query has no words to embed';
  const { embeddingStatus } = await import('../embed/status.js');
  const { model } = embeddingStatus(cfg);
  if (!model.ok) return `the neural ranker needs an embedding model, and this vault has no usable one (${model.problem}; optional: docs/embeddings.md)`;
  return `no resident process (tsm serve, tsm watch) holds the vault's model: start one to rank by meaning too`;
}

/** --verbose: whether the index holds vectors of the query vector's model, and how many sections have one. */
function vectorCoverage(db: Database, qv: QueryVector): string {
  const store = new VectorStore(db);
  const model = store.modelOf(qv.fingerprint, qv.vector.length);
  if (model === null) {
    // The index holds another model's: the resident was loaded before the vault's model changed, and embeds
    // nothing here (it stands down at its next embedding run); "the resident embeds them" was not so.
    const held = store.heldModel();
    if (held) return `the index holds vectors of another model (${fingerprintModel(held.fingerprint)}), not of the resident's: lexical search only; restart \`tsm watch\` / \`tsm serve\` to load the vault's model`;
    return 'the index holds no vectors of this model yet (the resident embeds them, or `tsm index --embed`): lexical search only';
  }
  const c = store.counts(model);
  const listed = nearestNotes(db, qv, false);
  const how = listed
    ? `it may add the ${listed.length} nearest notes the resident listed`
    : qv.nearest
      ? "it reorders only: the resident's nearest notes are of another index file, or of this one before a rebuild"
      : 'it reorders only: the resident lists no nearest notes (its copy of the vectors is not read yet)';
  return `neural ranker on: ${c.embedded} of ${c.sections} sections have vectors of this model; ${how}`;
}

async function buildFirstIndex(cfg: TsmConfig): Promise<void> {
  // A file where the index's folder belongs is said before "no index yet; indexing", which it stops.
  checkIndexFiles(cfg.db);
  writeErr(`tsm: no index yet; indexing ${cfg.vault}…\n`);
  const { syncVault } = await import('../index/sync.js');
  const s = await syncVault(cfg);
  writeErr(`tsm: indexed ${count(s.added, 'note')} in ${s.seconds.toFixed(2)} s\n`);
}

/**
 * JSON built past the longest string Node.js holds (2^29 - 24 characters, about 537 million): measured, three
 * 20 MB notes with `-n 100 --all-sections --full --include-content 50` (each top hit carries its whole file)
 * ended in "tsm: RangeError: Invalid string length" and a stack trace. Nothing is written then, so stdout
 * holds no half document; the line says what made it so large and how to ask for less.
 */
function tooLargeForJson(resp: SearchResponse, argv: Record<string, unknown>, contents: Map<number, string>): UserError {
  const mb = (chars: number) => `${(chars / 1e6).toFixed(1)} million characters`;
  const files = [...contents.values()].reduce((n, t) => n + t.length, 0);
  const sections = argv.full ? resp.hits.reduce((n, h) => n + h.content.length, 0) : 0;
  const parts = [files ? `--include-content ${argv['include-content']}: ${mb(files)} of whole files` : '', sections ? `--full: ${mb(sections)} of section text` : ''].filter(Boolean);
  return new UserError(
    `the JSON of ${count(resp.hits.length, 'result')} is longer than Node.js can hold in one string (about 537 million characters${parts.length ? `; ${parts.join(', ')}` : ''}): ` +
      'ask for fewer results (-n), a smaller --include-content, or leave out --full',
  );
}

async function render(resp: SearchResponse, argv: Record<string, unknown>, cfg: TsmConfig, now: Date, links: LinkReading): Promise<string> {
  if (argv.ids) {
    const { formatIds } = await import('../format/json.js');
    return withNewline(formatIds(resp));
  }
  switch (argv.format) {
    case 'json': {
      const { formatJson } = await import('../format/json.js');
      const n = (argv['include-content'] as number | undefined) ?? 0;
      const contents = new Map<number, string>();
      const files = new Map<string, string | null>(); // one read per note, though several of its sections are top N
      for (const hit of resp.hits.slice(0, n)) {
        if (!files.has(hit.path)) {
          try {
            files.set(hit.path, readRegularFile(join(cfg.vault, hit.path)));
          } catch {
            // deleted since it was indexed, or no longer a regular file: the hit stays, without file content
            files.set(hit.path, null);
          }
        }
        const file = files.get(hit.path);
        if (file != null) contents.set(hit.id, file);
      }
      try {
        return withNewline(formatJson(resp, { full: Boolean(argv.full), contents }));
      } catch (err) {
        if (err instanceof RangeError && /Invalid string length/.test(err.message)) throw tooLargeForJson(resp, argv, contents);
        throw err;
      }
    }
    case 'xml': {
      const { formatXml } = await import('../format/xml.js');
      const budget = (argv.budget as number | undefined) ?? cfg.snippetBudget;
      return withNewline(formatXml(resp, { budget }));
    }
    case 'md': {
      const { formatMarkdown } = await import('../format/md.js');
      return withNewline(formatMarkdown(resp, { detail: (argv.detail as 'auto') ?? 'auto', now, links }));
    }
    default: {
      const { formatText } = await import('../format/text.js');
      return withNewline(formatText(resp, { color: useColor(isTerminal(1)) }));
    }
  }
}

function withNewline(s: string): string {
  return s.endsWith('\n') || s === '' ? s : `${s}\n`;
}
