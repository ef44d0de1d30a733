// A link to a note the vault's .gitignore or .tsmignore leaves out of the index names a note that is there, and
// Obsidian resolves it: `tsm doctor` listed it as "not in the vault" with "create that note, or correct the
// link". It says now which rule leaves the note out and what would index it, as information, one line per
// ignored note or folder; links to notes that are nowhere are listed as before. `tsm status` counts them, as it
// counts the links to files tsm skipped. `tsm related` showed them as `[unresolved]`, like a link to nothing: it
// names the note and the rule now, as it names a skipped file. An attachment the rules leave out
// (`![[drafts/pic.png]]`) is told so too: all three called it missing ("add that file to the vault").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

type Problem = { check: string; severity: string; message: string; fix: string };

let v: ReturnType<typeof makeVault>;
beforeAll(() => {
  v = makeVault({
    '.gitignore': 'drafts/\n',
    '.tsmignore': 'private.md\n',
    'a.md': '# a\n\nSee [[private]], [[drafts/x]], [[y]] and [[missing]].\n',
    'b.md': '# b\n\nAlso [[x]].\n',
    'private.md': '# p\n',
    'drafts/x.md': '# x\n',
    'drafts/deep/y.md': '# y\n',
  });
  const r = tsm(['index', '--vault', v.dir]);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(() => v.cleanup());

describe('tsm doctor and links to ignored notes', () => {
  it('names the rule that leaves the note out, and the line that would index it, not "create that note"', () => {
    const r = tsm(['doctor', '--json', '--vault', v.dir]);
    const links = (JSON.parse(r.stdout).problems as Problem[]).filter((p) => p.check === 'links');
    // The lines of the ignored notes, then the rest. Their order follows the first link of each, the notes
    // changed last first: b.md's [[x]] leads when b.md was written a millisecond after a.md.
    expect(links.slice(0, 2)).toEqual(
      expect.arrayContaining([
        {
          check: 'links',
          severity: 'info',
          message: 'a.md:3 links to "private", which is private.md, a note .tsmignore leaves out of the index: the link is right (Obsidian resolves it)',
          fix: 'nothing to do if you keep private.md out of searches; to index it, remove the .tsmignore line that ignores it (or add !private.md after it)',
        },
        {
          check: 'links',
          severity: 'info',
          message: expect.stringMatching(/^3 links name notes in drafts\/, which \.gitignore leaves out of the index \(the first: [ab]\.md:3 links to "[^"]+", drafts\/(deep\/y|x)\.md\): the links are right \(Obsidian resolves them\)$/),
          fix: "nothing to do if you keep drafts/ out of searches; to index it, add the line !drafts/ to the vault's .tsmignore (its lines come after .gitignore's)",
        },
      ]),
    );
    // A note that is nowhere: as before.
    expect(links.slice(2)).toEqual([
      { check: 'links', severity: 'warning', message: 'a.md:3 links to "missing", which is not in the vault', fix: 'create that note, or correct the link' },
    ]);
    const text = tsm(['doctor', '--vault', v.dir]).stdout;
    expect(text).not.toContain('links to "private", which is not in the vault');
    expect(text).not.toContain('links to "drafts/x", which is not in the vault');
  });

  it('tsm status counts them among the unresolved links (the index has no note for them), and says how many, as it says the links to skipped files', () => {
    // It was "links     5 (5 unresolved)".
    expect(tsm(['status', '--vault', v.dir]).stdout).toContain('links     5 (5 unresolved, 4 of them to files .gitignore or .tsmignore leave out: `tsm doctor` says why)\n');
    expect(JSON.parse(tsm(['status', '--json', '--vault', v.dir]).stdout)).toMatchObject({ links: 5, unresolvedLinks: 5, linksToSkippedFiles: 0, linksToIgnoredFiles: 4 });
  });

  it('tsm status names both kinds when links name skipped files and ignored notes', () => {
    const w = makeVault({ '.tsmignore': 'private.md\n', 'a.md': '# a\n\n[[private]] [[bin]] [[missing]]\n', 'private.md': '# p\n', 'bin.md': 'binary\0bytes\n' });
    try {
      expect(tsm(['index', '--vault', w.dir]).code).toBe(0);
      expect(tsm(['status', '--vault', w.dir]).stdout).toContain(
        'links     3 (3 unresolved, 1 of them to files tsm skipped, 1 to files .gitignore or .tsmignore leave out: `tsm doctor` says why)\n',
      );
    } finally {
      w.cleanup();
    }
  });

  it('tsm related names the note and the rule that leaves it out, not [unresolved]', () => {
    const r = tsm(['related', 'a.md', '--vault', v.dir]);
    expect(r.code, r.stderr).toBe(0);
    // It was `private  [unresolved]  wikilink:3`, `drafts/x  [unresolved]  wikilink:3`, `y  [unresolved]  wikilink:3`.
    expect(r.stdout).toBe(
      [
        'a.md  (a)',
        '',
        'outgoing (4)',
        '  private.md  [ignored by .tsmignore: private.md]  wikilink:3',
        '  drafts/x.md  [ignored by .gitignore: drafts/]  wikilink:3',
        '  drafts/deep/y.md  [ignored by .gitignore: drafts/]  wikilink:3',
        '  missing  [unresolved]  wikilink:3',
        '',
        'backlinks (0)',
        '',
      ].join('\n'),
    );
  });

  it('tsm related --json gives each link `ignored` {path, by, rule} beside `skipped` (null when none)', () => {
    const r = tsm(['related', 'b.md', '--json', '--vault', v.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).outgoing).toEqual([
      {
        kind: 'wikilink',
        sourcePath: 'b.md',
        targetPath: null,
        attachmentPath: null,
        target: 'x',
        heading: null,
        text: null,
        line: 3,
        skipped: null,
        ignored: { path: 'drafts/x.md', by: '.gitignore', rule: 'drafts/' },
      },
    ]);
    const a = JSON.parse(tsm(['related', 'a.md', '--json', '--vault', v.dir]).stdout).outgoing as { target: string; ignored: unknown }[];
    expect(a.map((l) => [l.target, l.ignored])).toEqual([
      ['private', { path: 'private.md', by: '.tsmignore', rule: 'private.md' }],
      ['drafts/x', { path: 'drafts/x.md', by: '.gitignore', rule: 'drafts/' }],
      ['y', { path: 'drafts/deep/y.md', by: '.gitignore', rule: 'drafts/' }],
      ['missing', null],
    ]);
  });

  it('the line its fix gives indexes the notes, and the links resolve', () => {
    const w = makeVault({ '.gitignore': 'drafts/\n', '.tsmignore': '!drafts/\n', 'a.md': '# a\n\n[[drafts/x]]\n', 'drafts/x.md': '# x\n' });
    try {
      expect(tsm(['index', '--vault', w.dir]).code).toBe(0);
      expect(tsm(['status', '--vault', w.dir]).stdout).toContain('links     1 (0 unresolved)\n');
      expect(tsm(['related', 'a.md', '--vault', w.dir]).stdout).toContain('\n  drafts/x.md  wikilink:3\n');
    } finally {
      w.cleanup();
    }
  });
});

describe('links to attachments the ignore rules leave out', () => {
  let w: ReturnType<typeof makeVault>;
  beforeAll(() => {
    w = makeVault({
      '.gitignore': 'drafts/\n*.pdf\n',
      // One line each: doctor's lines follow the links' order, and links of one line have none.
      'a.md': '# a\n\n![[drafts/pic.png]]\n\n[[spec.pdf]]\n\n![[nopic.png]] and ![[img/ok.png]]\n',
      'drafts/pic.png': 'png',
      'spec.pdf': '%PDF-1.4',
      'img/ok.png': 'png',
    });
    const r = tsm(['index', '--vault', w.dir]);
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(() => w.cleanup());

  it('tsm related names the file and the rule, as for a note; a missing picture stays [unresolved]', () => {
    // It was `drafts/pic.png  [unresolved]  embed:3` and `spec.pdf  [unresolved]  wikilink:5`.
    const r = tsm(['related', 'a.md', '--vault', w.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      [
        'outgoing (4)',
        '  drafts/pic.png  [ignored by .gitignore: drafts/]  embed:3',
        '  spec.pdf  [ignored by .gitignore: spec.pdf]  wikilink:5',
        '  nopic.png  [unresolved]  embed:7',
        '  img/ok.png  [attachment]  embed:7',
      ].join('\n'),
    );
    const json = JSON.parse(tsm(['related', 'a.md', '--json', '--vault', w.dir]).stdout).outgoing as { target: string; attachmentPath: string | null; ignored: unknown }[];
    expect(json.map((l) => [l.target, l.attachmentPath, l.ignored])).toEqual([
      ['drafts/pic.png', null, { path: 'drafts/pic.png', by: '.gitignore', rule: 'drafts/' }],
      ['spec.pdf', null, { path: 'spec.pdf', by: '.gitignore', rule: 'spec.pdf' }],
      ['nopic.png', null, null],
      ['img/ok.png', 'img/ok.png', null],
    ]);
  });

  it('tsm doctor says the file is there, left out, not "add that file to the vault"; status counts them', () => {
    const links = (JSON.parse(tsm(['doctor', '--json', '--vault', w.dir]).stdout).problems as Problem[]).filter((p) => p.check === 'links');
    expect(links).toEqual([
      {
        check: 'links',
        severity: 'info',
        message: 'a.md:3 links to "drafts/pic.png", which is drafts/pic.png, a file in drafts/, which .gitignore leaves out of the index: the link is right (Obsidian resolves it)',
        fix: "nothing to do if you keep drafts/ out of the index; to index it, add the line !drafts/ to the vault's .tsmignore (its lines come after .gitignore's)",
      },
      {
        check: 'links',
        severity: 'info',
        message: 'a.md:5 links to "spec.pdf", which is spec.pdf, a file .gitignore leaves out of the index: the link is right (Obsidian resolves it)',
        fix: "nothing to do if you keep spec.pdf out of the index; to index it, add the line !spec.pdf to the vault's .tsmignore (its lines come after .gitignore's)",
      },
      { check: 'links', severity: 'warning', message: 'a.md:7 links to "nopic.png", which is not in the vault', fix: 'add that file to the vault, or correct the link' },
    ]);
    expect(tsm(['status', '--vault', w.dir]).stdout).toContain('links     4 (3 unresolved, 2 of them to files .gitignore or .tsmignore leave out: `tsm doctor` says why)\n');
    expect(JSON.parse(tsm(['status', '--json', '--vault', w.dir]).stdout)).toMatchObject({ unresolvedLinks: 3, linksToIgnoredFiles: 2 });
  });

  it('a folder holding both a linked note and a linked picture is one line, of files, whose fix keeps it out of searches', () => {
    const x = makeVault({ '.gitignore': 'drafts/\n', 'a.md': '# a\n\n[[drafts/x]] ![[drafts/pic.png]]\n', 'drafts/x.md': '# x\n', 'drafts/pic.png': 'png' });
    try {
      expect(tsm(['index', '--vault', x.dir]).code).toBe(0);
      const links = (JSON.parse(tsm(['doctor', '--json', '--vault', x.dir]).stdout).problems as Problem[]).filter((p) => p.check === 'links');
      expect(links).toEqual([
        {
          check: 'links',
          severity: 'info',
          message: '2 links name files in drafts/, which .gitignore leaves out of the index (the first: a.md:3 links to "drafts/x", drafts/x.md): the links are right (Obsidian resolves them)',
          fix: "nothing to do if you keep drafts/ out of searches; to index it, add the line !drafts/ to the vault's .tsmignore (its lines come after .gitignore's)",
        },
      ]);
    } finally {
      x.cleanup();
    }
  });
});
