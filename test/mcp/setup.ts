// The test vault served in process: a real McpServer and a real Client over a linked in-memory transport.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openReader } from '../../src/index/db.js';
import { NoteReader } from '../../src/index/note-reader.js';
import { createContext } from '../../src/mcp/context.js';
import { createServer } from '../../src/mcp/server.js';
import type { TsmConfig } from '../../src/vault/config.js';
import { buildFixture, type Fixture, type NoteSpec } from './fixture.js';
import { NOW, vaultNotes } from './vault-data.js';

export interface Served {
  client: Client;
  fx: Fixture;
  logs: string[];
  /** The section id of a note's section with this heading. */
  sectionId(path: string, heading: string): Promise<number>;
  close(): Promise<void>;
}

/** `now`: the server's clock, NOW unless a test's notes are dated by the real one (their files' times). */
export async function connect(cfg: TsmConfig, logs: string[] = [], now = NOW): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = createServer(createContext(cfg, { now: () => now }), (line) => logs.push(line));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'tsm-test', version: '1.0.0' });
  await client.connect(clientSide);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export async function serveTestVault(): Promise<Served> {
  const fx = await buildFixture(vaultNotes);
  const logs: string[] = [];
  const { client, close } = await connect(fx.cfg, logs);
  return {
    client,
    fx,
    logs,
    async sectionId(path, heading) {
      const db = openReader(fx.cfg.db);
      try {
        const reader = new NoteReader(db, fx.cfg.db);
        const note = reader.noteByPath(path);
        const section = note && reader.sectionsOfNote(note.id).find((s) => s.heading === heading);
        if (!section) throw new Error(`no section "${heading}" in ${path}`);
        return section.id;
      } finally {
        db.close();
      }
    },
    async close() {
      await close();
      fx.cleanup();
    },
  };
}

/** A vault of these notes, indexed and served; `close` stops the server and removes the vault. */
export async function serveFixture(notes: Record<string, NoteSpec>): Promise<{ client: Client; fx: Fixture; close: () => Promise<void> }> {
  const fx = await buildFixture(notes);
  const served = await connect(fx.cfg);
  return {
    client: served.client,
    fx,
    close: async () => {
      await served.close();
      fx.cleanup();
    },
  };
}
