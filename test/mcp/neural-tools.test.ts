// The MCP server's own model reaches its searches: `search` and `retrieve_memory` ask the context for the
// query's vector (the words that rank, operators left out) and hand it to search(), whose neural ranker then
// adds its votes; a vector of a model the index holds no vectors of changes nothing. Real runtime, the tiny
// generated model, a real index embedded by the job of `tsm index --embed`.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEmbedder } from '../../src/embed/embedder.js';
import type { QueryVector } from '../../src/embed/socket-protocol.js';
import type { Embedder } from '../../src/embed/types.js';
import { openWriter } from '../../src/index/db.js';
import { embedPending } from '../../src/index/embed-job.js';
import { createContext } from '../../src/mcp/context.js';
import { createServer } from '../../src/mcp/server.js';
import { writeTinyModel } from '../helpers/tiny-model.js';
import { ok } from './client.js';
import { buildFixture, type Fixture } from './fixture.js';
import { NOW, vaultNotes } from './vault-data.js';

let fx: Fixture;
let embedder: Embedder;
let other: Embedder;

beforeAll(async () => {
  fx = await buildFixture(vaultNotes);
  writeTinyModel(join(fx.outside, 'm1'), { seed: 1 });
  writeTinyModel(join(fx.outside, 'm2'), { seed: 2, meta: { name: 'tsm-test/tiny-2' } });
  embedder = await loadEmbedder(join(fx.outside, 'm1'));
  other = await loadEmbedder(join(fx.outside, 'm2'));
  const { db } = openWriter(fx.cfg.db);
  try {
    expect((await embedPending(db, embedder)).remaining).toBe(0);
  } finally {
    db.close();
  }
}, 60_000);

afterAll(async () => {
  await embedder?.close();
  await other?.close();
  fx?.cleanup();
});

/** A server whose context embeds with `model` (none: no model), recording the texts it was asked for. */
async function serverWith(model: Embedder | null, asked: string[], queryVector = vectorsOf(model, asked)) {
  const server = createServer(createContext(fx.cfg, { now: () => NOW, ...(queryVector ? { queryVector } : {}) }), () => {});
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'tsm-test', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, close: async () => (await client.close(), await server.close()) };
}

function vectorsOf(model: Embedder | null, asked: string[]) {
  if (!model) return undefined;
  return async (text: string): Promise<QueryVector> => {
    asked.push(text);
    return { fingerprint: model.fingerprint, vector: await model.embedQuery(text) };
  };
}

const scores = (r: { results: Array<{ path: string; score: number }> }) => r.results.map((h) => `${h.path} ${h.score}`);

describe('MCP tools with the server’s embedding model', () => {
  it('search passes the vector of the ranking words; the neural ranker adds to the fused scores', async () => {
    const plain = await serverWith(null, []);
    const asked: string[] = [];
    const neural = await serverWith(embedder, asked);
    const foreign = await serverWith(other, []);
    try {
      const args = { query: 'antenna range -garden', limit: 10 };
      const lexical = await ok(plain.client, 'search', args);
      const withModel = await ok(neural.client, 'search', args);
      const withForeign = await ok(foreign.client, 'search', args);
      expect(lexical.total).toBeGreaterThan(1);
      expect(asked).toEqual(['antenna range']);
      // Same notes found (reorder-only by default), but each carries the neural ranker's vote.
      expect(withModel.results.map((h: any) => h.path).sort()).toEqual(lexical.results.map((h: any) => h.path).sort());
      expect(withModel.results[0].score).toBeGreaterThan(lexical.results[0].score);
      // Vectors of two models are never compared: the other model's query vector ranks exactly as none.
      expect(scores(withForeign)).toEqual(scores(lexical));
    } finally {
      await plain.close();
      await neural.close();
      await foreign.close();
    }
  });

  it('retrieve_memory asks for the vector too', async () => {
    const asked: string[] = [];
    const s = await serverWith(embedder, asked);
    try {
      const text = await ok(s.client, 'retrieve_memory', { query: 'whip antenna "quarter-wave"' });
      expect(String(text)).toMatch(/lora/i);
      expect(asked).toEqual(['whip antenna']);
    } finally {
      await s.close();
    }
  });
});

describe('hook_context with the server’s embedding model', () => {
  const PROMPT = 'how far does the quarter-wave whip antenna reach?';
  const xmlScores = (text: string) => [...text.matchAll(/score="([\d.]+)"/g)].map((m) => Number(m[1]));
  const context = async (s: { client: Client }) => {
    const r = await s.client.callTool({ name: 'hook_context', arguments: { hook_event_name: 'UserPromptSubmit', prompt: PROMPT, session_id: 's1' } });
    const text = (r.content as Array<{ text: string }>)[0]!.text;
    return text === '{}' ? '' : (JSON.parse(text).hookSpecificOutput.additionalContext as string);
  };

  it('embeds the prompt and lets the neural ranker vote in what is injected', async () => {
    const asked: string[] = [];
    const plain = await serverWith(null, []);
    const neural = await serverWith(embedder, asked);
    try {
      const cold = await context(plain);
      const warm = await context(neural);
      expect(cold).toContain('<knowledge_search');
      expect(asked).toEqual([PROMPT]);
      expect(xmlScores(warm)[0]).toBeGreaterThan(xmlScores(cold)[0]!);
    } finally {
      await plain.close();
      await neural.close();
    }
  });

  it('a model that fails or hangs costs the prompt nothing but its wait: the lexical context is injected', async () => {
    const plain = await serverWith(null, []);
    const failing = await serverWith(null, [], async () => {
      throw new Error('the model fell over');
    });
    const hanging = await serverWith(null, [], () => new Promise<QueryVector>(() => {}));
    try {
      const cold = await context(plain);
      expect(await context(failing)).toBe(cold);
      const t0 = Date.now();
      expect(await context(hanging)).toBe(cold);
      expect(Date.now() - t0).toBeLessThan(1500); // PROMPT_VECTOR_MS (250) and the search, never the hook's deadline
    } finally {
      await plain.close();
      await failing.close();
      await hanging.close();
    }
  });
});
