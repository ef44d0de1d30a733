// tsm index: bring the index in step with the vault and print what changed.
import { join } from 'node:path';
import type { NotTaken, SyncSummary } from '../core/types.js';
import type { Embedder } from '../embed/types.js';
import type { EmbedSummary } from '../index/embed-job.js';
import { syncVault } from '../index/sync.js';
import type { TsmConfig } from '../vault/config.js';
import { oneLine } from '../text/controls.js';
import { gitWorkTreeRoot } from '../vault/paths.js';
import { configFrom, printJson } from './args.js';
import { progressBar } from './progress.js';
import { onStopSignals, stopExitCode } from '../core/signals.js';
import { UsageError, UserError } from './run.js';
import { readAllStdin, writeErr, writeOut } from './stdio.js';
import { count } from '../text/count.js';

export async function run(argv: Record<string, unknown>): Promise<void> {
  // Checked before the sync, which can take a while: a bad --threads said so only after it.
  const threads = argv.embed ? threadsOf(argv.threads) : noThreads(argv.threads);
  const cfg = configFrom(argv, { cwdIsVault: true });
  const paths = argv['files-from-stdin'] ? readPathsFromStdin() : undefined;
  // The model too is loaded before the sync: --embed is part of what was asked, and without a model the whole
  // sync ran and printed its summary, then the command exited 1 naming `tsm model pull`.
  const embedder = argv.embed ? await loadModel(cfg, threads) : null;
  try {
    const summary = await sync(cfg, argv, paths);
    const embedded = embedder ? await embed(cfg, embedder) : undefined;
    if (argv.json) printJson({ vault: cfg.vault, db: cfg.db, ...summary, ...(embedded ? { embedding: embedded } : {}) });
  } finally {
    await embedder?.close();
  }
}

async function sync(cfg: TsmConfig, argv: Record<string, unknown>, paths: string[] | undefined): Promise<SyncSummary> {
  const bar = progressBar('indexing');
  const summary = await syncVault(cfg, {
    full: Boolean(argv.full),
    paths,
    // A relative path names a note from the vault root; failing that, from where the command runs (a user in
    // a subfolder), then from the git work tree's root (what `git diff --name-only` prints, from anywhere).
    pathBases: [process.cwd(), gitWorkTreeRoot(cfg.vault)].filter((b): b is string => b !== null),
    onProgress: (done, total) => {
      if (total >= 50) bar.update(done, total);
    },
  });
  bar.end();
  if (summary.notTaken?.length) writeErr(notTakenLine(summary.notTaken, paths?.length ?? 0));
  if (summary.attachments?.length) writeErr(attachmentsLine(summary.attachments, paths?.length ?? 0, cfg.extensions));
  if (!argv.json) {
    const s = summary;
    writeOut(
      `${s.added} added, ${s.updated} updated, ${s.removed} removed, ${s.unchanged} unchanged, ${s.skipped} skipped` +
        ` in ${s.seconds.toFixed(2)} s${s.warnings ? ` (${count(s.warnings, 'warning')}: tsm status)` : ''}\n`,
    );
  }
  return summary;
}

/** The vault's model for `--embed`, or the error naming how to get one. */
async function loadModel(cfg: TsmConfig, threads: number): Promise<Embedder> {
  const { loadVaultEmbedder } = await import('../embed/query-embedder.js');
  const embedder = await loadVaultEmbedder(cfg, { threads });
  if (!embedder) {
    throw new UserError(
      `--embed needs a model: run \`tsm model pull\` (the model named by "model", ${cfg.model}), or set "modelDir" in ` +
        `${join(cfg.vault, '.tsm', 'config.json')} to a model folder of your own (docs/embeddings.md)`,
    );
  }
  return embedder;
}

/**
 * `--embed`: after the sync, gives every section lacking a vector of the vault's model its vectors
 * (src/index/embed-job.ts): resumable (committed every few dozen sections), one thread unless --threads.
 */
async function embed(cfg: TsmConfig, embedder: Embedder): Promise<EmbedSummary> {
  const { openWriter } = await import('../index/db.js');
  const { embedPending } = await import('../index/embed-job.js');
  const { db } = openWriter(cfg.db, { vault: cfg.vault });
  const bar = progressBar('embedding');
  // Ctrl-C (or SIGTERM, SIGHUP) stops the run between two sections: what is committed stays, the batch in
  // hand is committed, and the summary says how far it got. Killed by the signal, it said nothing at all. A
  // second signal stops at once (the batches committed stay all the same).
  const stop = new AbortController();
  let stoppedBy: NodeJS.Signals | null = null;
  const offSignals = onStopSignals((name) => {
    stoppedBy = name;
    stop.abort();
  });
  try {
    const s = await embedPending(db, embedder, { onProgress: (done, total) => bar.update(done, total), signal: stop.signal });
    bar.end();
    // On a TTY the bar showed the way; elsewhere (a log, a CI job) this one line is the whole report.
    const interrupted = s.stopped ? stoppedBy : null; // a signal after the last section stopped nothing
    writeErr(embedLine(s, interrupted) + (s.failed ? `the model failed on ${count(s.failed, 'section')}: ${s.firstError}\n` : ''));
    if (interrupted) process.exitCode = stopExitCode(interrupted, true);
    return s;
  } finally {
    offSignals();
    bar.end();
    db.close();
  }
}

