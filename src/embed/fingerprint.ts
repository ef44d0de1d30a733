// What vectors of a model are comparable under (its fingerprint), and the model's name read back from one. A
// module of its own, without the runtime: `tsm search` names the resident's model from its fingerprint.
import type { ModelSpec } from './types.js';

/**
 * How passages become token windows. Part of the fingerprint: a change here re-embeds every vault.
 * 1: prefix + windows of (maxTokens − special tokens − prefix) tokens of the text, no overlap.
 */
export const CHUNKER_VERSION = 1;

/** The fingerprint of a spec under a pooling and tokenizer: what vectors made with it are comparable under. */
export function fingerprintOf(spec: ModelSpec, pooling: string, tokenizerHash: string): string {
  return [
    `${spec.name}@${spec.revision}`,
    `tok=${tokenizerHash}`,
    `pool=${pooling}`,
    `q=${JSON.stringify(spec.queryPrefix)}`,
    `p=${JSON.stringify(spec.passagePrefix)}`,
    `max=${spec.maxTokens}`,
    `chunker=${CHUNKER_VERSION}`,
  ].join(';');
}

/** A fingerprint's model, name and revision (`intfloat/multilingual-e5-small@…`), as messages and status name it. */
export function fingerprintModel(fingerprint: string): string {
  return fingerprint.split(';')[0];
}
