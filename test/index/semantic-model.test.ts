// The pure parts of the semantic model: words, PPMI, the truncated eigen-decomposition, int8 vectors,
// section vectors and training.
import { describe, expect, it } from 'vitest';
import { textVector, weightedMean, type WordTable } from '../../src/index/semantic/embed.js';
import { train, TRAIN_DEFAULTS } from '../../src/index/semantic/model.js';
import { ppmiMatrix, type Csr } from '../../src/index/semantic/ppmi.js';
import { cosineWithStored, dequantize, quantize } from '../../src/index/semantic/quantize.js';
import { orthonormalize, sparseTimesDense, truncatedEigen } from '../../src/index/semantic/svd.js';
import { longKanjiRuns, runPieces, semanticWords, vocabularySplitter } from '../../src/index/semantic/words.js';

function entry(m: Csr, i: number, j: number): number {
  for (let p = m.rowStart[i]; p < m.rowStart[i + 1]; p++) if (m.col[p] === j) return m.val[p];
  return 0;
}

/** A seeded uniform stream, so the tests are reproducible. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

describe('semanticWords', () => {
  it('keeps kanji compounds, katakana and Latin words; drops stopwords, hiragana, numbers and single letters', () => {
    expect(semanticWords('The Quick brown fox of 2024 and a x の会議では、スケジュールを確認する')).toEqual(
      ['quick', 'brown', 'fox', '会議', 'スケジュール', '確認'],
    );
  });

  it('normalises width and case (NFKC + lower case)', () => {
    expect(semanticWords('ＧｉｔＬａｂ ｶﾀｶﾅ')).toEqual(['gitlab', 'カタカナ']);
  });

  it('cuts long kanji runs with the splitter it is given, and drops single kanji', () => {
    const split = (run: string) => (run === '情報共有会' ? ['情報', '共有', '会'] : [run]);
    expect(semanticWords('情報共有会を開く', split)).toEqual(['情報', '共有']);
    // Intl.Segmenter by default: a long run comes back as words, none of them a single kanji.
    const words = semanticWords('個人情報保護方針');
    expect(words.join('')).not.toBe('');
    expect(words.every((w) => w.length > 1)).toBe(true);
  });

  it('a query splitter takes the longest known word first', () => {
    const known = new Set(['情報', '共有', '情報共有', '会議']);
    const split = vocabularySplitter((w) => known.has(w));
    expect(split('情報共有会議')).toEqual(['情報共有', '会議']);
    expect(split('新情報')).toEqual(['情報']);
    expect(longKanjiRuns('この情報共有会議は東京で')).toEqual(['情報共有会議']);
    expect(runPieces('abc')).toEqual(['a', 'ab', 'abc', 'b', 'bc', 'c']);
  });
});

describe('ppmiMatrix', () => {
  it('computes positive PMI of pairs within the window, symmetric', () => {
    // Pairs: (0,1) twice, (2,3) once. Marginals 2, 2, 1, 1; total 6; alpha 1 → pmi(0,1) = log 3, pmi(2,3) = log 6.
    const m = ppmiMatrix([Int32Array.of(0, 1), Int32Array.of(0, 1), Int32Array.of(2, 3)], 4, { window: 5, alpha: 1, minPairCount: 1 });
    expect(entry(m, 0, 1)).toBeCloseTo(Math.log(3), 5);
    expect(entry(m, 1, 0)).toBeCloseTo(Math.log(3), 5);
    expect(entry(m, 2, 3)).toBeCloseTo(Math.log(6), 5);
    expect(entry(m, 0, 2)).toBe(0);
    expect(m.rowStart[4]).toBe(4);
  });

  it('leaves out rare pairs, pairs beyond the window, and a word with itself; skipped words do not separate', () => {
    const counted = ppmiMatrix([Int32Array.of(0, 1), Int32Array.of(2, 3), Int32Array.of(2, 3)], 4, { window: 5, alpha: 1, minPairCount: 2 });
    expect(entry(counted, 0, 1)).toBe(0); // seen once
    expect(entry(counted, 2, 3)).toBeGreaterThan(0);
    const far = ppmiMatrix([Int32Array.of(0, 5, 5, 5, 5, 5, 1), Int32Array.of(2, 3)], 6, { window: 5, alpha: 1, minPairCount: 1 });
    expect(entry(far, 0, 1)).toBe(0); // 6 apart
    expect(entry(far, 5, 5)).toBe(0);
    const skipped = ppmiMatrix([Int32Array.of(0, -1, -1, -1, -1, -1, -1, 1), Int32Array.of(2, 3)], 4, { window: 1, alpha: 1, minPairCount: 1 });
    expect(entry(skipped, 0, 1)).toBeGreaterThan(0);
  });
});

describe('truncatedEigen', () => {
  /** A symmetric n × n matrix Σ λ u uᵀ of rank values.length, stored densely as CSR. */
  function lowRank(n: number, values: number[], seed: number): { a: Csr; dense: Float64Array } {
    const next = rng(seed);
    const basis = new Float32Array(n * values.length).map(() => next() - 0.5);
    const q = orthonormalize(basis, n, values.length);
    const dense = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let s = 0;
        values.forEach((v, c) => (s += v * q[i * values.length + c] * q[j * values.length + c]));
        dense[i * n + j] = s;
      }
    const rowStart = Int32Array.from({ length: n + 1 }, (_, i) => i * n);
    const col = Int32Array.from({ length: n * n }, (_, p) => p % n);
    return { a: { n, rowStart, col, val: Float32Array.from(dense) }, dense };
  }

  it('finds the eigenvalues of a matrix of known rank and reconstructs it', () => {
    const { a, dense } = lowRank(60, [5, 3, -2], 7);
    const e = truncatedEigen(a, { k: 3, oversample: 5, power: 1, seed: 1 });
    expect([...e.values].map((v) => Math.round(v * 1000) / 1000)).toEqual([5, 3, 2]);
    // A ≈ U Uᵀ A: the three vectors span A's range.
    const n = 60;
    const ua = sparseTimesDense(a, e.vectors, 3); // A U (n × 3)
    let err = 0;
    let norm = 0;
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let s = 0;
        for (let c = 0; c < 3; c++) s += e.vectors[i * 3 + c] * ua[j * 3 + c];
        err += (s - dense[i * n + j]) ** 2;
        norm += dense[i * n + j] ** 2;
      }
    expect(Math.sqrt(err / norm)).toBeLessThan(1e-3);
  });

  it('is reproducible, and cuts k to the matrix size', () => {
    const { a } = lowRank(10, [4, 1], 3);
    const one = truncatedEigen(a, { k: 50, oversample: 4, power: 0, seed: 9 });
    const two = truncatedEigen(a, { k: 50, oversample: 4, power: 0, seed: 9 });
    expect(one.k).toBe(10);
    expect([...one.vectors]).toEqual([...two.vectors]);
  });
});

