// npm run eval                      every set in eval/qrels/ with this checkout (nDCG@10, MRR@10, Recall@5, Shown@5 by kind, language)
// npm run eval -- --compare A B     the same for two sides, with the paired per-query difference B − A
// A side is a ranking variant (src/search/variants.ts) or a git revision, optionally `rev:variant`.
// Options: --sets a,b (by set name), --qrels FILE [--vault DIR] (one set), --sealed (the sets of eval/sealed/
// instead: never tuned on, run at the end of a round), --variant V (or TSM_RANK_VARIANT),
// --tune JSON (extra tuning), --now YYYY-MM-DD (overrides the set's), --db FILE, --verbose, --json,
// --model DIR (the neural ranker with this model folder: the sets' indexes are embedded, their vectors kept
// in the cached index, and each query embedded; this checkout's sides only, a revision side stays lexical).
// `npm run eval -- --model DIR --compare neural-off base` measures what the neural ranker adds.
// --embedder FILE: the same with an encoder that is a JavaScript module (its loadEmbedder() gives an
// Embedder), e.g. bench/use-lite/ (`node bench/use-lite/setup.mjs` installs it).
// Indexes are built once per build and set and kept in the eval cache (TSM_EVAL_CACHE, else
// os.tmpdir()/tsm-eval-cache), with the extracted corpora.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Tuning } from '../search/rank.js';
import { variantTuning } from '../search/variants.js';
import { buildRevision, indexSourceKey, parseSide, type Side } from './builds.js';
import { formatCompare, formatRun, groups, pairedDiff, summarize, type QueryRow } from './report.js';
import { openNeural, openNeuralModule, type NeuralEval } from './neural.js';
import { runQueries } from './run.js';
import { cacheDir, defaultSets, loadSet, vaultAvailable, vaultDir, type QuerySet } from './sets.js';

const USAGE =
  'usage: npm run eval -- [--compare A B] [--sets NAMES] [--sealed] [--qrels FILE [--vault DIR]] [--variant V] [--tune JSON] [--model DIR | --embedder FILE] [--now YYYY-MM-DD] [--db FILE] [--verbose] [--json]\n';

// --help prints the usage; an unknown or malformed option is a one-line error with the usage, not a stack.
const { values, positionals } = parseCommandLine();

function parseCommandLine() {
  if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  try {
    return parseOptions();
  } catch (err) {
    process.stderr.write(`eval: ${(err as Error).message.split('. ')[0]}\n${USAGE}`);
    process.exit(1);
  }
}

function parseOptions() {
  return parseArgs({
    allowPositionals: true,
    options: {
      compare: { type: 'boolean', default: false },
      sets: { type: 'string' },
      sealed: { type: 'boolean', default: false },
      vault: { type: 'string' },
      qrels: { type: 'string' },
      db: { type: 'string' },
      json: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
      now: { type: 'string' },
      tune: { type: 'string' },
      variant: { type: 'string' },
      model: { type: 'string' },
      embedder: { type: 'string' },
      // Internal: run one set and print its per-query rows as JSON (how a revision's build is asked).
      rows: { type: 'boolean', default: false },
    },
  });
}

// dist/eval.js → the checkout it was built from.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

