// A note's vector (semantic/note-vectors.ts): the mean of its sections' vectors weighted by their lengths.
import { describe, expect, it } from 'vitest';
import { noteVector } from '../../src/index/semantic/note-vectors.js';
import { cosinesWithStored, cosineWithStored, dequantize, quantize } from '../../src/index/semantic/quantize.js';

const v = (...xs: number[]) => quantize(Float32Array.from(xs));

describe('noteVector', () => {
  it('is the section itself for a note of one section', () => {
    const s = v(0.6, -0.8, 0);
    expect(noteVector([{ len: 10, vec: s }])).toEqual(s);
  });

  it('weights each section by the length of its text: a long section outvotes a one-line one', () => {
    const body = v(1, 0, 0);
    const footer = v(0, 1, 0);
    const q = Float32Array.from([1, 0, 0]);
    const q2 = Float32Array.from([0, 1, 0]);
    const note = noteVector([{ len: 900, vec: body }, { len: 100, vec: footer }]) as Buffer;
    expect(cosineWithStored(q, note)).toBeGreaterThan(0.99);
    expect(cosineWithStored(q2, note)).toBeLessThan(0.12);
    // Equal lengths: halfway between.
    const even = noteVector([{ len: 50, vec: body }, { len: 50, vec: footer }]) as Buffer;
    expect(cosineWithStored(q, even)).toBeCloseTo(Math.SQRT1_2, 2);
    expect(cosineWithStored(q2, even)).toBeCloseTo(Math.SQRT1_2, 2);
  });

  it('leaves out sections without a vector, and is null when no section has one', () => {
    const s = v(0, 0, 1);
    expect(noteVector([{ len: 500, vec: Buffer.alloc(0) }, { len: 5, vec: s }])).toEqual(s);
    expect(noteVector([{ len: 500, vec: Buffer.alloc(0) }])).toBeNull();
    expect(noteVector([])).toBeNull();
    // Opposite sections cancel out: no direction, no vector.
    expect(noteVector([{ len: 1, vec: v(1, 0) }, { len: 1, vec: v(-1, 0) }])).toBeNull();
  });

  it('gives an empty text the weight of one character, never none', () => {
    const a = v(1, 0);
    const b = v(0, 1);
    const note = dequantize(noteVector([{ len: 0, vec: a }, { len: 0, vec: b }]) as Buffer);
    expect(note[0]).toBeCloseTo(note[1], 5);
  });
});

describe('cosinesWithStored', () => {
  it("gives each stored vector's cosine with the query; NaN for a missing vector, 0 for an empty one", () => {
    const q = Float32Array.from([0.6, 0.8, 0]);
    const vs = [v(1, 0, 0), v(0.3, 0.4, -0.5), v(-1, -1, 1)];
    const got = cosinesWithStored(q, [...vs, undefined, Buffer.alloc(0)]);
    const dot = (u: Float32Array) => u.reduce((sum, x, i) => sum + x * q[i], 0);
    // The query is scaled to integers (quantize.ts): a cosine moves by < 1e-5.
    vs.forEach((b, i) => expect(got[i]).toBeCloseTo(dot(dequantize(b)), 5));
    expect(got[0]).toBeCloseTo(0.6, 5);
    expect(cosineWithStored(q, vs[1])).toBe(got[1]);
    expect(got[3]).toBeNaN();
    expect(got[4]).toBe(0);
  });

  it('matches the floating-point cosine at the model\'s 128 dimensions and beyond (the query scaled to integers)', () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
    for (const dims of [128, 384, 1024]) {
      const q = new Float32Array(dims).map(() => rnd());
      const n = Math.hypot(...q);
      q.forEach((x, i) => (q[i] = x / n));
      const vs = Array.from({ length: 50 }, () => quantize(new Float32Array(dims).map(() => rnd())));
      const got = cosinesWithStored(q, vs);
      vs.forEach((b, i) => {
        const u = dequantize(b);
        expect(got[i]).toBeCloseTo(u.reduce((sum, x, j) => sum + x * q[j], 0), 5);
      });
    }
  });
});
