import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyTranscriptLines } from '../../src/sessions/transcript.js';
import { emptyModel, type SessionModel, type SessionPrompt } from '../../src/sessions/model.js';
import { renderSessionNote, sessionNoteName, slugify } from '../../src/sessions/render.js';
import { actionLine } from '../../src/sessions/action-line.js';
import { fixtureLines, fixtureNames, frontmatterOf, GOLDEN, headingsOf, type HeadingInfo } from './helpers.js';

const UPDATE = process.env.UPDATE_GOLDEN === '1';
const OPTS = { answerChars: 1200 };

function modelWith(overrides: Partial<SessionModel>, prompts: Array<Partial<SessionPrompt>> = []): SessionModel {
  return {
    ...emptyModel('0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d'),
    project: 'demo',
    cwd: '/home/u/demo',
    // Noon UTC is the same calendar day from UTC-11 to UTC+11: the file-name date does not depend on TZ.
    started: '2026-03-15T12:00:00.000Z',
    ended: '2026-03-15T12:30:00.000Z',
    ...overrides,
    prompts: prompts.map((p, i) => ({ n: i + 1, text: `prompt ${i + 1}`, timestamp: null, actions: [], answer: '', ...p })),
  };
}

/** The headings the note must have, from the model: nothing a transcript contains may add to them. */
function expectedHeadings(model: SessionModel): number[] {
  const depths = [1];
  for (const p of model.prompts) {
    depths.push(2);
    if (p.actions.length > 0) depths.push(3);
    if (p.answer !== '') depths.push(3);
  }
  return depths;
}

const depths = (headings: HeadingInfo[]) => headings.map((h) => h.depth);

describe('golden session notes', () => {
  for (const name of fixtureNames()) {
    it(`renders ${name} exactly as its golden note`, () => {
      const note = renderSessionNote(applyTranscriptLines(null, fixtureLines(name), name.replace(/\.jsonl$/, '')), OPTS);
      const golden = join(GOLDEN, name.replace(/\.jsonl$/, '.md'));
      if (UPDATE) {
        mkdirSync(GOLDEN, { recursive: true });
        writeFileSync(golden, note);
      }
      expect(existsSync(golden), `missing ${golden}: run with UPDATE_GOLDEN=1`).toBe(true);
      expect(note).toBe(readFileSync(golden, 'utf8'));
    });
  }
});

describe('note structure', () => {
  for (const name of fixtureNames()) {
    it(`${name}: headings are exactly title, prompts, Actions and Answer; frontmatter reads back`, () => {
      const model = applyTranscriptLines(null, fixtureLines(name), 'f');
      const note = renderSessionNote(model, OPTS);
      const headings = headingsOf(note);
      expect(depths(headings)).toEqual(expectedHeadings(model));
      const promptHeadings = headings.filter((h) => h.depth === 2).map((h) => h.text.split('.')[0]);
      expect(promptHeadings).toEqual(model.prompts.map((p) => String(p.n)));
      expect(headings.filter((h) => h.depth === 3).every((h) => h.text === 'Actions' || h.text === 'Answer')).toBe(true);

      const data = frontmatterOf(note);
      expect(data).toEqual({
        type: 'session',
        session_id: model.sessionId,
        project: model.project,
        cwd: model.cwd,
        git_branch: model.gitBranch,
        started: model.started,
        ended: model.ended,
        files_read: model.filesRead,
        files_edited: model.filesEdited,
        commands: model.commands,
        tags: data.tags,
      });
      expect((data.tags as string[])[0]).toBe('session');
    });
  }

  it('keeps YAML valid and exact whatever the values contain (property)', () => {
    const nasty = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('yes', 'no', 'null', '~', '2026-01-01', '1e3', '- x', ': y', '#z', '"q"', "'s'", '\\', '---', '\u2028', '\ufeff', '\u0085', '@a', '`b`', '*c', '&d', '!e', '%f', '{g}', '[h]'),
    );
    fc.assert(
      fc.property(nasty, nasty, fc.array(nasty, { maxLength: 3 }), fc.array(nasty, { maxLength: 3 }), (cwd, branch, files, commands) => {
        const model = modelWith({ cwd, gitBranch: branch, project: cwd, filesRead: files, commands });
        const data = frontmatterOf(renderSessionNote(model, OPTS));
        expect(data.cwd).toBe(cwd);
        expect(data.git_branch).toBe(branch);
        expect(data.project).toBe(cwd);
        expect(data.files_read).toEqual(files);
        expect(data.commands).toEqual(commands);
      }),
      { numRuns: 100 },
    );
  });

  it('never lets prompt or answer text break the structure (property)', () => {
    const piece = fc.constantFrom('# h', '## 2. fake', '```', '~~~', '---', '===', '> ', '- ', '1. ', '<!--', '<pre>', '    ', 'text', '\n', '\n\n', '`', '#');
    const text = fc.array(piece, { maxLength: 30 }).map((p) => p.join(''));
    const prompt = fc.record({ text: text.map((t) => t || 'x'), answer: text });
    fc.assert(
      fc.property(fc.array(prompt, { minLength: 1, maxLength: 3 }), fc.integer({ min: 5, max: 200 }), (prompts, answerChars) => {
        const model = modelWith({}, prompts);
        const note = renderSessionNote(model, { answerChars });
        expect(depths(headingsOf(note))).toEqual(expectedHeadings(model));
      }),
      { numRuns: 150 },
    );
  });
});

