import { describe, expect, it } from 'vitest';
import { md, parse } from './helpers.js';

describe('Obsidian %% comments %%', () => {
  it('keeps inline and multi-line comments, with their tags and links, out of the indexed text', () => {
    const note = parse(
      md(
        '# Title',
        'visible %% hidden inline #hiddentag [[HiddenLink]] %% still visible #shown',
        '%% Hub footer: do not edit',
        '## Not a heading, commented',
        'hidden block text',
        '%%',
        'after the block [[Shown]]',
        '```',
        'code keeps %% its percent signs %%',
        '```',
      ),
    );
    const text = note.sections.map((s) => s.text).join('\n');
    expect(text).toContain('visible  still visible #shown');
    expect(text).toContain('after the block');
    expect(text).toContain('code keeps %% its percent signs %%');
    expect(text).not.toMatch(/hidden|Hub footer/);
    expect(note.sections.map((s) => s.heading)).not.toContain('Not a heading, commented');
    expect(note.tags).toEqual(['shown']);
    expect(note.links.map((l) => l.target)).toEqual(['Shown']);
    expect(note.links[0].line).toBe(7); // lines keep their numbers
  });

  it('a %% left open hides the rest of the note, as in Obsidian', () => {
    const note = parse(md('# T', 'seen', '%% open', 'unseen #x'));
    expect(note.sections.map((s) => s.text).join('\n')).not.toContain('unseen');
    expect(note.tags).toEqual([]);
  });
});
