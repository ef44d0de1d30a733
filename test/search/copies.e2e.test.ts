// Copies of one note (a sync's conflicted copies) took three of the prompt hook's five places with one text.
// The hook and MCP search give each passage once and name the copies (MCP `copies`); `tsm search` lists every
// note, as grep would and as the eval measures the ranking. Two notes that share a paragraph under their own
// titles are no copies.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';
import { withoutCopies } from '../../src/search/copies.js';
import type { HitDetails } from '../../src/index/section-search.js';

const NOTE = '# Antenna tuning\n\nThe dipole antenna for 429 MHz needs trimming to 16.5 cm per leg.\n';
const SHARED = 'Boilerplate: the dipole antenna trimming table lives in the lab wiki.\n';
let v: { dir: string; cleanup: () => void };
beforeAll(() => {
  v = makeVault({
    'antenna.md': NOTE,
    'antenna (conflicted copy 2026-11-28).md': NOTE,
    'archive/antenna.sync-conflict-20261128-101010-ABCDEF.md': NOTE,
    'mounts.md': `# Mast mounts\n\n${SHARED}`,
    'cables.md': `# Coax cables\n\n${SHARED}`,
  });
  expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
});
afterAll(() => v.cleanup());

const hook = (prompt: string) => {
  const r = tsm(['hook'], { cwd: v.dir, input: JSON.stringify({ session_id: 's', transcript_path: '/nonexistent', cwd: v.dir, hook_event_name: 'UserPromptSubmit', prompt }) });
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
};

it('the prompt hook injects a note once, not once per copy; other notes fill the places', () => {
  const xml = hook('how long are the dipole antenna legs after trimming');
  expect(xml.match(/<source [^>]*>[^<]*<\/source>/g)).toEqual([
    '<source type="knowledge">antenna.md</source>',
    expect.stringMatching(/(mounts|cables)\.md/),
    expect.stringMatching(/(mounts|cables)\.md/),
  ]);
  expect(xml).toMatch(/count="3" total="3"/);
});

it('tsm search lists every note, copies included', () => {
  const r = tsm(['search', 'dipole antenna trimming', '-f', 'json'], { cwd: v.dir });
  expect((JSON.parse(r.stdout) as { path: string }[]).map((h) => h.path).sort()).toEqual([
    'antenna (conflicted copy 2026-11-28).md',
    'antenna.md',
    'archive/antenna.sync-conflict-20261128-101010-ABCDEF.md',
    'cables.md',
    'mounts.md',
  ]);
});

it('withoutCopies keeps the first of each heading path and text, and names the rest on it', () => {
  const d = (id: number, path: string, headingPath: string, text: string) => [id, { id, path, headingPath, text } as HitDetails] as const;
  const details = new Map([d(1, 'a.md', 'A', 'x'), d(2, 'b.md', 'A', 'x'), d(3, 'c.md', 'C', 'x'), d(4, 'd.md', 'D', ''), d(5, 'e.md', 'D', ''), d(6, 'f.md', 'A', 'x')]);
  const r = withoutCopies([1, 2, 3, 4, 5, 6].map((id) => ({ id })), details);
  expect(r.kept.map((p) => p.id)).toEqual([1, 3, 4, 5]);
  expect(r.copies).toEqual(new Map([[1, ['b.md', 'f.md']]]));
});
