// Two sessions whose ids share their first 8 characters, on the same day in the same project: each gets a
// note of its own. The second was reported "left alone, edited since tsm wrote it" (untrue), written as
// `…-cccccccc-2.md` "(part 2)" with `continues:` naming the other session's note.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestTranscript, type IngestOptions } from '../../src/sessions/ingest.js';
import { isNoteOfSession, sessionIdOfNote } from '../../src/sessions/note-format.js';
import { frontmatterOf } from './helpers.js';

const A = 'cccccccc-0000-4000-8000-000000000001';
const B = 'cccccccc-0000-4000-8000-000000000002';
let root: string;
let opts: IngestOptions;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-names-'));
  mkdirSync(join(root, 'vault'));
  opts = { vault: join(root, 'vault'), sessionsDir: join(root, 'vault', 'sessions'), stateDir: join(root, 'vault', '.tsm', 'sessions') };
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function session(id: string, prompt: string): string {
  const base = { sessionId: id, cwd: '/w/proj', timestamp: '2026-05-20T12:00:00Z' };
  const path = join(root, `${id}.jsonl`);
  const lines = [
    { ...base, type: 'user', message: { role: 'user', content: prompt } },
    { ...base, type: 'assistant', message: { id: `m-${id}`, role: 'assistant', content: [{ type: 'text', text: 'done' }] } },
  ];
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}

describe('two sessions whose ids share their first 8 characters', () => {
  it('get a note each: the first by 8 characters, the second by 16; nothing is "edited", nothing continues', () => {
    const a = ingestTranscript(session(A, 'first session'), opts);
    const b = ingestTranscript(session(B, 'second session'), opts);
    expect(readdirSync(opts.sessionsDir).sort()).toEqual(['2026-05-20-proj-cccccccc.md', '2026-05-20-proj-cccccccc00004000.md']);
    expect(a.notePath.endsWith('-cccccccc.md')).toBe(true);
    expect(b.notePath.endsWith('-cccccccc00004000.md')).toBe(true);
    expect(b.kept).toEqual([]);
    const note = readFileSync(b.notePath, 'utf8');
    expect(frontmatterOf(note)).toMatchObject({ session_id: B });
    expect(frontmatterOf(note)).not.toHaveProperty('continues');
    expect(note).not.toContain('(part 2)');
    // The first session goes on in its own note.
    expect(ingestTranscript(session(A, 'first session'), opts)).toMatchObject({ notePath: a.notePath, kept: [] });
  });
});

describe('names and frontmatter read back', () => {
  it('isNoteOfSession knows names of 8 and more of the id, continuations included', () => {
    expect(isNoteOfSession('sessions/2026-05-20-proj-cccccccc.md', B)).toBe(true);
    expect(isNoteOfSession('sessions/2026-05-20-proj-cccccccc00004000.md', B)).toBe(true);
    expect(isNoteOfSession('sessions/2026-05-20-proj-cccccccc00004000-2.md', B)).toBe(true);
    expect(isNoteOfSession('sessions/2026-05-20-proj-cccccccc-3.md', B)).toBe(true);
    expect(isNoteOfSession('sessions/2026-05-20-proj-cccccccc00009999.md', B)).toBe(false);
    expect(isNoteOfSession('sessions/2026-05-20-proj-ccccccc.md', B)).toBe(false);
  });

  it('sessionIdOfNote reads the session_id render.ts writes, and null from other files', () => {
    expect(sessionIdOfNote(`---\ntype: session\nsession_id: "${A}"\nproject: "proj"\n---\n# x\n`)).toBe(A);
    expect(sessionIdOfNote('# my own note\n')).toBeNull();
    expect(sessionIdOfNote('---\ntitle: x\n---\nsession_id: y\n')).toBeNull();
  });
});