describe('single-line fields', () => {
  const breaker = fc.constantFrom('\n# injected', '\n## 9. fake', '\r\n### Answer', '\u2028# x', '\n- item', '\n```', '\n---', '\n<!--', 'plain');
  const field = fc.array(fc.oneof(breaker, fc.string({ maxLength: 6 })), { maxLength: 4 }).map((p) => p.join('') || 'x');

  it('a newline in the project, a tool name, a path or a summary never adds a heading (property)', () => {
    fc.assert(
      fc.property(field, field, field, field, (project, tool, path, summary) => {
        const actions = [
          { tool, summary },
          { tool: 'Grep', summary, path },
          { tool: 'Bash', summary, command: summary, exitStatus: 'ok' as const },
        ];
        const model = modelWith({ project, cwd: `/w/${project}` }, [{ text: 'p', actions, answer: 'a' }]);
        const note = renderSessionNote(model, OPTS);
        expect(depths(headingsOf(note))).toEqual(expectedHeadings(model));
        for (const a of actions) expect(actionLine(a)).not.toMatch(/[\r\n\u2028\u2029]/);
      }),
      { numRuns: 150 },
    );
  });

  it('from a transcript: a cwd and a tool name with newlines stay on their lines', () => {
    const base = { sessionId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', cwd: '/w/proj\n# Injected heading', timestamp: '2026-03-15T12:00:00.000Z' };
    const lines = [
      { ...base, type: 'user', message: { role: 'user', content: 'do it' } },
      {
        ...base,
        type: 'assistant',
        message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'mcp__x\n## 7. evil', input: { path: 'a\n# b' } }] },
      },
    ].map((l) => JSON.stringify(l));
    const model = applyTranscriptLines(null, lines, 'x');
    const note = renderSessionNote(model, OPTS);
    expect(headingsOf(note).map((h) => h.text)).toEqual(['proj # Injected heading: do it', '1. do it', 'Actions']);
    expect(frontmatterOf(note).cwd).toBe('/w/proj\n# Injected heading');
  });
});

