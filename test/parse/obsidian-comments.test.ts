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

describe('%% inside inline code', () => {
  it('is code, not a comment: the rest of the note stays (the Hub\'s Markdown Syntax guide lost 55 lines)', () => {
    const note = parse(
      md(
        '# Comments guide',
        'Wrap text in `%%` to hide it, as in `%% Comments %%`, or ``a `%%` b``.',
        '## After',
        'The gazelle text stays, with #visibletag and [[Linked]].',
        'Yet %% a real `comment` %% is hidden.',
      ),
    );
    const text = note.sections.map((s) => s.text).join('\n');
    expect(text).toContain('Wrap text in `%%` to hide it, as in `%% Comments %%`, or ``a `%%` b``.');
    expect(text).toContain('The gazelle text stays');
    expect(note.sections.map((s) => s.heading)).toContain('After');
    expect(note.tags).toEqual(['visibletag']);
    expect(note.links.map((l) => l.target)).toEqual(['Linked']);
    expect(text).toContain('Yet  is hidden.');
    expect(text).not.toContain('real');
  });

  it('an unclosed backtick is a backtick: the %% after it opens a comment', () => {
    const note = parse(md('# T', 'a ` tick %% hidden %% shown', 'next'));
    expect(note.sections.map((s) => s.text).join('\n')).toContain('a ` tick  shown');
  });
});

describe('a code block inside a comment', () => {
  it('is hidden with it: an Excalidraw drawing indexes its text elements, not its compressed JSON', () => {
    const blob = 'N4KAkARALgngDgUwgLgAQQQDwMYEMA2AlgCYBOuA7hADTgQBuCpAzoQPYB2KAbCatIEMA';
    const note = parse(
      md(
        '---',
        'excalidraw-plugin: parsed',
        '---',
        '# Text Elements',
        'Hello walrus world ^abc123',
        '',
        '%%',
        '# Drawing',
        '```compressed-json',
        blob,
        blob,
        '```',
        '%%',
        'After the drawing #shown',
      ),
    );
    const text = note.sections.map((s) => s.text).join('\n');
    expect(text).toContain('Hello walrus world');
    expect(text).toContain('After the drawing #shown');
    expect(text).not.toMatch(/N4KAk|compressed-json|Drawing/);
    expect(note.sections.map((s) => s.heading)).toEqual(['Text Elements']);
    expect(note.tags).toEqual(['shown']);
  });

  it('a %% inside a code block outside any comment stays code and opens none', () => {
    const note = parse(md('# T', '```markdown', '%%', 'template text', '```', 'after'));
    const text = note.sections.map((s) => s.text).join('\n');
    expect(text).toContain('%%\ntemplate text');
    expect(text).toContain('after');
  });
});