let neural: NeuralEval | undefined;
try {
  if (values.model && values.embedder) throw new Error(`--model and --embedder: choose one\n${USAGE}`);
  if (values.model || values.embedder) {
    neural = values.model ? await openNeural(resolve(values.model)) : await openNeuralModule(resolve(values.embedder as string));
    process.stderr.write(`eval: neural ranker with ${neural.label}\n`);
  }
  await main();
} catch (err) {
  process.stderr.write(`eval: ${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await neural?.close();
}

async function main(): Promise<void> {
  if (values.compare && positionals.length !== 2) throw new Error(`--compare takes two sides\n${USAGE}`);
  if (!values.compare && positionals.length) throw new Error(`unexpected ${positionals.join(' ')}\n${USAGE}`);
  const tune = values.tune ? (JSON.parse(values.tune) as Partial<Tuning>) : {};
  const sets = chooseSets();

  if (values.rows) {
    const set = sets[0];
    const rows = await runQueries(set.queries, {
      vault: vaultDir(set, repoRoot),
      db: values.db ?? dbFor(set, indexSourceKey(repoRoot)),
      now: values.now ?? set.now,
      tuning: { ...variantTuning(values.variant ?? process.env.TSM_RANK_VARIANT), ...tune },
      neural,
    });
    process.stdout.write(`${JSON.stringify(rows)}\n`);
    return;
  }

  if (!values.compare) {
    const variant = values.variant ?? process.env.TSM_RANK_VARIANT ?? 'base';
    const side: Side = { label: variant, variant, commit: null };
    const all: Record<string, unknown> = {};
    for (const set of sets) {
      const rows = await runSide(side, set, tune);
      if (values.verbose) for (const r of rows) printQuery(r, set);
      if (values.json) all[set.name] = Object.fromEntries(groups(rows).map(([g, rs]) => [g, rounded(summarize(rs))]));
      else process.stdout.write(`${formatRun(`${set.name} (${variant}${set.now ? `, now ${values.now ?? set.now}` : ''})`, rows)}\n\n`);
    }
    if (values.json) process.stdout.write(`${JSON.stringify(all)}\n`);
    return;
  }

  const [a, b] = positionals.map((p) => parseSide(p, repoRoot));
  const pooledA: QueryRow[] = [];
  const pooledB: QueryRow[] = [];
  const all: Record<string, unknown> = {};
  for (const set of sets) {
    const ra = await runSide(a, set, tune);
    const rb = await runSide(b, set, tune);
    pooledA.push(...ra.map((r) => ({ ...r, query: `${set.name}\u0000${r.query}` })));
    pooledB.push(...rb.map((r) => ({ ...r, query: `${set.name}\u0000${r.query}` })));
    if (values.json) all[set.name] = { a: summarize(ra), b: summarize(rb), diff: pairedDiff(ra, rb) };
    else process.stdout.write(`${formatCompare(`${set.name}: A = ${a.label}, B = ${b.label}`, ra, rb)}\n\n`);
    if (values.verbose) printDifferences(ra, rb, set);
  }
  const overall = pairedDiff(pooledA, pooledB);
  if (values.json) process.stdout.write(`${JSON.stringify({ sets: all, overall })}\n`);
  else {
    const sign = overall.mean >= 0 ? '+' : '−';
    process.stdout.write(
      `all sets (${overall.n} queries): ΔnDCG@10 ${sign}${Math.abs(overall.mean).toFixed(3)} ± ${overall.se.toFixed(3)}, W/L/T ${overall.wins}/${overall.losses}/${overall.ties}\n`,
    );
  }
}

function chooseSets(): QuerySet[] {
  if (values.qrels) {
    if (values.sealed) throw new Error(`--sealed and --qrels: choose one\n${USAGE}`);
    const set = loadSet(values.qrels);
    return [values.vault ? { ...set, vault: { dir: resolve(values.vault) } } : set];
  }
  if (values.vault) throw new Error(`--vault needs --qrels FILE\n${USAGE}`);
  // Sealed sets are kept out of the default run: a set every change is measured on is a set tuned on.
  const all = defaultSets(join(repoRoot, 'eval', values.sealed ? 'sealed' : 'qrels'));
  if (!values.sets) {
    const missing = all.filter((s) => !vaultAvailable(s, repoRoot));
    for (const s of missing) process.stderr.write(`eval: ${s.name} left out: its corpus ${'tarball' in s.vault ? s.vault.tarball : ''} is not here (eval/qrels/README.md says how to make it; TSM_CORPORA names its folder)\n`);
    return all.filter((s) => !missing.includes(s));
  }
  const names = values.sets.split(',');
  const unknown = names.filter((n) => !all.some((s) => s.name === n));
  if (unknown.length) throw new Error(`unknown set ${unknown.join(', ')} (known: ${all.map((s) => s.name).join(', ')})`);
  return all.filter((s) => names.includes(s.name));
}

function dbFor(set: QuerySet, buildKey: string): string {
  const dir = join(cacheDir(), 'index');
  mkdirSync(dir, { recursive: true });
  // By the vault's folder too: an index holds one vault's notes (src/index/index-vault.ts), and two checkouts
  // (worktrees) have two `vault-example/` folders.
  const vault = createHash('sha1').update(vaultDir(set, repoRoot)).digest('hex').slice(0, 8);
  return join(dir, `${set.name}-${vault}-${buildKey}.db`);
}

/** One side on one set: this checkout in this process, a revision by its own build. */
async function runSide(side: Side, set: QuerySet, tune: Partial<Tuning>): Promise<QueryRow[]> {
  const now = values.now ?? set.now;
  if (!side.commit) {
    return runQueries(set.queries, {
      vault: vaultDir(set, repoRoot),
      db: values.db ?? dbFor(set, indexSourceKey(repoRoot)),
      now,
      tuning: { ...variantTuning(side.variant), ...tune },
      neural,
    });
  }
  const evalJs = buildRevision(side.commit, repoRoot);
  const args = [evalJs, '--rows', '--qrels', set.file, '--vault', vaultDir(set, repoRoot), '--db', dbFor(set, `rev-${side.commit.slice(0, 12)}`), '--variant', side.variant];
  if (now) args.push('--now', now);
  if (values.tune) args.push('--tune', values.tune);
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${side.label} on ${set.name} failed (exit ${r.status})`);
  return JSON.parse(r.stdout) as QueryRow[];
}

