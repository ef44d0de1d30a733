// What a model folder holds and what it says about the model: the ONNX graph, the tokenizer, the pooling,
// and the ModelSpec (name, dims, prefixes, maxTokens). A folder is what `tsm model pull` writes or what a
// user provides (a Hugging Face snapshot with an ONNX export): the same reader serves both.
//
// The spec comes from, in order: the caller's overrides, tsm-model.json in the folder (written by `tsm model
// pull`; a user may write one), the known model of that name (models.ts), config.json, and defaults.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ModelSpec } from './types.js';
import { EmbedError } from './errors.js';
import { knownModel } from './models.js';

/** tsm's own description of a model folder. */
export const META_FILE = 'tsm-model.json';
/** Where the ONNX graph may sit in a folder, in order (Hugging Face repos keep exports in onnx/). */
export const ONNX_PATHS = ['model.onnx', 'onnx/model.onnx'];
/** Beside model.onnx: its sha256 by size and mtime, so a 120 MB file is hashed once, not at every start. */
const HASH_FILE = '.tsm-hash.json';

export type Pooling = 'mean' | 'cls';

export interface ModelFolder {
  dir: string;
  onnxPath: string;
  /** sha256 of model.onnx, whole (the spec's revision is its first 16 hex digits). */
  onnxSha256: string;
  tokenizerJson: Record<string, unknown>;
  tokenizerConfig: Record<string, unknown>;
  pooling: Pooling;
  spec: ModelSpec;
  /** sha256 of tokenizer.json (first 16 hex): a changed vocabulary changes the ids, so the fingerprint. */
  tokenizerHash: string;
  /** Where `tsm model pull` got the folder from (tsm-model.json's source), or null for a folder of the user's. */
  pulledFrom: string | null;
}

export type SpecOverrides = Partial<Omit<ModelSpec, 'revision'>>;

/** A JSON file of the folder, parsed; anything unreadable (not JSON, a folder, no permission) names the file and the fix. */
function parseJson(path: string, what: string, fix: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e instanceof SyntaxError ? 'is not valid JSON' : e.code === 'EISDIR' ? 'is a folder, not a file' : 'cannot be read';
    throw new EmbedError(`${path}: ${what} ${why} (${e.message}); ${fix}`);
  }
}

function readJson(path: string, what: string, fix: string): Record<string, unknown> {
  const data = parseJson(path, what, fix);
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new EmbedError(`${path}: ${what} must hold a JSON object; ${fix}`);
  return data as Record<string, unknown>;
}

const optionalJson = (path: string, what: string, fix: string): Record<string, unknown> => (existsSync(path) ? readJson(path, what, fix) : {});

/** The command that repairs a folder: pulling again for a pulled model, fixing by hand for the user's own. */
function fixFor(dir: string, name: string | undefined): string {
  return name && knownModel(name) ? `run \`tsm model pull ${name} --force\`` : `put a complete model export in ${dir} (docs/embeddings.md, "Your own model folder")`;
}

