import { describe, expect, it } from 'vitest';
import type { SectionRecord } from '../../src/core/types.js';
import { promptFiles, samePath, sessionPrompts } from '../../src/mcp/session-note.js';

let nextId = 1;
function sec(level: number, heading: string, text: string, path: string, line: number): SectionRecord {
  const id = nextId++;
  return { id, noteId: 1, ord: id, heading, level, headingPath: path, startLine: line, endLine: line + 2, text };
}

const T = 'proj: fix it';

describe('sessionPrompts', () => {
  it('joins the chunks of long prompt, actions and answer sections', () => {
    const p1 = `${T} > 1. Fix it`;
    const sections = [
      sec(1, T, '', T, 10),
      sec(2, '1. Fix it', 'Fix it please.', p1, 12),
      sec(2, '1. Fix it', 'Second paragraph of the prompt.', p1, 14),
      sec(3, 'Actions', '- Read `a.c`\n- Edit `a.c`', `${p1} > Actions`, 16),
      sec(3, 'Actions', '- Bash `make` → ok', `${p1} > Actions`, 19),
      sec(3, 'Answer', 'Fixed.', `${p1} > Answer`, 22),
      sec(3, 'Answer', 'More answer.', `${p1} > Answer`, 24),
      sec(2, '2. Again', 'Again.', `${T} > 2. Again`, 30),
    ];
    const prompts = sessionPrompts(sections);
    expect(prompts).toHaveLength(2);
    expect(prompts[0]).toMatchObject({ n: 1, sectionId: sections[1].id, line: 12, endLine: 26, heading: 'Fix it' });
    expect(prompts[0].text).toBe('Fix it please.\n\nSecond paragraph of the prompt.');
    expect(prompts[0].actions.map((a) => a.text)).toEqual(['Read `a.c`', 'Edit `a.c`', 'Bash `make` → ok']);
    expect(prompts[0].answer).toBe('Fixed.\n\nMore answer.');
    expect(prompts[1]).toMatchObject({ n: 2, text: 'Again.', actions: [], answer: '' });
  });

  it('keeps the activity before the first prompt, and ignores sections that are not prompts', () => {
    const sections = [
      sec(2, '0. (activity before the first prompt)', '', `${T} > 0. (activity before the first prompt)`, 5),
      sec(3, 'Actions', '- Read `x`', `${T} > 0. (activity before the first prompt) > Actions`, 7),
      sec(2, 'Notes', '- Read `not-an-action`', `${T} > Notes`, 9),
      sec(3, 'Actions', '- Read `still-not`', `${T} > Notes > Actions`, 11),
    ];
    const prompts = sessionPrompts(sections);
    expect(prompts).toHaveLength(1);
    expect(prompts[0].n).toBe(0);
    expect(prompts[0].actions.map((a) => a.subject)).toEqual(['x']);
  });

  it('gives nothing for a note without prompt sections', () => {
    expect(sessionPrompts([sec(1, 'Just a note', 'text', 'Just a note', 1)])).toEqual([]);
    expect(sessionPrompts([])).toEqual([]);
  });
});

describe('promptFiles', () => {
  const prompt = sessionPrompts([
    sec(2, '1. Go', 'Go.', `${T} > 1. Go`, 1),
    sec(3, 'Actions', ['- Read `a.c`', '- Read `a.c`', '- Edit `b.c` → error', '- Edit `f.c` → refused', '- Edit `c.c`', '- Write `d.md`', '- Grep `x` in `src`', '- Bash `cat e.c`'].join('\n'), `${T} > 1. Go > Actions`, 3),
  ])[0];

  it('keeps the file actions the frontmatter lists as done', () => {
    expect(promptFiles(prompt, { files_read: ['a.c'], files_edited: ['c.c', 'd.md'] })).toEqual({ read: ['a.c'], edited: ['c.c', 'd.md'] });
    expect(promptFiles(prompt, { files_read: [], files_edited: ['d.md'] })).toEqual({ read: [], edited: ['d.md'] });
  });

  it('falls back to the actions (without failed ones) when the frontmatter has no lists', () => {
    expect(promptFiles(prompt, {})).toEqual({ read: ['a.c'], edited: ['c.c', 'd.md'] });
    expect(promptFiles(prompt, { files_read: 'a.c' })).toEqual({ read: ['a.c'], edited: ['c.c', 'd.md'] });
  });
});

describe('samePath', () => {
  it('matches equal paths and a path with more leading folders, never partial names', () => {
    expect(samePath('src/a.c', 'src/a.c')).toBe(true);
    expect(samePath('a.c', 'src/a.c')).toBe(true);
    expect(samePath('/home/me/p/src/a.c', 'src/a.c')).toBe(true);
    expect(samePath('./src/a.c', 'src/a.c')).toBe(true);
    expect(samePath('b/a.c', 'src/a.c')).toBe(false);
    expect(samePath('xa.c', 'a.c')).toBe(false);
    expect(samePath('', 'a.c')).toBe(false);
  });
});
