import { appendFileSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { indexSessionNotes, ingestSession, ingestStateDir } from '../../src/sessions/ingest-and-index.js';
import { loadConfig, type TsmConfig } from '../../src/vault/config.js';

const FIXTURES = join(import.meta.dirname, '..', 'sessions', 'fixtures');
const ID = '7f3c2a91-5b1e-4c8d-9a0f-2e6b8d4c1a37';

let vault: string;
let cfg: TsmConfig;
beforeEach(() => {
  vault = mkdtempSync(join(tmpdir(), 'tsm-ingest-'));
  cfg = loadConfig({ vaultFlag: vault, env: {} });
});
afterEach(() => rmSync(vault, { recursive: true, force: true }));

const notes = () => (existsSync(cfg.sessionsDir) ? readdirSync(cfg.sessionsDir).filter((f) => f.endsWith('.md')) : []);

describe('ingestSession', () => {
  it('writes one session note per transcript into the sessions folder, state under .tsm/sessions', async () => {
    const t = join(vault, `${ID}.jsonl`);
    copyFileSync(join(FIXTURES, 'synthetic-session.jsonl'), t);
    const r = await ingestSession(cfg, t);
    expect(r.sessionId).toBe(ID);
    expect(r.changed).toBe(true);
    expect(r.prompts).toBeGreaterThan(0);
    expect(r.notePath.startsWith(join(vault, 'sessions'))).toBe(true);
    expect(notes()).toEqual([r.notePath.split('/').pop()]);
    expect(readFileSync(r.notePath, 'utf8')).toMatch(/^---\ntype: session\n/);
    expect(readdirSync(ingestStateDir(cfg)).some((f) => f.endsWith('.json'))).toBe(true);
    expect(readdirSync(ingestStateDir(cfg)).some((f) => f.endsWith('.lock'))).toBe(false);
  });

  it('is idempotent and incremental: the same transcript changes nothing, a grown one rewrites the same note', async () => {
    const lines = readFileSync(join(FIXTURES, 'synthetic-session.jsonl'), 'utf8').split('\n');
    const t = join(vault, `${ID}.jsonl`);
    writeFileSync(t, `${lines.slice(0, 10).join('\n')}\n`);
    const first = await ingestSession(cfg, t);
    const again = await ingestSession(cfg, t);
    expect(again.changed).toBe(false);
    appendFileSync(t, lines.slice(10).join('\n'));
    const grown = await ingestSession(cfg, t);
    expect(grown.changed).toBe(true);
    expect(grown.prompts).toBeGreaterThanOrEqual(first.prompts);
    expect(notes()).toHaveLength(1);
  });

  it('two ingests of one transcript at once end with one complete note', async () => {
    const t = join(vault, `${ID}.jsonl`);
    copyFileSync(join(FIXTURES, 'synthetic-session.jsonl'), t);
    const [a, b] = await Promise.all([ingestSession(cfg, t), ingestSession(cfg, t)]);
    expect(a.notePath).toBe(b.notePath);
    expect([a.changed, b.changed].sort()).toEqual([false, true]);
    expect(notes()).toHaveLength(1);
  });

  it('honours $TSM_SESSIONS_DIR', async () => {
    cfg = loadConfig({ vaultFlag: vault, env: { TSM_SESSIONS_DIR: 'log/claude' } });
    const t = join(vault, `${ID}.jsonl`);
    copyFileSync(join(FIXTURES, 'synthetic-session.jsonl'), t);
    const r = await ingestSession(cfg, t);
    expect(r.notePath.startsWith(join(vault, 'log', 'claude'))).toBe(true);
  });

  it('fails with a clear message for a transcript that does not exist', async () => {
    await expect(ingestSession(cfg, join(vault, 'missing.jsonl'))).rejects.toThrow(/cannot read transcript/);
  });

  it('has nothing to index when nothing changed', async () => {
    expect(await indexSessionNotes(cfg, [{ transcript: 't', sessionId: 's', notePath: join(vault, 'x.md'), changed: false, prompts: 0, removed: [], written: [], skipped: null, unfinishedLine: null }])).toBeNull();
    expect(existsSync(cfg.db)).toBe(false);
  });
});
