// The models tsm knows by name, where their files go, and which folder a vault's settings point at.
// One home for model names, prefixes, dimensions and the on-disk layout: `tsm model pull`, `tsm doctor`,
// the embedder and the index all ask here.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { DEFAULT_MODEL } from '../vault/config.js';

export { DEFAULT_MODEL };

export interface KnownModel {
  /** Hugging Face id. */
  id: string;
  dims: number;
  queryPrefix: string;
  passagePrefix: string;
  /**
   * Longest input we feed, in tokens (prefix and special tokens included). 512 for both: e5-small's
   * position table ends there, and ruri-v3 (8,192 positions) costs quadratically more per token past it;
   * the issue splits sections at ~512 tokens.
   */
  maxTokens: number;
  license: string;
  /** What the model is for, as `tsm model list` says it. */
  note: string;
  /**
   * Where the repository may hold an ONNX export, in order of preference. Pulled to model.onnx. A repository
   * with none of them is refused by `tsm model pull` with the command that makes one.
   */
  onnxCandidates: string[];
  /** Other files the embedder reads; the optional ones may be absent from the repository. */
  files: { path: string; optional?: boolean }[];
}

const COMMON_FILES = [
  { path: 'tokenizer.json' },
  { path: 'tokenizer_config.json', optional: true },
  { path: 'config.json', optional: true },
  { path: 'modules.json', optional: true },
  { path: '1_Pooling/config.json', optional: true },
];

export const KNOWN_MODELS: readonly KnownModel[] = [
  {
    id: 'cl-nagoya/ruri-v3-30m',
    dims: 256,
    queryPrefix: '検索クエリ: ',
    passagePrefix: '検索文書: ',
    maxTokens: 512,
    license: 'Apache-2.0',
    note: 'the default: best Japanese retrieval at its size (37M parameters)',
    onnxCandidates: ['onnx/model.onnx', 'model.onnx'],
    files: COMMON_FILES,
  },
  {
    id: 'intfloat/multilingual-e5-small',
    dims: 384,
    queryPrefix: 'query: ',
    passagePrefix: 'passage: ',
    maxTokens: 512,
    license: 'MIT',
    note: 'for English-heavy vaults (118M parameters, most of them the 250k-word vocabulary)',
    onnxCandidates: ['onnx/model.onnx', 'model.onnx'],
    files: COMMON_FILES,
  },
];

export function knownModel(id: string): KnownModel | undefined {
  return KNOWN_MODELS.find((m) => m.id === id);
}

/**
 * tsm's own folder for things too big for a vault: $TSM_CACHE_DIR, else $XDG_CACHE_HOME/tsm, else
 * ~/.cache/tsm. Holds models/ (`tsm model pull`) and runtime/ (`tsm model setup`).
 */
export function tsmCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TSM_CACHE_DIR) return resolve(env.TSM_CACHE_DIR);
  if (env.XDG_CACHE_HOME) return join(resolve(env.XDG_CACHE_HOME), 'tsm');
  return join(env.HOME || homedir(), '.cache', 'tsm');
}

/** The folder `tsm model pull ID` fills: models/<owner>--<name>, as the Hugging Face cache names repos. */
export function pulledModelDir(id: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(tsmCacheDir(env), 'models', id.replaceAll('/', '--'));
}

/** The model folder a vault's settings name: `modelDir` when given (a folder the user provides), else the pulled one. */
export function modelDirFor(settings: { model: string; modelDir: string | null }, env: NodeJS.ProcessEnv = process.env): string {
  return settings.modelDir ?? pulledModelDir(settings.model, env);
}
