// bench/glove-sif/embedder.mjs, the measurement aid that puts GloVe's word vectors behind the Embedder
// interface (docs/search.md 2c), on a made-up vocabulary of 10,000 words (so that frequency ranks are of a
// real vocabulary's size), five of them with vectors: vectors are unit length, a text's vector
// is its known words' SIF-weighted mean (a common word counts for little), unknown words and hyphen parts are
// handled, and a passage is cut into windows of 200 known words.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

interface Aid {
  spec: { dims: number };
  fingerprint: string;
  embedQuery(text: string): Promise<Float32Array>;
  embedPassage(text: string): Promise<Float32Array[]>;
}

const dir = mkdtempSync(join(tmpdir(), 'tsm-glove-aid-'));
// Word → its rank (GloVe's file is ordered by frequency) and the axis its vector lies on.
const PLACED: Record<string, [number, number]> = { the: [0, 0], phone: [5000, 1], mobile: [5001, 2], sync: [5002, 3], laptop: [5003, 4] };
const SIZE = 10_000;
let aid: Aid;

const axis = (d: number) => {
  const v = new Float32Array(100);
  v[d] = 2; // not unit length: the aid must normalise
  return v;
};
const close = (a: Float32Array, b: number[]) => b.forEach((x, i) => expect(a[i]).toBeCloseTo(x, 5));

beforeAll(async () => {
  const words = Array.from({ length: SIZE }, (_, i) => `filler${i}`);
  const matrix = new Float32Array(SIZE * 100);
  for (const [word, [rank, d]] of Object.entries(PLACED)) {
    words[rank] = word;
    matrix.set(axis(d), rank * 100);
  }
  writeFileSync(join(dir, 'words.txt'), words.join('\n'));
  writeFileSync(join(dir, 'vectors.f32'), Buffer.from(matrix.buffer));
  copyFileSync(join(ROOT, 'bench', 'glove-sif', 'embedder.mjs'), join(dir, 'embedder.mjs'));
  const mod = (await import(pathToFileURL(join(dir, 'embedder.mjs')).href)) as { loadEmbedder(): Promise<Aid> };
  aid = await mod.loadEmbedder();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench/glove-sif embedder', () => {
  it('gives a unit vector of the spec dims for a query of one known word', async () => {
    const v = await aid.embedQuery('Phone');
    expect(v.length).toBe(aid.spec.dims);
    close(v, [0, 1, 0, 0, 0]);
  });

  it('weights the most frequent word down (SIF) and skips unknown words', async () => {
    const v = await aid.embedQuery('the zzzunknown laptop');
    expect(v[4]).toBeGreaterThan(0.99);
    expect(v[0]).toBeGreaterThan(0);
    expect(v[0]).toBeLessThan(0.1);
  });

  it('splits a hyphenated word it does not know into the words it does', async () => {
    // Two words of nearly equal rank: nearly equal weights.
    const v = await aid.embedQuery('phone-laptop');
    expect(v[1]).toBeCloseTo(Math.SQRT1_2, 3);
    expect(v[4]).toBeCloseTo(Math.SQRT1_2, 3);
  });

  it('still gives a unit vector when no word is known', async () => {
    const [v] = await aid.embedPassage('まったく 知らない');
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
  });

  it('cuts a passage into windows of 200 known words', async () => {
    const text = `${'sync '.repeat(200)}${'mobile '.repeat(50)}`;
    const chunks = await aid.embedPassage(text);
    expect(chunks).toHaveLength(2);
    close(chunks[0], [0, 0, 0, 1, 0]);
    close(chunks[1], [0, 0, 1, 0, 0]);
  });
});
