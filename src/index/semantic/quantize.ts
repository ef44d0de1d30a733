// Vectors are stored as int8, one byte per dimension: cosine similarity needs only a vector's direction,
// and a unit vector's components lie in [−1, 1], so each is scaled by 127 / (its largest magnitude).
// 200 dimensions take 200 bytes (float32: 800); the rounding moves a cosine by about 0.005.

export function quantize(v: Float32Array | Float64Array, from = 0, dims = v.length - from): Buffer {
  const out = Buffer.alloc(dims);
  quantizeInto(v, from, dims, new Int8Array(out.buffer, out.byteOffset, dims), 0);
  return out;
}

/** quantize, written at out[at .. at + dims) (all zero when v is). */
export function quantizeInto(v: Float32Array | Float64Array, from: number, dims: number, out: Int8Array, at: number): void {
  let max = 0;
  for (let i = 0; i < dims; i++) max = Math.max(max, Math.abs(v[from + i]));
  if (max === 0) {
    out.fill(0, at, at + dims);
    return;
  }
  const s = 127 / max;
  for (let i = 0; i < dims; i++) out[at + i] = Math.round(v[from + i] * s);
}

/** The stored vector as a unit vector (zero stays zero). */
export function dequantize(b: Uint8Array, out: Float32Array = new Float32Array(b.length)): Float32Array {
  let norm = 0;
  for (let i = 0; i < b.length; i++) {
    const x = (b[i] << 24) >> 24; // as signed
    out[i] = x;
    norm += x * x;
  }
  if (norm > 0) {
    const s = 1 / Math.sqrt(norm);
    for (let i = 0; i < b.length; i++) out[i] *= s;
  }
  return out;
}

/** Cosine of a unit float vector and a stored one. */
export function cosineWithStored(unit: Float32Array, b: Uint8Array): number {
  let dot = 0;
  let norm = 0;
  for (let i = 0; i < b.length; i++) {
    const x = (b[i] << 24) >> 24;
    dot += unit[i] * x;
    norm += x * x;
  }
  return norm > 0 ? dot / Math.sqrt(norm) : 0;
}
