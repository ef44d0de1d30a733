// A note's vector: what the whole note is about, for the note-level semantic list (search/semantic.ts).
// The mean of its sections' unit vectors, each weighted by the length of its text, so a note's long sections
// count for more than its one-line ones (a footer, a contact table); unweighted, the mean let a note's many
// short sections outvote its body, and measured lower (docs/search.md 2b). Pure: rows in, vector out.
import { dequantize, quantize } from './quantize.js';

/** One section of a note: its text's length (characters) and its stored vector (empty: no known word). */
export interface SectionVectorRow {
  len: number;
  vec: Uint8Array;
}

/** The note's vector (int8, as the sections'), or null when none of its sections has one. */
export function noteVector(sections: readonly SectionVectorRow[]): Buffer | null {
  let sum: Float64Array | null = null;
  let unit: Float32Array | null = null;
  for (const s of sections) {
    if (s.vec.length === 0) continue;
    if (!sum || !unit) {
      sum = new Float64Array(s.vec.length);
      unit = new Float32Array(s.vec.length);
    }
    if (s.vec.length !== sum.length) continue;
    dequantize(s.vec, unit);
    const w = Math.max(1, s.len);
    for (let i = 0; i < sum.length; i++) sum[i] += w * unit[i];
  }
  if (!sum || !sum.some((x) => x !== 0)) return null;
  return quantize(sum);
}
