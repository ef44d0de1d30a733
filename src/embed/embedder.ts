// loadEmbedder(): a model folder → an Embedder (types.ts). Tokenizes with @huggingface/tokenizers (pure JS,
// reads tokenizer.json: Unigram, BPE and WordPiece models, Metaspace and the SentencePiece normalizers; see
// docs/embeddings.md for why this library), runs the ONNX graph one sequence at a time on one thread, pools
// (mean over the attention mask, or CLS) and L2-normalises.
//
// Resident paths only (the indexer's embedding job, the query-embedding server): loading imports the ONNX
// runtime, which `tsm search` and `tsm hook` never do.
import { statSync } from 'node:fs';
import { EmbedError } from './errors.js';
import { mappableModel } from './onnx-external.js';
import { readModelFolder, type ModelFolder, type SpecOverrides } from './model-folder.js';
import { modelDirFor } from './models.js';
import { loadRuntime, runtimeLitterGuard, runtimeSearchPath, type OrtModule } from './runtime.js';
import type { Embedder, ModelSpec } from './types.js';

import { fingerprintOf } from './fingerprint.js';

export { CHUNKER_VERSION, fingerprintOf } from './fingerprint.js';

export interface LoadEmbedderOptions extends SpecOverrides {
  /**
   * Intra-op threads for the ONNX session. 1 by default: the machine also runs the editor, the agent and
   * the other tsm processes, and at batch 1 on a 30M-parameter encoder a second thread saves little.
   */
  threads?: number;
  /**
   * Models from this size on are loaded through a memory-mapped copy with external weights
   * (onnx-external.ts: 3.6× less memory for e5-small's shape). Default 32 MB; tests lower it.
   */
  externalMinBytes?: number;
  /** Where to look for the runtime (runtime.ts); tests point it at an empty folder. */
  runtimeSearch?: ReturnType<typeof runtimeSearchPath>;
}

interface TokenizerLike {
  encode(text: string, options?: { add_special_tokens?: boolean }): { ids: number[] };
}

export async function loadEmbedder(dir: string, options: LoadEmbedderOptions = {}): Promise<Embedder> {
  const folder = readModelFolder(dir, options);
  const ort = await loadRuntime(options.runtimeSearch);
  const tokenizer = await makeTokenizer(folder);
  let session: Awaited<ReturnType<OrtModule['InferenceSession']['create']>>;
  const tidy = runtimeLitterGuard();
  try {
    const path = mappableModel(folder.onnxPath, folder.onnxSha256, statSync(folder.onnxPath).size, options.externalMinBytes);
    session = await ort.InferenceSession.create(path, {
      intraOpNumThreads: options.threads ?? 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
    });
  } catch (err) {
    throw new EmbedError(`${folder.onnxPath} is not a model the ONNX runtime can load (${firstLine(err)}): ${repairHint(folder)}`);
  }
  let embedder: OnnxEmbedder;
  try {
    embedder = new OnnxEmbedder(folder, ort, session, tokenizer);
  } catch (err) {
    await session.release();
    throw err;
  }
  // One probe through the whole path: a graph without the inputs we feed, an output of the wrong width or
  // a spec without dims surfaces here, at load, instead of at the first note.
  try {
    const probe = await embedder.embedQuery('probe');
    if (folder.spec.dims === 0) folder.spec.dims = probe.length;
    else if (probe.length !== folder.spec.dims) {
      throw new EmbedError(`${folder.onnxPath} gives ${probe.length}-dimensional vectors, but the model is said to give ${folder.spec.dims}: ${repairHint(folder)}`);
    }
  } catch (err) {
    await embedder.close();
    if (err instanceof EmbedError) throw err;
    throw new EmbedError(`${folder.onnxPath} loads but does not run as a text encoder (${firstLine(err)}): ${repairHint(folder)}`);
  } finally {
    tidy();
  }
  return embedder;
}

/**
 * The embedder a vault's settings name (`model`, `modelDir`: TsmConfig has both): the pulled model's folder,
 * or the user's own. What the indexer and the query server call; errors name `tsm model pull` or the folder.
 */
export function loadConfiguredEmbedder(settings: { model: string; modelDir: string | null }, options: LoadEmbedderOptions = {}, env: NodeJS.ProcessEnv = process.env): Promise<Embedder> {
  const dir = modelDirFor(settings, env);
  return loadEmbedder(dir, settings.modelDir === null ? { name: settings.model, ...options } : options);
}

async function makeTokenizer(folder: ModelFolder): Promise<TokenizerLike> {
  const { Tokenizer } = await import('@huggingface/tokenizers');
  try {
    return new Tokenizer(folder.tokenizerJson, folder.tokenizerConfig) as TokenizerLike;
  } catch (err) {
    throw new EmbedError(`${folder.dir}/tokenizer.json is not a tokenizer tsm can read (${firstLine(err)}): ${repairHint(folder)}`);
  }
}

function repairHint(folder: ModelFolder): string {
  return folder.pulledFrom !== null
    ? `pull the model again (\`tsm model pull ${folder.spec.name} --force\`)`
    : `replace the files in ${folder.dir} with a complete export (docs/embeddings.md, "Your own model folder")`;
}

const firstLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).split('\n')[0]!;

