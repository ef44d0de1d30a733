// The resident query embedder (issue 17): `tsm serve` and `tsm watch`, when the vault names a model, load
// it once and answer query vectors on the vault's socket (socket-server.ts) for `tsm search`, which never
// loads a model. The MCP server's own searches call the same embedder in process. Only these resident
// paths import the runtime (embedder.ts, onnxruntime), and only dynamically.
import type { TsmConfig } from '../vault/config.js';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { modelDirFor } from './models.js';
import type { NearestSource, QueryVector } from './socket-protocol.js';
import { serveQueryVectors, type NoServer, type QueryServer } from './socket-server.js';
import type { Embedder } from './types.js';

/**
 * The model a vault uses, or null: none, and nothing neural loads, listens or runs. A vault has one when
 * its settings name a folder (modelDir), or when the model its settings name (model) has been pulled —
 * the same steps after which `tsm doctor` counts semantic search as set up (embed/status.ts).
 */
export function configuredModel(cfg: Pick<TsmConfig, 'model' | 'modelDir'>, env: NodeJS.ProcessEnv = process.env): string | null {
  const dir = modelDirFor(cfg, env);
  return cfg.modelDir !== null || existsSync(dir) ? dir : null;
}

/** Loads the vault's model (null when it has none); the runtime's errors name their fix. */
export async function loadVaultEmbedder(cfg: TsmConfig, opts: { threads?: number } = {}): Promise<Embedder | null> {
  if (configuredModel(cfg) === null) return null;
  const { loadConfiguredEmbedder } = await import('./embedder.js');
  return loadConfiguredEmbedder(cfg, { threads: opts.threads });
}

export interface ResidentEmbedder {
  readonly embedder: Embedder;
  /** The socket this process answers on; null while another process answers for the vault, or none can be made. */
  readonly server: QueryServer | null;
  /** Another live process answers on the vault's socket (and embeds its sections): this one stands down. */
  readonly standsDown: boolean;
  /**
   * Calls `onClaimed` once this process is the vault's resident, the one that embeds: at once when it answers
   * on the vault's socket, or when no socket can be made there (null: nothing answers `tsm search`, and this
   * one embeds all the same; it tries to listen again every `everyMs`, quietly, and says so once it does);
   * else when a try every `everyMs` finds the other process gone (a watcher stopped while `tsm serve` goes on).
   */
  whenServing(everyMs: number, onClaimed: (server: QueryServer | null) => void): void;
  /** The query's vector, with the vault's nearest notes when this process holds a copy of the index's vectors. */
  queryVector(text: string): Promise<QueryVector>;
  /** The index's vectors changed (this process's embedding job stored some): read the copy again. */
  vectorsStored(): void;
  /**
   * The index now holds another model's vectors (the vault's model changed, and `tsm index --embed` or another
   * resident embedded with it): this process stops answering on the vault's socket and never listens there
   * again. Its query vectors rank nothing in that index, and holding the socket said to `tsm search` and
   * `tsm status` that it embeds for the vault, and kept a resident of the vault's model from taking over.
   */
  standDown(): Promise<void>;
  close(): Promise<void>;
}

/** How often a resident that found the socket taken tries again. */
export const CLAIM_EVERY_MS = 30_000;

/**
 * How often a resident that answers checks that its socket file is still there: one lstat, at the pace the
 * watcher checks its pid file. `.tsm/` deleted (and made again) under it took the file with it, and every
 * `tsm search` went lexical ("no resident process") for as long as the resident ran.
 */
const SOCKET_CHECK_MS = 1000;

/**
 * Loads the vault's model and serves query vectors for it. Null when the vault names no model, or the model
 * cannot be loaded (the reason goes to `onNotice`: a resident process keeps working lexically).
 */
export async function startResidentEmbedder(
  cfg: TsmConfig,
  onNotice: (message: string) => void,
  /** The index's vectors in memory (index/vectors-in-memory.ts), for the notes the neural ranker may add. */
  makeVectors?: () => NearestSource,
): Promise<ResidentEmbedder | null> {
  let embedder: Embedder | null;
  try {
    embedder = await loadVaultEmbedder(cfg);
  } catch (err) {
    onNotice(`the embedding model is not used: ${(err as Error).message}`);
    return null;
  }
  if (!embedder) return null;
  const e = embedder;
  const vectors = makeVectors?.() ?? null;
  vectors?.readSoon();
  const queryVector = async (text: string): Promise<QueryVector> => {
    const vector = await e.embedQuery(text);
    const nearest = vectors?.nearest(e.fingerprint, vector);
    return { fingerprint: e.fingerprint, vector, ...(nearest ? { nearest } : {}) };
  };
  const first = await serveQueryVectors(cfg.vault, queryVector, onNotice);
  let server: QueryServer | null = typeof first === 'string' ? null : first;
  let why: NoServer | null = typeof first === 'string' ? first : null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let stoodDown = false;
  // The socket file gone: listen again, once the vault's `.tsm/` is back (a resident never makes that folder
  // itself: the watcher writes its pid file there within a second, a user restores its config.json).
  let renewing = false;
  const keeper = setInterval(() => {
    const lost = server;
    if (closed || stoodDown || renewing || !lost || lost.present() || !existsSync(dirname(dirname(lost.path)))) return;
    renewing = true;
    void lost
      .close()
      .then(() => serveQueryVectors(cfg.vault, queryVector, onNotice))
      .then(async (s) => {
        if (closed || stoodDown) return void (typeof s === 'string' ? undefined : await s.close());
        // Taken: another resident took the vault's socket in the meantime, and answers instead.
        server = typeof s === 'string' ? null : s;
        if (server) onNotice(`the query-embedding socket ${server.path} was gone; listening again`);
      })
      .finally(() => (renewing = false));
  }, SOCKET_CHECK_MS);
  keeper.unref();
  return {
    embedder: e,
    get server() {
      return server;
    },
    get standsDown() {
      return why === 'taken';
    },
    whenServing(everyMs, onClaimed) {
      if (server) return onClaimed(server);
      // No socket can be made (its reason went to onNotice): no other process answers, so this one embeds;
      // before, it took that for "another process answers" and left the vault without vectors.
      let claimed = why === 'unavailable';
      if (claimed) onClaimed(null);
      let trying = false;
      timer = setInterval(() => {
        if (trying || closed || stoodDown) return;
        trying = true;
        // The reason it cannot listen was said once; each try is quiet until it listens.
        void serveQueryVectors(cfg.vault, queryVector, claimed ? () => {} : onNotice)
          .then((s) => {
            if (typeof s === 'string') {
              why = s;
              if (!claimed && s === 'unavailable') {
                claimed = true;
                onClaimed(null);
              }
              return;
            }
            if (closed || stoodDown) return void s.close();
            server = s;
            why = null;
            if (timer) clearInterval(timer);
            if (claimed) onNotice(`query vectors on ${s.path} now`);
            else onClaimed(s);
          })
          .finally(() => (trying = false));
      }, everyMs);
      timer.unref();
    },
    queryVector,
    vectorsStored: () => vectors?.readSoon(true),
    standDown: async () => {
      if (stoodDown || closed) return;
      stoodDown = true;
      if (timer) clearInterval(timer);
      const s = server;
      server = null;
      if (!s) return;
      await s.close();
      onNotice(`no longer answering query vectors on ${s.path}: the next \`tsm watch\` / \`tsm serve\` with the vault's model takes it over`);
    },
    close: async () => {
      closed = true;
      clearInterval(keeper);
      if (timer) clearInterval(timer);
      vectors?.close();
      await server?.close();
      await e.close();
    },
  };
}
