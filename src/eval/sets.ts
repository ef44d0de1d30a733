// Judged query sets (eval/qrels/*.json) and the vaults they are judged on. A set file names its vault —
// a folder of the repository or a tarball of the shared corpora, extracted once into the eval cache — and
// the date its temporal queries are asked on (`now`), so that every run of a set scores alike.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { Judgements } from './metrics.js';

export interface JudgedQuery {
  query: string;
  relevant: Judgements;
  kind?: string;
  lang?: string;
}

export interface QuerySet {
  name: string;
  /** The qrels file, absolute. */
  file: string;
  vault: { dir: string } | { tarball: string; root: string };
  /** YYYY-MM-DD: the day the queries are asked on (temporal expressions, recency). */
  now?: string;
  queries: JudgedQuery[];
}

/** Where extracted corpora and cached indexes live (TSM_EVAL_CACHE, else os.tmpdir()/tsm-eval-cache). */
export function cacheDir(): string {
  const dir = process.env.TSM_EVAL_CACHE || join(tmpdir(), 'tsm-eval-cache');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Reads a qrels file: `{ name, vault, now, queries }`, or a bare array of queries (vault given by --vault). A set
 * judged on a twin of another set's vault (the same notes, dated: eval/make-dated-corpora.mjs) names that set's
 * file instead of repeating its judgements: `"queriesOf": "til-en.json"` (beside it; its `now` unless one is given).
 */
export function loadSet(file: string, referring: readonly string[] = []): QuerySet {
  const abs = resolve(file);
  if (referring.includes(abs)) throw new Error(`${referring[0]}: "queriesOf" comes back to ${abs}`);
  const data = JSON.parse(readFileSync(abs, 'utf8')) as unknown;
  if (Array.isArray(data)) return { name: basename(abs, '.json'), file: abs, vault: { dir: '' }, queries: data as JudgedQuery[] };
  const d = data as Partial<QuerySet> & { queriesOf?: unknown };
  if (typeof d.queriesOf === 'string' && d.queries === undefined) {
    const of = loadSet(resolve(dirname(abs), d.queriesOf), [...referring, abs]);
    d.queries = of.queries;
    d.now ??= of.now;
  }
  if (!Array.isArray(d.queries) || !d.vault) throw new Error(`${file}: expected { "vault": …, "queries": [ … ] } or an array of queries`);
  if (d.now !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(d.now)) throw new Error(`${file}: "now" must be YYYY-MM-DD, got ${JSON.stringify(d.now)}`);
  return { name: d.name ?? basename(abs, '.json'), file: abs, vault: d.vault, now: d.now, queries: d.queries };
}

/** Every set under `dir` (eval/qrels), by file name. */
export function defaultSets(dir: string): QuerySet[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => loadSet(join(dir, f)));
}

/**
 * The vault folder of a set. A repository folder is resolved from the repository root; a tarball is looked
 * for in TSM_CORPORA, then ../shared/corpora next to the repository, and extracted once into the cache.
 */
export function vaultDir(set: QuerySet, repoRoot: string): string {
  if ('dir' in set.vault) {
    if (!set.vault.dir) throw new Error(`${set.file}: no vault named; pass --vault DIR`);
    return resolve(repoRoot, set.vault.dir);
  }
  const { tarball, root } = set.vault;
  const target = join(cacheDir(), 'vaults', root);
  if (existsSync(target)) return target;
  const candidates = corpusCandidates(tarball, repoRoot);
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`${set.name}: corpus ${tarball} not found (looked in ${candidates.join(', ')}); set TSM_CORPORA to its folder`);
  // Extract beside the target and rename, so that an interrupted extraction never passes for a vault.
  const part = `${target}.part-${process.pid}`;
  rmSync(part, { recursive: true, force: true });
  mkdirSync(part, { recursive: true });
  const r = spawnSync('tar', ['-xzf', found, '-C', part], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`extracting ${found} failed`);
  if (!existsSync(join(part, root))) throw new Error(`${found} holds no ${root}/ folder`);
  mkdirSync(dirname(target), { recursive: true });
  renameSync(join(part, root), target);
  rmSync(part, { recursive: true, force: true });
  return target;
}

/** Where a corpus tarball is looked for: TSM_CORPORA, then ../shared/corpora beside the repository (or its worktree). */
function corpusCandidates(tarball: string, repoRoot: string): string[] {
  return [process.env.TSM_CORPORA, join(repoRoot, '..', 'shared', 'corpora'), join(repoRoot, '..', '..', 'shared', 'corpora')]
    .filter((d): d is string => Boolean(d))
    .map((d) => join(d, tarball));
}

/**
 * Whether a set's vault can be had here: a repository folder always; a corpus when it is extracted in the
 * cache or its tarball is found. The Obsidian Help sets' corpora are made from a clone of their public
 * repository (eval/qrels/README.md), not shipped with the shared corpora: a default run leaves them out
 * where they are missing, and says so.
 */
export function vaultAvailable(set: QuerySet, repoRoot: string): boolean {
  if ('dir' in set.vault) return true;
  if (existsSync(join(cacheDir(), 'vaults', set.vault.root))) return true;
  return corpusCandidates(set.vault.tarball, repoRoot).some((c) => existsSync(c));
}
