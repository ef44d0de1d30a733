// A tiny embedding model made by the test itself, loaded through the real code path (src/embed/): an ONNX
// graph written from JS (ONNX's ModelProto is protobuf; the few messages it needs are encoded by hand below)
// and a tokenizer.json in the shape of multilingual-e5's (Unigram + Metaspace, <s> … </s>) whose vocabulary
// covers ASCII, kana and every CJK unified ideograph. No download, no Python: `npm test` needs nothing extra.
//
// The graph: input_ids [batch, seq] → Gather from a [vocab, dim] table → × attention_mask → the output
// `last_hidden_state` [batch, seq, dim], as an encoder's first output is named. Optional `token_type_ids`
// input (added to the ids, so it must be all zeros for the result to match a model without it).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadEmbedder } from '../../src/embed/embedder.js';
import type { Embedder } from '../../src/embed/types.js';

// --- protobuf wire format: only what ModelProto needs -------------------------------------------------------

type Field = Uint8Array;

function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n; // int64 negatives are ten-byte two's complement
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    out.push(byte);
  } while (v !== 0n);
  return out;
}

const tag = (field: number, wire: number): number[] => varint((field << 3) | wire);
const vint = (field: number, n: number | bigint): Field => Uint8Array.from([...tag(field, 0), ...varint(n)]);
function bytes(field: number, data: Uint8Array): Field {
  const head = [...tag(field, 2), ...varint(data.length)];
  const out = new Uint8Array(head.length + data.length);
  out.set(head, 0);
  out.set(data, head.length);
  return out;
}
const str = (field: number, s: string): Field => bytes(field, new TextEncoder().encode(s));
function msg(...fields: Field[]): Uint8Array {
  const out = new Uint8Array(fields.reduce((n, f) => n + f.length, 0));
  let at = 0;
  for (const f of fields) {
    out.set(f, at);
    at += f.length;
  }
  return out;
}

// onnx.proto field numbers and enums.
const FLOAT = 1;
const INT64 = 7;
const ATTR_INT = 2;

function tensor(name: string, dims: number[], dataType: number, raw: Uint8Array): Uint8Array {
  return msg(...dims.map((d) => vint(1, d)), vint(2, dataType), str(8, name), bytes(9, raw));
}

/** ValueInfoProto of a tensor whose dims are numbers (fixed) or strings (symbolic). */
function valueInfo(name: string, elemType: number, dims: (number | string)[]): Uint8Array {
  const shape = msg(...dims.map((d) => bytes(1, typeof d === 'number' ? vint(1, d) : str(2, d))));
  const tensorType = msg(vint(1, elemType), bytes(2, shape));
  return msg(str(1, name), bytes(2, msg(bytes(1, tensorType))));
}

function node(op: string, inputs: string[], outputs: string[], attrs: Uint8Array[] = []): Uint8Array {
  return msg(...inputs.map((i) => str(1, i)), ...outputs.map((o) => str(2, o)), str(3, `${op}_${outputs[0]}`), str(4, op), ...attrs.map((a) => bytes(5, a)));
}

const intAttr = (name: string, value: number): Uint8Array => msg(str(1, name), vint(3, value), vint(20, ATTR_INT));

/** Deterministic pseudo-random floats in [-1, 1) (mulberry32), so two runs write the same model. */
function table(rows: number, cols: number, seed: number): Float32Array {
  const out = new Float32Array(rows * cols);
  let s = seed >>> 0;
  for (let i = 0; i < out.length; i++) {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  }
  return out;
}

export interface TinyOnnxOptions {
  vocabSize: number;
  dim: number;
  seed?: number;
  tokenTypeIds?: boolean;
}

