// The prompt hook does not echo sessions back (issue 16 item 3), measured on a vault like a user's:
// vault-example plus session notes made from real Claude Code transcripts (/work/shared/transcripts, copied
// into test/sessions/fixtures) and sessions that asked the same question again.
import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openReader } from '../../src/index/db.js';
import { syncVault } from '../../src/index/sync.js';
import { Deadline } from '../../src/hooks/deadline.js';
import { promptContext, sessionEcho } from '../../src/hooks/prompt-context.js';
import { search } from '../../src/search/search.js';
import { ingestTranscript } from '../../src/sessions/ingest.js';
import { loadConfig, type TsmConfig } from '../../src/vault/config.js';
import { copyVaultExample } from '../helpers/cli.js';

const FIXTURES = join(import.meta.dirname, '..', 'sessions', 'fixtures');
const REAL = ['claude-code-2.0.76-main.jsonl', 'claude-code-2.1.38-plan-subagent-session.jsonl', 'claude-code-2.1.39-compaction-excerpt.jsonl'];
const SX = 'SX1262 の消費電力を教えて';
const S1 = '11111111-aaaa-4000-8000-000000000001';
const S2 = '22222222-bbbb-4000-8000-000000000002';
const S3 = '33333333-cccc-4000-8000-000000000003';

let root: string;
let cfg: TsmConfig;

/** A session in the dog-tracker project that asked `prompt` and got `answer`. */
function session(id: string, day: string, turns: Array<[string, string]>): string {
  const path = join(root, `${id}.jsonl`);
  let s = 0;
  for (const [prompt, answer] of turns) {
    const base = { sessionId: id, cwd: '/home/u/dog-tracker-fw', timestamp: `${day}T10:00:${String(s++).padStart(2, '0')}.000Z` };
    appendFileSync(path, JSON.stringify({ ...base, type: 'user', message: { role: 'user', content: prompt } }) + '\n');
    appendFileSync(path, JSON.stringify({ ...base, type: 'assistant', message: { id: `${id}-${s}`, role: 'assistant', content: [{ type: 'text', text: answer }] } }) + '\n');
  }
  return path;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tsm-echo-'));
  const vault = join(root, 'vault');
  copyVaultExample(vault);
  cfg = loadConfig({ vaultFlag: vault, env: {} });
  const opts = { vault, sessionsDir: cfg.sessionsDir, stateDir: join(vault, '.tsm', 'sessions') };
  for (const name of REAL) ingestTranscript(join(FIXTURES, name), opts);
  ingestTranscript(session(S1, '2026-11-20', [[SX, '調べてみます。少しお待ちください。']]), opts);
  ingestTranscript(session(S2, '2026-11-21', [[SX, 'ノートを探しましたが、見つかりませんでした。']]), opts);
  await syncVault(cfg);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The paths the hook injects for `prompt`, in order. */
function injected(prompt: string, sessionId: string | null): string[] {
  const r = promptContext(cfg, prompt, { deadline: new Deadline(60_000), sessionId });
  if (r.kind !== 'context') return [];
  const xml = (JSON.parse(r.output) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
  return [...xml.matchAll(/<source[^>]*>([^<]*)<\/source>/g)].map((m) => m[1]);
}

/** The same search without the echo rule: what the hook injected before. */
function plainSearch(prompt: string): string[] {
  const db = openReader(cfg.db);
  try {
    return search(db, { query: prompt, limit: cfg.hookTopK, snippetChars: cfg.snippetChars, tuning: { halfLifeDays: cfg.halfLifeDays } }).hits.map((h) => h.path);
  } finally {
    db.close();
  }
}

/** Judged queries: the note that answers each. */
const JUDGED: Array<[string, string]> = [
  [SX, 'knowledge/lora/sx1262-power-consumption.md'],
  ['SX1262 の消費電力', 'knowledge/lora/sx1262-power-consumption.md'],
  ['credo dialyxir mix_audit のセットアップ方法', 'sessions/2026-02-1'],
  ['LoRa の拡散率 SF を上げると通信時間はどうなる', 'knowledge/lora/lora-spreading-factor.md'],
];

describe('self-echo in the prompt hook', () => {
  it('the vault holds the sessions that asked the question, and they used to take the top ranks', () => {
    const names = readdirSync(cfg.sessionsDir);
    expect(names.filter((n) => n.includes('11111111') || n.includes('22222222'))).toHaveLength(2);
    const before = plainSearch(SX);
    expect(before.filter((p) => p.startsWith('sessions/2026-11-2')).length).toBeGreaterThan(0);
  });

  it('never injects the current session\'s own note, nor a session that only repeats the prompt', () => {
    for (const current of [S1, S2, S3, null]) {
      const paths = injected(SX, current);
      expect(paths[0], `session ${current}`).toBe('knowledge/lora/sx1262-power-consumption.md');
      expect(paths.filter((p) => p.includes('11111111') || p.includes('22222222')), `session ${current}`).toEqual([]);
    }
  });

  it('keeps a session note whose answer or actions match (it adds something)', () => {
    const paths = injected('credo dialyxir mix_audit のセットアップ方法', S3);
    expect(paths.some((p) => p.startsWith('sessions/2026-02-1'))).toBe(true);
  });

  it('judged queries: the answering note ranks first, before and after (printed for the record)', () => {
    const rows = JUDGED.map(([q, want]) => {
      const rank = (paths: string[]) => paths.findIndex((p) => p.startsWith(want)) + 1 || null;
      return { query: q, before: rank(plainSearch(q)), after: rank(injected(q, S3)) };
    });
    console.log(rows.map((r) => `${r.query} | before ${r.before ?? '-'} | after ${r.after ?? '-'}`).join('\n'));
    for (const r of rows) expect(r.after, r.query).not.toBeNull();
    expect(rows[0].after).toBe(1);
  });

  it('sessionEcho: the reasons, one rule', () => {
    const hit = (path: string, section: string, type: 'session' | 'knowledge' = 'session') => ({ path, section, type });
    expect(sessionEcho(hit('knowledge/a.md', 'A', 'knowledge'), S1)).toBeNull();
    expect(sessionEcho(hit('sessions/2026-11-20-fw-11111111.md', 'fw: q > 1. q > Answer'), S1)).toBe('the current session');
    expect(sessionEcho(hit('sessions/2026-11-20-fw-11111111-2.md', 'fw: q > 2. q > Answer'), S1)).toBe('the current session');
    expect(sessionEcho(hit('sessions/2026-11-20-fw-22222222.md', 'fw: q > 1. q'), S1)).toBe('matches a prompt, not an answer');
    expect(sessionEcho(hit('sessions/2026-11-20-fw-22222222.md', 'fw: q'), S1)).toBe('matches a prompt, not an answer');
    expect(sessionEcho(hit('sessions/2026-11-20-fw-22222222.md', 'fw: q > 1. q > Actions'), S1)).toBeNull();
  });
});
