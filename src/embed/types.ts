// The contract between the neural embedding runtime (src/embed/, issue 17) and what uses it: the index's
// vector store and embedding job, the resident query-embedding server, and search's fusion. Nothing on the
// per-process fast paths (`tsm search`, `tsm hook`) may import the runtime; they may import this file (types only).

/** A model the user pulled or pointed us at, and how its text must be framed. */
export interface ModelSpec {
  /** Hugging Face id, e.g. `cl-nagoya/ruri-v3-30m`, or a folder's name for a user-provided model. */
  name: string;
  /** Revision (commit or file hash) of the weights; part of the fingerprint. */
  revision: string;
  dims: number;
  queryPrefix: string;
  passagePrefix: string;
  /** Longest input in tokens, prefix and special tokens included; longer passages are split into chunks. */
  maxTokens: number;
}

export interface Embedder {
  readonly spec: ModelSpec;
  /**
   * Model, revision, prefixes and chunker version in one string. Vectors made under one fingerprint are never
   * compared with vectors made under another: a change re-embeds.
   */
  readonly fingerprint: string;
  /** One L2-normalised vector of `spec.dims` for a query (the query prefix is added here). */
  embedQuery(text: string): Promise<Float32Array>;
  /**
   * A section's text (heading path + body, as the caller composes it) as one L2-normalised vector per chunk
   * of at most `spec.maxTokens` tokens (the passage prefix is added to each chunk here).
   */
  embedPassage(text: string): Promise<Float32Array[]>;
  close(): Promise<void>;
}
