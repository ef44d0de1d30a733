// What `--compare A B` compares: a side is a named ranking variant of this checkout (`base`, `no-head`,
// `a+b`), or a git revision (`main`, `HEAD~3`, `abc123:variant`) built in the eval cache. A revision is
// unpacked with `git archive` (no worktree to clean up), given this checkout's node_modules and this
// checkout's eval harness (src/eval), and built with its own build script: its search, its index, the
// same scoring.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RANK_VARIANTS } from '../search/variants.js';
import { cacheDir } from './sets.js';

export interface Side {
  /** As typed. */
  label: string;
  /** The ranking variant (`base` when none). */
  variant: string;
  /** Commit of a revision side; null for this checkout. */
  commit: string | null;
}

/** `variant`, `rev` or `rev:variant`; a name that is both a variant and a revision is the variant. */
export function parseSide(spec: string, repoRoot: string): Side {
  const known = (v: string) => v.split('+').every((n) => n in RANK_VARIANTS);
  if (known(spec)) return { label: spec, variant: spec, commit: null };
  const colon = spec.lastIndexOf(':');
  const rev = colon > 0 ? spec.slice(0, colon) : spec;
  const variant = colon > 0 ? spec.slice(colon + 1) : 'base';
  const r = spawnSync('git', ['-C', repoRoot, 'rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { encoding: 'utf8' });
  if (r.status !== 0) {
    throw new Error(`"${spec}" is neither a ranking variant (${Object.keys(RANK_VARIANTS).join(', ')}) nor a git revision`);
  }
  return { label: spec, variant, commit: r.stdout.trim() };
}

/** Hash of the sources an index depends on: a cached index is rebuilt when any of them changes. */
export function indexSourceKey(repoRoot: string): string {
  const h = createHash('sha256');
  const skip = new Set(['search', 'eval', 'format', 'cli', 'hooks', 'mcp']);
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) {
        if (dir === join(repoRoot, 'src') && skip.has(name)) continue;
        walk(p);
      } else if (name.endsWith('.ts')) {
        h.update(relative(repoRoot, p));
        h.update(readFileSync(p));
      }
    }
  };
  walk(join(repoRoot, 'src'));
  return `work-${h.digest('hex').slice(0, 12)}`;
}

const STUB_VARIANTS = `// Written by the eval harness: this revision predates ranking variants.
export const RANK_VARIANTS = { base: {} };
export function variantTuning(spec) {
  if (spec && spec !== 'base') throw new Error('this revision has no ranking variants (only base)');
  return {};
}
`;

const STUB_NEURAL = `// Written by the eval harness: this revision predates the resident's vectors in memory (the harness's neural.ts needs them).
export async function openNeural() {
  throw new Error('this revision predates the neural ranker as the eval now measures it: --model applies to this checkout only');
}
export async function openNeuralModule() {
  throw new Error('this revision predates the neural ranker as the eval now measures it: --embedder applies to this checkout only');
}
`;

/** Builds a revision with this checkout's eval harness; returns the path of its dist/eval.js. */
export function buildRevision(commit: string, repoRoot: string): string {
  const dir = join(cacheDir(), 'builds', commit);
  const evalDir = join(repoRoot, 'src', 'eval');
  const harness = readdirSync(evalDir).filter((f) => f.endsWith('.ts')).sort();
  const stamp = createHash('sha256');
  for (const f of harness) stamp.update(f).update(readFileSync(join(evalDir, f)));
  const want = stamp.digest('hex');
  const stampFile = join(dir, '.eval-harness');
  const evalJs = join(dir, 'dist', 'eval.js');
  if (existsSync(evalJs) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === want) return evalJs;

  process.stderr.write(`eval: building ${commit.slice(0, 10)} in ${dir}\n`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync('sh', ['-c', `git -C "$1" archive "$2" | tar -x -C "$3"`, 'sh', repoRoot, commit, dir], { stdio: 'inherit' });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed`);
  symlinkSync(realpathSync(join(repoRoot, 'node_modules')), join(dir, 'node_modules'));
  mkdirSync(join(dir, 'src', 'eval'), { recursive: true });
  for (const f of harness) copyFileSync(join(evalDir, f), join(dir, 'src', 'eval', f));
  const variants = join(dir, 'src', 'search', 'variants.ts');
  if (!existsSync(variants)) writeFileSync(variants, STUB_VARIANTS);
  if (!existsSync(join(dir, 'src', 'index', 'vectors-in-memory.ts'))) writeFileSync(join(dir, 'src', 'eval', 'neural.ts'), STUB_NEURAL);
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0 || !existsSync(evalJs)) throw new Error(`building ${commit} failed (see above)`);
  writeFileSync(stampFile, want);
  return evalJs;
}
