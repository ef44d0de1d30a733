// The session-note layout has one home (sessions/note-format.ts): what render.ts writes, the real note
// parser splits, and sessionPrompts() reads back, prompt by prompt.
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SectionRecord } from '../../src/core/types.js';
import { parseNote } from '../../src/parse/parse-note.js';
import { DEFAULT_PARSE_OPTIONS } from '../../src/parse/options.js';
import { emptyModel, type SessionAction, type SessionModel } from '../../src/sessions/model.js';
import { parsePromptHeading, promptHeading, promptPart, sessionIdOfRecord, sessionPathPart, sessionPrompts } from '../../src/sessions/note-format.js';
import { renderSessionNote } from '../../src/sessions/render.js';
import { applyTranscriptLines } from '../../src/sessions/transcript.js';
import { FIXTURES, fixtureNames } from './helpers.js';

/** The note as the index stores it: the real parser's sections, numbered in file order. */
function sectionsOf(markdown: string, chunkChars = DEFAULT_PARSE_OPTIONS.chunkChars): SectionRecord[] {
  const parsed = parseNote({ path: 'sessions/s.md', content: markdown, mtimeMs: 0 }, { ...DEFAULT_PARSE_OPTIONS, chunkChars });
  return parsed.sections.map((s, i) => ({ id: i + 1, noteId: 1, ord: i, heading: s.heading, level: s.level, headingPath: s.headingPath, startLine: s.startLine, endLine: s.endLine, text: s.text }));
}

function model(prompts: Array<{ text: string; actions: SessionAction[]; answer: string }>): SessionModel {
  return {
    ...emptyModel('0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'),
    project: 'demo',
    started: '2026-03-15T12:00:00.000Z',
    prompts: prompts.map((p, i) => ({ n: i + 1, timestamp: null, ...p })),
  };
}

describe('session note: render → parse round trip', () => {
  it('gives back each prompt: number, first line, actions (tool, subject, status) and answer', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9 ./#-]{1,30}$/).map((s) => s.trim() || 'x');
    const action = fc.oneof(
      fc.record({ tool: fc.constantFrom('Read', 'Edit', 'Write'), summary: word }).map((a) => ({ ...a, path: a.summary })),
      fc.record({ tool: fc.constant('Bash'), summary: word, exitStatus: fc.constantFrom<'ok' | 'error' | 'refused'>('ok', 'error', 'refused') }).map((a) => ({ ...a, command: a.summary })),
    );
    const prompt = fc.record({ text: word, actions: fc.array(action, { maxLength: 4 }), answer: fc.oneof(fc.constant(''), word) });
    fc.assert(
      fc.property(fc.array(prompt, { minLength: 1, maxLength: 4 }), fc.constantFrom(2400, 60), (prompts, chunkChars) => {
        const m = model(prompts);
        const back = sessionPrompts(sectionsOf(renderSessionNote(m, { answerChars: 1200 }), chunkChars));
        expect(back.map((p) => p.n)).toEqual(m.prompts.map((p) => p.n));
        back.forEach((p, i) => {
          const src = m.prompts[i];
          expect(p.heading).toBe(src.text.trim().replace(/\s+/g, ' '));
          expect(p.actions.map((a) => [a.tool, a.subject, a.status])).toEqual(src.actions.map((a) => [a.tool, a.summary, a.exitStatus]));
          expect(p.answer === '').toBe(src.answer === '');
        });
      }),
      { numRuns: 120 },
    );
  });

  for (const name of fixtureNames()) {
    it(`reads back every prompt of the ${name} note`, () => {
      const lines = readFileSync(join(FIXTURES, name), 'utf8').split('\n');
      const m = applyTranscriptLines(null, lines, 'x');
      const back = sessionPrompts(sectionsOf(renderSessionNote(m, { answerChars: 1200 })));
      expect(back.map((p) => p.n)).toEqual(m.prompts.map((p) => p.n));
      expect(back.map((p) => p.actions.length)).toEqual(m.prompts.map((p) => p.actions.length));
    });
  }
});

describe('note-format helpers', () => {
  it('writes and reads prompt headings', () => {
    expect(promptHeading(3, 'fix it')).toBe('3. fix it');
    expect(parsePromptHeading(promptHeading(3, 'fix it'))).toEqual({ n: 3, text: 'fix it' });
    expect(parsePromptHeading(promptHeading(0, 'ignored'))).toEqual({ n: 0, text: '(activity before the first prompt)' });
    expect(parsePromptHeading('Notes')).toBeNull();
  });

  it('names the part of a prompt a heading or a heading path is in', () => {
    expect(promptPart(' actions ')).toBe('actions');
    expect(promptPart('Answer')).toBe('answer');
    expect(promptPart('Ideas')).toBe('other');
    expect(sessionPathPart('demo: q')).toBe('request');
    expect(sessionPathPart('demo: q > 1. q')).toBe('request');
    expect(sessionPathPart('demo: q > 1. q > Answer')).toBe('answer');
    expect(sessionPathPart('demo: q > 2. a > b > Actions')).toBe('actions');
  });
});

describe('sessionIdOfRecord', () => {
  it('is a session note\'s session_id, a number written by hand as its text, and null for anything else', () => {
    expect(sessionIdOfRecord({ type: 'session', frontmatter: { session_id: '7f3c2a91-5b1e' } })).toBe('7f3c2a91-5b1e');
    expect(sessionIdOfRecord({ type: 'session', frontmatter: { session_id: 1234 } })).toBe('1234');
    expect(sessionIdOfRecord({ type: 'session', frontmatter: { session_id: '' } })).toBeNull();
    expect(sessionIdOfRecord({ type: 'session', frontmatter: {} })).toBeNull();
    expect(sessionIdOfRecord({ type: 'session', frontmatter: { session_id: ['a'] } })).toBeNull();
    expect(sessionIdOfRecord({ type: 'knowledge', frontmatter: { session_id: 'abc' } })).toBeNull();
  });
});
