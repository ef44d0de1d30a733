// A pasted prompt is kept as its head (PROMPT_CHARS), as an answer is (answerChars), with how much of how
// much was kept. It was kept whole: a 5.4 MB pasted log made a 5.4 MB note and a 5.5 MB ingest state, both
// rewritten by every later Stop.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestTranscript } from '../../src/sessions/ingest.js';
import { REDACTED } from '../../src/sessions/redact.js';
import { PROMPT_CHARS, promptFromUserText } from '../../src/sessions/user-message.js';

describe('a long prompt', () => {
  it('is kept as its head, with how much of how much was kept', () => {
    const log = Array.from({ length: 200_000 }, (_, i) => `2026-03-01T10:00:00Z INFO worker ${i} done`).join('\n');
    const kept = promptFromUserText(`why does this fail?\n${log}`) ?? '';
    expect(kept.startsWith('why does this fail?\n2026-03-01T10:00:00Z INFO worker 0 done')).toBe(true);
    const [, shown, total] = /\n\n\(([\d,]+) of ([\d,]+) characters kept\)$/.exec(kept) ?? [];
    expect(Number(shown.replace(/,/g, ''))).toBeLessThanOrEqual(PROMPT_CHARS);
    expect(Number(total.replace(/,/g, ''))).toBe(`why does this fail?\n${log}`.length);
    expect(kept.length).toBeLessThan(PROMPT_CHARS + 100);
  });

  it('is redacted in what it keeps, and a secret past the cut is not kept at all', () => {
    const filler = 'lorem ipsum '.repeat(1000);
    const kept = promptFromUserText(`DB_PASSWORD=hunter22 ${filler} API_TOKEN=zz9plural ${filler}`) ?? '';
    expect(kept).toContain(`DB_PASSWORD=${REDACTED}`);
    expect(kept).not.toMatch(/hunter22|zz9plural|API_TOKEN/);
  });

  it('a short prompt is kept whole, with no count', () => {
    expect(promptFromUserText('fix the failing test')).toBe('fix the failing test');
  });
});

describe('a session with a 5 MB pasted prompt', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tsm-cap-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('makes a small note and a small ingest state', () => {
    const sid = 'cafe0000-0000-4000-8000-000000000001';
    const base = { isSidechain: false, cwd: '/home/me/src/proj', sessionId: sid, version: '2.0.76', gitBranch: 'main' };
    const paste = 'x'.repeat(80) + '\n';
    const lines = [
      { ...base, type: 'user', uuid: 'u1', timestamp: '2026-03-01T10:00:00Z', message: { role: 'user', content: paste.repeat(65_000) } },
      { ...base, type: 'assistant', uuid: 'a1', timestamp: '2026-03-01T10:00:05Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'ok' }] } },
    ];
    const transcript = join(root, `${sid}.jsonl`);
    writeFileSync(transcript, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(statSync(transcript).size).toBeGreaterThan(5_000_000);
    const vault = join(root, 'vault');
    mkdirSync(vault);
    const stateDir = join(vault, '.tsm', 'sessions');
    const r = ingestTranscript(transcript, { vault, sessionsDir: join(vault, 'sessions'), stateDir });
    expect(readFileSync(r.notePath, 'utf8').length).toBeLessThan(10_000);
    for (const f of readdirSync(stateDir)) expect(statSync(join(stateDir, f)).size).toBeLessThan(20_000);
  });
});