function rounded(s: ReturnType<typeof summarize>) {
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return { n: s.n, ndcg10: r(s.ndcg10), mrr10: r(s.mrr10), recall5: r(s.recall5), shown5: r(s.shown5) };
}

function printQuery(r: QueryRow, set: QuerySet): void {
  const j = set.queries.find((q) => q.query === r.query);
  process.stderr.write(`${r.ndcg10.toFixed(2)}  [${r.kind}/${r.lang}] ${r.query.slice(0, 70)}\n`);
  const top = r.top ?? [];
  for (const p of top) process.stderr.write(`      ${j?.relevant[p] ? `[${j.relevant[p]}]` : '   '} ${p}\n`);
  // The judged notes the first ten missed: what a change would have to bring up.
  const missed = Object.entries(j?.relevant ?? {}).filter(([p, g]) => g > 0 && !top.includes(p));
  for (const [p, g] of missed) process.stderr.write(`    - [${g}] ${p}\n`);
}

/** The queries whose nDCG@10 moved, largest move first, with both top fives. */
function printDifferences(a: QueryRow[], b: QueryRow[], set: QuerySet): void {
  const bq = new Map(b.map((r) => [r.query, r]));
  const moved = a
    .map((r) => ({ a: r, b: bq.get(r.query) as QueryRow }))
    .filter((x) => x.b && Math.abs(x.b.ndcg10 - x.a.ndcg10) > 1e-9)
    .sort((x, y) => Math.abs(y.b.ndcg10 - y.a.ndcg10) - Math.abs(x.b.ndcg10 - x.a.ndcg10));
  for (const { a: ra, b: rb } of moved) {
    const j = set.queries.find((q) => q.query === ra.query);
    const mark = (p: string) => (j?.relevant[p] ? `[${j.relevant[p]}]` : '   ');
    process.stderr.write(`${ra.ndcg10.toFixed(2)} → ${rb.ndcg10.toFixed(2)}  [${ra.kind}/${ra.lang}] ${ra.query.slice(0, 80)}\n`);
    for (let i = 0; i < 5; i++) {
      const pa = ra.top?.[i] ?? '';
      const pb = rb.top?.[i] ?? '';
      process.stderr.write(`    A ${mark(pa)} ${pa.slice(-60).padEnd(60)}  B ${mark(pb)} ${pb.slice(-60)}\n`);
    }
  }
}