/** The ONNX model bytes (opset 13). */
export function tinyOnnx(o: TinyOnnxOptions): Uint8Array {
  const emb = table(o.vocabSize, o.dim, o.seed ?? 1);
  const axes = new BigInt64Array([2n]);
  const nodes = [
    ...(o.tokenTypeIds ? [node('Add', ['input_ids', 'token_type_ids'], ['ids'])] : []),
    node('Gather', ['embeddings', o.tokenTypeIds ? 'ids' : 'input_ids'], ['gathered'], [intAttr('axis', 0)]),
    node('Cast', ['attention_mask'], ['mask_f'], [intAttr('to', FLOAT)]),
    node('Unsqueeze', ['mask_f', 'axes'], ['mask_3d']),
    node('Mul', ['gathered', 'mask_3d'], ['last_hidden_state']),
  ];
  const inputs = ['input_ids', 'attention_mask', ...(o.tokenTypeIds ? ['token_type_ids'] : [])];
  const graph = msg(
    ...nodes.map((n) => bytes(1, n)),
    str(2, 'tiny'),
    bytes(5, tensor('embeddings', [o.vocabSize, o.dim], FLOAT, new Uint8Array(emb.buffer))),
    bytes(5, tensor('axes', [1], INT64, new Uint8Array(axes.buffer))),
    ...inputs.map((name) => bytes(11, valueInfo(name, INT64, ['batch', 'sequence']))),
    bytes(12, valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', o.dim])),
  );
  // ir_version 8, producer, graph, opset_import { domain "", version 13 }
  return msg(vint(1, 8), str(2, 'tsm-test'), bytes(7, graph), bytes(8, msg(str(1, ''), vint(2, 13))));
}

// --- tokenizer.json ------------------------------------------------------------------------------------------

const SPECIALS = ['<s>', '<pad>', '</s>', '<unk>'];

/** Vocabulary: the specials, ▁, ASCII, kana, CJK punctuation, every CJK unified ideograph, a few whole words. */
function vocabulary(): string[] {
  const pieces = [...SPECIALS, '▁'];
  const range = (from: number, to: number): void => {
    for (let c = from; c <= to; c++) pieces.push(String.fromCodePoint(c));
  };
  range(0x21, 0x7e); // ASCII printable (the space is ▁)
  range(0x3001, 0x3002); // 、。
  range(0x300c, 0x300f); // 「」『』
  range(0x3041, 0x3096); // hiragana
  range(0x30a1, 0x30fc); // katakana and ー
  range(0x4e00, 0x9fff); // CJK unified ideographs
  range(0xff01, 0xff5e); // full-width ASCII (NFKC folds it, but a vocabulary may hold it)
  // Whole words score better than their letters, as a trained Unigram's do.
  pieces.push('▁the', '▁model', '▁search', '▁query', '▁passage', '検索', 'クエリ', '文書', '▁検索');
  return pieces;
}

export function tinyTokenizerJson(): { json: object; vocabSize: number } {
  const pieces = vocabulary();
  const vocab = pieces.map((p, i): [string, number] => [p, i < SPECIALS.length ? 0 : p.length > 1 && !(p === '▁') ? -2 : -5]);
  const special = (id: number, content: string): object => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const json = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((s, i) => special(i, s)),
    normalizer: { type: 'NFKC' },
    pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '<s>', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
      pair: [
        { SpecialToken: { id: '<s>', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '</s>', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 0 } },
        { SpecialToken: { id: '</s>', type_id: 0 } },
      ],
      special_tokens: {
        '<s>': { id: '<s>', ids: [0], tokens: ['<s>'] },
        '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] },
      },
    },
    decoder: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 3, vocab, byte_fallback: false },
  };
  return { json, vocabSize: pieces.length };
}

export interface TinyModelOptions {
  dim?: number;
  seed?: number;
  tokenTypeIds?: boolean;
  /** Written to tsm-model.json; null leaves the file out (the folder is then a bare Hugging Face layout). */
  meta?: { name?: string; queryPrefix?: string; passagePrefix?: string; maxTokens?: number; dims?: number } | null;
  /** sentence-transformers' pooling config (1_Pooling/config.json); absent by default. */
  pooling?: 'mean' | 'cls';
  /** Where model.onnx goes inside the folder (Hugging Face repos often keep it in onnx/). */
  onnxPath?: string;
}

export const TINY_DEFAULT_META = {
  name: 'tsm-test/tiny',
  queryPrefix: '検索クエリ: ',
  passagePrefix: '検索文書: ',
  maxTokens: 32,
};

/** Writes a model folder (model.onnx, tokenizer.json, tokenizer_config.json, config.json, …) into `dir`. */
export function writeTinyModel(dir: string, o: TinyModelOptions = {}): { dir: string; dim: number; vocabSize: number } {
  const dim = o.dim ?? 32;
  const { json, vocabSize } = tinyTokenizerJson();
  const onnxPath = join(dir, o.onnxPath ?? 'model.onnx');
  mkdirSync(join(onnxPath, '..'), { recursive: true });
  writeFileSync(onnxPath, tinyOnnx({ vocabSize, dim, seed: o.seed, tokenTypeIds: o.tokenTypeIds }));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify(json));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 512, bos_token: '<s>', eos_token: '</s>', unk_token: '<unk>', pad_token: '<pad>' }));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ model_type: 'tiny', hidden_size: dim, vocab_size: vocabSize }));
  if (o.meta !== null) writeFileSync(join(dir, 'tsm-model.json'), JSON.stringify({ ...TINY_DEFAULT_META, ...o.meta }));
  if (o.pooling) {
    mkdirSync(join(dir, '1_Pooling'), { recursive: true });
    writeFileSync(join(dir, 'modules.json'), JSON.stringify([{ idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' }, { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' }]));
    writeFileSync(join(dir, '1_Pooling', 'config.json'), JSON.stringify({ word_embedding_dimension: dim, pooling_mode_cls_token: o.pooling === 'cls', pooling_mode_mean_tokens: o.pooling === 'mean' }));
  }
  return { dir, dim, vocabSize };
}

/**
 * For the tests of one file: a temporary folder (`root`, also room for the file's vaults) holding two tiny
 * models — seeds 1 and 2, named apart, so their fingerprints differ — each loaded once before the tests
 * (`embedder`, `other`) and closed, with the folder, after them.
 */
export function useTwoTinyModels(prefix: string): { readonly root: string; readonly embedder: Embedder; readonly other: Embedder } {
  const state = { root: '', embedder: undefined as unknown as Embedder, other: undefined as unknown as Embedder };
  beforeAll(async () => {
    state.root = mkdtempSync(join(tmpdir(), prefix));
    writeTinyModel(join(state.root, 'm1'), { seed: 1 });
    writeTinyModel(join(state.root, 'm2'), { seed: 2, meta: { name: 'tsm-test/tiny-2' } });
    state.embedder = await loadEmbedder(join(state.root, 'm1'));
    state.other = await loadEmbedder(join(state.root, 'm2'));
  });
  afterAll(async () => {
    await state.embedder?.close();
    await state.other?.close();
    if (state.root) rmSync(state.root, { recursive: true, force: true });
  });
  return state;
}