describe('rendering details', () => {
  it('titles the note with the project and the first request, and numbers the prompts', () => {
    const note = renderSessionNote(modelWith({}, [{ text: 'Refactor the parser\nsecond line' }, { text: 'now test it' }]), OPTS);
    expect(headingsOf(note).map((h) => `${h.depth}:${h.text}`)).toEqual(['1:demo: Refactor the parser', '2:1. Refactor the parser', '2:2. now test it']);
    expect(note).toContain('## 1. Refactor the parser\n\nRefactor the parser\nsecond line\n');
  });

  it('trims long answers at a boundary and closes a fence cut open by the trim', () => {
    const answer = 'Intro sentence here.\n\n```ts\n' + 'const value = 1;\n'.repeat(50) + '```\n\nOutro.';
    const note = renderSessionNote(modelWith({}, [{ answer }]), { answerChars: 120 });
    const section = note.slice(note.indexOf('### Answer'));
    expect(section).toContain('…');
    expect(section.length).toBeLessThan(200);
    expect(section.trimEnd().endsWith('```')).toBe(true);
    expect(section).not.toContain('Outro');
  });

  it('falls back to a safe default when answerChars is not a positive number', () => {
    const note = renderSessionNote(modelWith({}, [{ answer: 'word '.repeat(1000) }]), { answerChars: Number.NaN });
    expect(note.length).toBeLessThan(2000);
  });

  it('writes a note with no prompts as a titled stub', () => {
    const note = renderSessionNote(modelWith({}), OPTS);
    expect(headingsOf(note)).toEqual([{ depth: 1, text: 'demo: session 0a1b2c3d' }]);
  });

  it('formats action lines by tool', () => {
    expect(actionLine({ tool: 'Read', summary: 'src/a.ts', path: 'src/a.ts', exitStatus: 'ok' })).toBe('- Read `src/a.ts`');
    expect(actionLine({ tool: 'Edit', summary: 'src/a.ts', path: 'src/a.ts', exitStatus: 'error' })).toBe('- Edit `src/a.ts` → error');
    expect(actionLine({ tool: 'Bash', summary: 'npm test', command: 'npm test', exitStatus: 'ok' })).toBe('- Bash `npm test` → ok');
    expect(actionLine({ tool: 'Bash', summary: 'rm -rf build', command: 'rm -rf build', exitStatus: 'refused' })).toBe('- Bash `rm -rf build` → refused');
    expect(actionLine({ tool: 'Edit', summary: 'src/a.ts', path: 'src/a.ts', exitStatus: 'refused' })).toBe('- Edit `src/a.ts` → refused');
    expect(actionLine({ tool: 'Bash', summary: 'npm test', command: 'npm test' })).toBe('- Bash `npm test`');
    expect(actionLine({ tool: 'Grep', summary: 'foo`bar', path: 'src' })).toBe('- Grep ``foo`bar`` in `src`');
    expect(actionLine({ tool: 'TodoWrite', summary: '' })).toBe('- TodoWrite');
    expect(actionLine({ tool: '# odd tool', summary: '' })).toBe('- `# odd tool`');
  });
});

describe('sessionNoteName', () => {
  it('is YYYY-MM-DD-<project>-<first 8 of the id>.md', () => {
    expect(sessionNoteName(modelWith({}))).toBe('2026-03-15-demo-0a1b2c3d.md');
  });

  it('slugs the project for a file name', () => {
    expect(sessionNoteName(modelWith({ project: 'My App: "v2" #1' }))).toBe('2026-03-15-my-app-v2-1-0a1b2c3d.md');
    expect(sessionNoteName(modelWith({ project: 'ノート 帳' }))).toBe('2026-03-15-ノート-帳-0a1b2c3d.md');
    expect(sessionNoteName(modelWith({ project: '../../etc' }))).toBe('2026-03-15-etc-0a1b2c3d.md');
    expect(sessionNoteName(modelWith({ project: '///' }))).toBe('2026-03-15-unknown-0a1b2c3d.md');
  });

  it('dates by started, then ended, else says undated', () => {
    expect(sessionNoteName(modelWith({ started: null }))).toBe('2026-03-15-demo-0a1b2c3d.md');
    expect(sessionNoteName(modelWith({ started: null, ended: null }))).toBe('undated-demo-0a1b2c3d.md');
  });

  it('keeps only safe characters of the session id', () => {
    expect(sessionNoteName(modelWith({ sessionId: '../X:y/z' }))).toBe('2026-03-15-demo-xyz.md');
  });

  it('slugify keeps letters of any script and bounds the length', () => {
    expect(slugify('Ünïcödé Prøject', 'x')).toBe('ünïcödé-prøject');
    expect(slugify('a'.repeat(100), 'x')).toHaveLength(60);
    expect(slugify('', 'fallback')).toBe('fallback');
  });
});
