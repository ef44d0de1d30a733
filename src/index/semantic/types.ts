// The semantic model's data, shared by training (model.ts), embedding (embed.ts) and storage (store.ts),
// which would otherwise import each other.

export interface SectionText {
  id: number;
  text: string;
}

/** Word vectors: words[i] has idf[i] and the unit vector stored as vectors[i] (int8, `dims` bytes). */
export interface WordModel {
  dims: number;
  words: string[];
  idf: Float32Array;
  vectors: Buffer[];
  /** Sections learned from. */
  sections: number;
}

export interface Trained {
  model: WordModel;
  /** Every section's vector (int8), from the stored (quantised) word vectors, as incremental sync makes them. */
  sectionVectors: Map<number, Buffer>;
}