describe('int8 vectors', () => {
  it('keep a vector’s direction within rounding', () => {
    const next = rng(3);
    for (let t = 0; t < 20; t++) {
      const v = Float32Array.from({ length: 128 }, () => next() - 0.5);
      const norm = Math.hypot(...v);
      const unit = v.map((x) => x / norm);
      const stored = quantize(unit);
      expect(stored.length).toBe(128);
      const back = dequantize(stored);
      let dot = 0;
      for (let i = 0; i < 128; i++) dot += back[i] * unit[i];
      expect(dot).toBeGreaterThan(0.999);
      // The query side is scaled to integers (quantize.ts cosinesWithStored): within 1e-5.
      expect(cosineWithStored(unit, stored)).toBeCloseTo(dot, 5);
    }
  });

  it('store a zero vector as zeros, whose cosine is 0', () => {
    const z = quantize(new Float32Array(4));
    expect([...z]).toEqual([0, 0, 0, 0]);
    expect(cosineWithStored(Float32Array.of(1, 0, 0, 0), z)).toBe(0);
    expect(cosineWithStored(Float32Array.of(1, 0, 0, 0), Buffer.alloc(0))).toBe(0);
  });
});

describe('section vectors', () => {
  it('are the idf-weighted mean of their words’ vectors, as unit vectors', () => {
    const table: WordTable = new Map([
      ['alpha', { idf: 3, unit: Float32Array.of(1, 0) }],
      ['beta', { idf: 1, unit: Float32Array.of(0, 1) }],
    ]);
    const v = textVector(['alpha', 'beta', 'unknown'], table, 2) as Float32Array;
    expect(v[0]).toBeCloseTo(3 / Math.hypot(3, 1), 6);
    expect(v[1]).toBeCloseTo(1 / Math.hypot(3, 1), 6);
    // A word counts each time it occurs.
    const twice = textVector(['beta', 'beta', 'alpha'], table, 2) as Float32Array;
    expect(twice[1] / twice[0]).toBeCloseTo(2 / 3, 6);
    expect(textVector(['unknown'], table, 2)).toBeNull();
    expect(weightedMean([], () => 1, () => undefined, new Float64Array(2))).toBeNull();
  });
});

describe('train', () => {
  // Four topics of eight words: 32 words, so 4 dimensions (one per 8 words), one per topic. (With a fifth,
  // the exact decomposition's fifth direction is noise, and unweighted (eigenPower 0) it counts as much as a topic.)
  const topics = ['dev', 'music', 'bake', 'garden'].map((t) => Array.from({ length: 8 }, (_, i) => `${t}${String.fromCharCode(97 + i)}`));
  const sections = (count: number) => {
    const next = rng(11);
    return Array.from({ length: count }, (_, i) => {
      const words = topics[i % topics.length];
      return { id: i + 1, text: Array.from({ length: 20 }, () => words[Math.floor(next() * words.length)]).join(' ') };
    });
  };

  it('learns nothing from too few sections', () => {
    expect(train(sections(TRAIN_DEFAULTS.minSections - 1))).toBeNull();
  });

  it('puts words of one topic together and gives every section a vector', () => {
    const small = { ...TRAIN_DEFAULTS, minSections: 30 };
    const t = train(sections(120), small);
    if (!t) throw new Error('expected a model');
    expect(t.model.words.length).toBe(32);
    expect(t.model.dims).toBe(4);
    expect(t.sectionVectors.size).toBe(120);
    const vec = (w: string) => dequantize(t.model.vectors[t.model.words.indexOf(w)]);
    const cos = (a: string, b: string) => vec(a).reduce((s, x, i) => s + x * vec(b)[i], 0);
    expect(cos('deva', 'devb')).toBeGreaterThan(cos('deva', 'musica') + 0.3);
    expect(cos('musicc', 'musicd')).toBeGreaterThan(cos('musicc', 'bakec') + 0.3);
    expect(cos('gardena', 'gardenh')).toBeGreaterThan(cos('gardena', 'devh') + 0.3);
  });
});
