// End to end: `tsm ingest-session` of a session longer than the vault's maxFileBytes writes it as notes the
// index takes, all of them, and a search finds the session's last prompt. Before, it wrote one note past the
// bound, which its own index skipped ("skipped: file too large"): the session was gone from search.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tsm } from '../helpers/cli.js';

const ID = 'dddddddd-0000-4000-8000-000000000004';
const MAX = 40_000;

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tsm-note-size-e2e-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('a session past maxFileBytes is written as notes the index takes, and its last prompt is found', () => {
  const vault = join(work, 'vault');
  mkdirSync(join(vault, '.tsm'), { recursive: true });
  writeFileSync(join(vault, '.tsm', 'config.json'), JSON.stringify({ maxFileBytes: MAX }));
  const transcript = join(work, `${ID}.jsonl`);
  const lines: string[] = [];
  for (let i = 1; i <= 120; i++) {
    const t = (s: number) => new Date(Date.UTC(2026, 4, 20, 12, 0, 0) + i * 60_000 + s * 1000).toISOString();
    lines.push(JSON.stringify({ sessionId: ID, cwd: '/w/radio', timestamp: t(0), type: 'user', message: { role: 'user', content: `prompt ${i}: check the relay number r${i}x` } }));
    const answer = `relay r${i}x holds. ${'The antenna reached the ridge and the battery held for the whole test. '.repeat(14)}`;
    lines.push(JSON.stringify({ sessionId: ID, cwd: '/w/radio', timestamp: t(1), type: 'assistant', message: { id: `a${i}`, role: 'assistant', content: [{ type: 'text', text: answer }] } }));
  }
  writeFileSync(transcript, lines.join('\n') + '\n');
  const r = tsm(['--vault', vault, 'ingest-session', transcript]);
  expect(r.code, r.stderr).toBe(0);
  const names = readdirSync(join(vault, 'sessions'));
  expect(names.length).toBeGreaterThan(2);
  for (const n of names) expect(statSync(join(vault, 'sessions', n)).size).toBeLessThanOrEqual(MAX);
  expect(r.stderr).toContain(`index: ${names.length} added, 0 updated, 0 removed`);
  const status = JSON.parse(tsm(['--vault', vault, 'status', '--json']).stdout);
  expect(status.notes).toBe(names.length);
  expect(status.warnings).toBe(0);
  for (const i of [1, 60, 120]) {
    const found = JSON.parse(tsm(['--vault', vault, 'search', '-f', 'json', `r${i}x`]).stdout);
    expect(found.length, `r${i}x`).toBeGreaterThan(0);
    expect(found[0].path).toMatch(/^sessions\//);
  }
});