/** The run's one line: what it embedded, and what is left for the next `tsm index --embed` (a stopped run's too). */
function embedLine(s: EmbedSummary, stoppedBy: NodeJS.Signals | null): string {
  const left = s.remaining ? ` (${s.remaining} left: run \`tsm index --embed\` again${stoppedBy ? ', which embeds only those' : ''})` : '';
  return `embedded ${count(s.embedded, 'section')} in ${s.seconds.toFixed(2)} s${stoppedBy ? `, then interrupted (${stoppedBy})` : ''}; ${s.withVectors} of ${s.total} have vectors${left}\n`;
}

/** --threads without --embed: it sets the model's threads, and nothing else reads it (it was ignored). */
function noThreads(value: unknown): number {
  if (value !== undefined) throw new UsageError('--threads sets the embedding model\'s threads: use it with --embed (indexing needs no setting)');
  return 1;
}

/** Checked against its range (1 to 64) by numberOption (src/cli/options.ts). */
function threadsOf(value: unknown): number {
  return (value as number | undefined) ?? 1;
}

/**
 * How many listed paths were not taken, then the first few, one a line with its reason: a typo or a wrong
 * folder shows at once. They were joined on the count's line with "; ", a run that a long path or a few
 * reasons made hard to read and to grep for one path.
 */
function notTakenLine(notTaken: NotTaken[], listed: number): string {
  // A path as it was listed: one that holds escape sequences or newlines must not move the cursor or forge a line.
  const shown = notTaken.slice(0, NOT_TAKEN_SHOWN).map((n) => `  ${oneLine(n.path)}: ${n.reason}\n`);
  const more = notTaken.length > shown.length ? `  … and ${notTaken.length - shown.length} more (--json lists all)\n` : '';
  const rule = notTaken.some((n) => n.reason === 'not found')
    ? 'tsm: a relative path is read from the vault root, else from the current folder, else from the root of the git work tree holding the vault\n'
    : '';
  return `tsm: ${notTaken.length} of ${count(listed, 'listed path')} not taken:\n${shown.join('')}${more}${rule}`;
}

const NOT_TAKEN_SHOWN = 5;

/**
 * The listed paths kept as attachments, not notes, as many as notTakenLine shows: `rg -l LoRa | tsm index
 * --files-from-stdin` listed notes.txt, recorded as an attachment without a word, while every other path
 * not read as a note had its line, so the user went on to search the .txt for words it was never read for.
 */
function attachmentsLine(attachments: string[], listed: number, extensions: string[]): string {
  const one = attachments.length === 1;
  const shown = attachments.slice(0, NOT_TAKEN_SHOWN).map((p) => `  ${oneLine(p)}\n`);
  const more = attachments.length > shown.length ? `  … and ${attachments.length - shown.length} more (--json lists all)\n` : '';
  const what = one ? 'an attachment, not a note' : 'attachments, not notes';
  const rule = `a note ends in ${extensions.join(', ')}: "extensions" in .tsm/config.json sets which`;
  return `tsm: ${attachments.length} of ${count(listed, 'listed path')} kept as ${what} (${rule}):\n${shown.join('')}${more}`;
}

function readPathsFromStdin(): string[] {
  let text: string;
  try {
    text = readAllStdin();
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'EISDIR' ? 'it is a folder' : e.code === 'EBADF' ? 'it is closed' : e.message;
    throw new UserError(`--files-from-stdin: cannot read the paths from standard input (${why}): pipe them in, one a line or NUL-separated (\`git diff --name-only | tsm index --files-from-stdin\`)`);
  }
  // No file name holds a NUL, so input that does is a NUL-separated list (`find -print0`, `git diff -z
  // --name-only`, `rg -l0`), its names exact: unquoted by git, and free to hold spaces and newlines. Read as
  // lines, such a list was one path, "not a note".
  if (text.includes('\0')) return text.split('\0').filter(Boolean);
  // A line is a name as it is: `git diff --name-only` prints ` draft.md` for a note whose name starts with a
  // space, which trimming made "not found". A padded line that names nothing so is tried trimmed (sync.ts locate).
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '')
    .map((l) => (/^\s*".*"\s*$/.test(l) ? unquoteGitPath(l.trim()) : l));
}

/**
 * git prints a path holding a non-ASCII character, a quote, a backslash or a control character in C quotes,
 * its bytes in octal (`"caf\303\251.md"`; core.quotePath, on by default): every Japanese file name. A line in
 * double quotes is read that way; no note's name both starts and ends with `"` (it ends in its extension).
 */
function unquoteGitPath(line: string): string {
  if (line.length < 2 || !line.startsWith('"') || !line.endsWith('"')) return line;
  const body = line.slice(1, -1);
  const escape = /\\(?:([0-3][0-7]{2})|([abtnvfr"\\]))/y;
  const parts: Buffer[] = [];
  let plain = ''; // whole UTF-16 runs, so a character outside the BMP is never split
  for (let i = 0; i < body.length; ) {
    if (body[i] !== '\\') {
      plain += body[i++];
      continue;
    }
    escape.lastIndex = i;
    const m = escape.exec(body);
    if (!m) return line; // not git's quoting after all: the line as it is
    parts.push(Buffer.from(plain, 'utf8'), Buffer.from([m[1] !== undefined ? parseInt(m[1], 8) : GIT_ESCAPES[m[2]]]));
    plain = '';
    i = escape.lastIndex;
  }
  parts.push(Buffer.from(plain, 'utf8'));
  return Buffer.concat(parts).toString('utf8');
}

const GIT_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
