// The resident query embedder (issue 17): `tsm serve` and `tsm watch`, when the vault names a model, load
// it once and answer query vectors on the vault's socket (socket-server.ts) for `tsm search`, which never
// loads a model. The MCP server's own searches call the same embedder in process. Only these resident
// paths import the runtime (embedder.ts, onnxruntime), and only dynamically.
import type { TsmConfig } from '../vault/config.js';
import { existsSync } from 'node:fs';
import { modelDirFor } from './models.js';
import type { QueryVector } from './socket-protocol.js';
import { serveQueryVectors, type QueryServer } from './socket-server.js';
import type { Embedder } from './types.js';

/**
 * The model a vault uses, or null: none, and nothing neural loads, listens or runs. A vault has one when
 * its settings name a folder (modelDir), or when the model its settings name (model) has been pulled —
 * the same steps after which `tsm doctor` counts semantic search as set up (embed/status.ts).
 */
export function configuredModel(cfg: Pick<TsmConfig, 'model' | 'modelDir'>, env: NodeJS.ProcessEnv = process.env): { dir: string; name?: string } | null {
  if (cfg.modelDir !== null) return { dir: cfg.modelDir };
  const dir = modelDirFor(cfg, env);
  return existsSync(dir) ? { dir, name: cfg.model } : null;
}

/** Loads the vault's model (null when it has none); the runtime's errors name their fix. */
export async function loadVaultEmbedder(cfg: TsmConfig, opts: { threads?: number } = {}): Promise<Embedder | null> {
  const model = configuredModel(cfg);
  if (model === null) return null;
  const { loadEmbedder } = await import('./embedder.js');
  return loadEmbedder(model.dir, { threads: opts.threads, ...(model.name ? { name: model.name } : {}) });
}

export interface ResidentEmbedder {
  readonly embedder: Embedder;
  /** The socket this process answers on; null when another process answers for the vault already. */
  readonly server: QueryServer | null;
  queryVector(text: string): Promise<QueryVector>;
  close(): Promise<void>;
}

/**
 * Loads the vault's model and serves query vectors for it. Null when the vault names no model, or the model
 * cannot be loaded (the reason goes to `onNotice`: a resident process keeps working lexically).
 */
export async function startResidentEmbedder(cfg: TsmConfig, onNotice: (message: string) => void): Promise<ResidentEmbedder | null> {
  let embedder: Embedder | null;
  try {
    embedder = await loadVaultEmbedder(cfg);
  } catch (err) {
    onNotice(`the embedding model is not used: ${(err as Error).message}`);
    return null;
  }
  if (!embedder) return null;
  const e = embedder;
  const queryVector = async (text: string): Promise<QueryVector> => ({ fingerprint: e.fingerprint, vector: await e.embedQuery(text) });
  const server = await serveQueryVectors(cfg.vault, queryVector, onNotice);
  return {
    embedder: e,
    server,
    queryVector,
    close: async () => {
      await server?.close();
      await e.close();
    },
  };
}