class OnnxEmbedder implements Embedder {
  readonly spec: ModelSpec;
  readonly fingerprint: string;
  /** Special tokens the tokenizer puts around one sequence (<s> … </s>, [CLS] … [SEP]). */
  private readonly begin: number[];
  private readonly end: number[];
  private readonly output: string;
  /** One run at a time: batch = 1 on one thread is the design, and concurrent runs would contend for it. */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly folder: ModelFolder,
    private readonly ort: OrtModule,
    private readonly session: Awaited<ReturnType<OrtModule['InferenceSession']['create']>>,
    private readonly tokenizer: TokenizerLike,
  ) {
    this.spec = folder.spec;
    this.fingerprint = fingerprintOf(folder.spec, folder.pooling, folder.tokenizerHash);
    const withSpecials = tokenizer.encode('a', { add_special_tokens: true }).ids;
    const bare = tokenizer.encode('a', { add_special_tokens: false }).ids;
    const at = indexOfRun(withSpecials, bare);
    this.begin = at < 0 ? [] : withSpecials.slice(0, at);
    this.end = at < 0 ? [] : withSpecials.slice(at + bare.length);
    const outputs = session.outputNames;
    this.output = ['last_hidden_state', 'token_embeddings', 'sentence_embedding'].find((n) => outputs.includes(n)) ?? outputs[0]!;
    if (this.spec.maxTokens - this.begin.length - this.end.length < 8) {
      throw new EmbedError(`${folder.dir}: maxTokens ${this.spec.maxTokens} leaves no room for text after the special tokens`);
    }
  }

  get dims(): number {
    return this.spec.dims;
  }

  embedQuery(text: string): Promise<Float32Array> {
    // A query longer than the window is cut, not split: one query is one vector.
    return this.serial(() => this.run(this.window(this.spec.queryPrefix, text)[0]!));
  }

  async embedPassage(text: string): Promise<Float32Array[]> {
    if (text.trim() === '') return [];
    return this.serial(async () => {
      const out: Float32Array[] = [];
      for (const ids of this.window(this.spec.passagePrefix, text, true)) out.push(await this.run(ids));
      return out;
    });
  }

  /** Token windows of prefix + text, each framed by the special tokens and at most maxTokens long. */
  window(prefix: string, text: string, all = false): number[][] {
    const enc = (s: string): number[] => this.tokenizer.encode(s, { add_special_tokens: false }).ids;
    const full = enc(prefix + text);
    const room = this.spec.maxTokens - this.begin.length - this.end.length;
    if (full.length <= room) return [[...this.begin, ...full, ...this.end]];
    // The prefix's tokens are those the prefixed text starts with (a boundary merge moves into the body).
    const p = prefix === '' ? [] : enc(prefix);
    let k = 0;
    while (k < p.length && p[k] === full[k]) k++;
    const head = full.slice(0, k);
    const body = full.slice(k);
    const step = room - head.length;
    if (step < 8) throw new EmbedError(`${this.folder.dir}: the prefix ${JSON.stringify(prefix)} leaves no room for text in ${this.spec.maxTokens} tokens`);
    const windows: number[][] = [];
    for (let i = 0; i < body.length; i += step) {
      windows.push([...this.begin, ...head, ...body.slice(i, i + step), ...this.end]);
      if (!all) break;
    }
    return windows;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new EmbedError('the embedder is closed'));
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async run(ids: number[]): Promise<Float32Array> {
    const n = ids.length;
    const { Tensor } = this.ort;
    const feeds: Record<string, InstanceType<typeof Tensor>> = {};
    for (const name of this.session.inputNames) {
      const data = new BigInt64Array(n);
      if (name === 'input_ids') for (let i = 0; i < n; i++) data[i] = BigInt(ids[i]!);
      else if (name === 'attention_mask') data.fill(1n);
      else if (name === 'position_ids') for (let i = 0; i < n; i++) data[i] = BigInt(i);
      else if (name !== 'token_type_ids') {
        throw new EmbedError(`${this.folder.onnxPath} wants an input named ${name}; tsm feeds input_ids, attention_mask, token_type_ids and position_ids: export the model with those inputs`);
      }
      feeds[name] = new Tensor('int64', data, [1, n]);
    }
    const result = await this.session.run(feeds);
    const out = result[this.output]!;
    const dims = out.dims;
    const data = out.data as Float32Array;
    let vec: Float32Array;
    if (dims.length === 2) vec = Float32Array.from(data.subarray(0, dims[1]!));
    else if (dims.length === 3) vec = pool(data, dims[1]!, dims[2]!, this.folder.pooling);
    else throw new EmbedError(`${this.folder.onnxPath}: output ${this.output} has shape [${dims.join(', ')}]; tsm needs [batch, tokens, dims] or [batch, dims]`);
    return normalise(vec);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    await this.session.release();
  }
}

/** Mean over all tokens (every token is attended: batch 1 has no padding) or the first token (CLS). */
function pool(data: Float32Array, tokens: number, dims: number, pooling: 'mean' | 'cls'): Float32Array {
  const out = new Float32Array(dims);
  if (pooling === 'cls') {
    out.set(data.subarray(0, dims));
    return out;
  }
  for (let t = 0; t < tokens; t++) for (let d = 0; d < dims; d++) out[d]! += data[t * dims + d]!;
  for (let d = 0; d < dims; d++) out[d]! /= tokens;
  return out;
}

/** L2-normalised in place: cosine similarity becomes a dot product for whoever compares the vectors. */
export function normalise(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

function indexOfRun(hay: number[], needle: number[]): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