export function readModelFolder(dir: string, overrides: SpecOverrides = {}): ModelFolder {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    const name = overrides.name;
    throw new EmbedError(
      `no model folder at ${dir}: ` +
        (name && knownModel(name) ? `run \`tsm model pull ${name}\`` : 'run `tsm model pull NAME` (`tsm model list` names them) or set modelDir to a folder holding model.onnx and tokenizer.json'),
    );
  }
  const meta = optionalJson(join(dir, META_FILE), META_FILE, `fix or delete it`);
  const name = overrides.name ?? str(meta.name) ?? basename(dir);
  const fix = fixFor(dir, name);
  // A file: a folder named model.onnx (a download unpacked into a folder of that name) is no model, and
  // hashing it went out as EISDIR and a stack trace.
  const onnxPath = ONNX_PATHS.map((p) => join(dir, p)).find(isFile);
  if (onnxPath === undefined) throw new EmbedError(`${dir} holds no model.onnx (nor onnx/model.onnx): ${fix}`);
  const tokPath = join(dir, 'tokenizer.json');
  if (!existsSync(tokPath)) throw new EmbedError(`${dir} holds no tokenizer.json: ${fix}`);
  const tokenizerJson = readJson(tokPath, 'tokenizer.json', fix);
  const tokenizerConfig = optionalJson(join(dir, 'tokenizer_config.json'), 'tokenizer_config.json', fix);
  const config = optionalJson(join(dir, 'config.json'), 'config.json', fix);
  const known = knownModel(name);

  const dims = overrides.dims ?? num(meta.dims) ?? known?.dims ?? num(config.hidden_size) ?? 0;
  const maxTokens = overrides.maxTokens ?? num(meta.maxTokens) ?? known?.maxTokens ?? Math.min(512, num(tokenizerConfig.model_max_length) ?? 512);
  let onnxHash: string;
  try {
    onnxHash = onnxSha256(onnxPath);
  } catch (err) {
    throw new EmbedError(`${onnxPath} cannot be read (${(err as Error).message}); ${fix}`);
  }
  const spec: ModelSpec = {
    name,
    revision: `sha256:${onnxHash.slice(0, 16)}`,
    dims,
    queryPrefix: overrides.queryPrefix ?? str(meta.queryPrefix) ?? known?.queryPrefix ?? '',
    passagePrefix: overrides.passagePrefix ?? str(meta.passagePrefix) ?? known?.passagePrefix ?? '',
    maxTokens,
  };
  if (spec.maxTokens < 8) throw new EmbedError(`${dir}: maxTokens must be at least 8 (got ${spec.maxTokens}); fix ${META_FILE}`);
  return {
    dir,
    onnxPath,
    onnxSha256: onnxHash,
    tokenizerJson,
    tokenizerConfig,
    pooling: readPooling(dir, fix),
    spec,
    tokenizerHash: createHash('sha256').update(readFileSync(tokPath)).digest('hex').slice(0, 16),
    pulledFrom: str(meta.source) ?? null,
  };
}

/**
 * sentence-transformers' pooling (modules.json → the Pooling module's config.json): CLS or mean. Mean when
 * the folder does not say: both default models pool by mean, and so does every e5 and ruri model.
 */
function readPooling(dir: string, fix: string): Pooling {
  const modulesPath = join(dir, 'modules.json');
  // sentence-transformers' module list is a JSON array: read as the folder's other JSON files are, so a torn or
  // hand-edited one names itself and its fix (it went out as a bare SyntaxError and a stack trace).
  const modules = existsSync(modulesPath) ? parseJson(modulesPath, 'modules.json', fix) : null;
  let poolDir = '1_Pooling';
  if (Array.isArray(modules)) {
    const m = modules.find((x: { type?: string }) => typeof x?.type === 'string' && x.type.endsWith('.Pooling')) as { path?: string } | undefined;
    if (m?.path) poolDir = m.path;
  }
  const cfg = optionalJson(join(dir, poolDir, 'config.json'), 'the pooling config', fix);
  if (cfg.pooling_mode_cls_token === true) return 'cls';
  if (cfg.pooling_mode_mean_tokens === true || Object.keys(cfg).length === 0) return 'mean';
  const mode = Object.keys(cfg).filter((k) => k.startsWith('pooling_mode_') && cfg[k] === true);
  throw new EmbedError(`${join(dir, poolDir, 'config.json')}: pooling ${mode.join(', ') || '(none)'} is not supported (mean or CLS only); use a model that pools by mean or CLS`);
}

/** sha256 of a model file, cached beside it by size and mtime (hashing 120 MB takes ~0.3 s). */
export function onnxSha256(path: string): string {
  const st = statSync(path);
  const cacheFile = join(path, '..', HASH_FILE);
  const key = basename(path);
  let cache: Record<string, { size: number; mtimeMs: number; sha256: string }> = {};
  try {
    cache = JSON.parse(readFileSync(cacheFile, 'utf8'));
  } catch {
    // absent or unreadable: hash again
  }
  const hit = cache[key];
  if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.sha256;
  const sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
  cache[key] = { size: st.size, mtimeMs: st.mtimeMs, sha256 };
  try {
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(cache));
    renameSync(tmp, cacheFile);
  } catch {
    // a read-only folder the user provides: hash at every load instead
  }
  return sha256;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}
