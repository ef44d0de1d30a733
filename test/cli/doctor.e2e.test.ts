// `tsm doctor` on an index it cannot use: the fix line follows from the problem (before, it always said
// `tsm index`, which cannot help with a file tsm refuses to touch); a bad config.json, reported among the other
// checks; and config.json keys tsm does not know.
import { chmodSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeVault, ROOT, TSM, tsm } from '../helpers/cli.js';

interface Problem {
  check: string;
  message: string;
  fix: string;
}

const problems = (stdout: string): Problem[] => JSON.parse(stdout).problems;

describe('tsm doctor', () => {
  it('an index tsm refuses (--db naming another file) gets the fix that helps, not `tsm index`', () => {
    const v = makeVault({ 'a.md': '# a\n', 'notdb.bin': 'hello, not a database' });
    try {
      const r = tsm(['doctor', '--json', '--vault', v.dir, '--db', join(v.dir, 'notdb.bin')]);
      expect(r.code).toBe(1);
      const index = problems(r.stdout).find((p) => p.check === 'index');
      expect(index?.message).toMatch(/is not a tsm index/);
      expect(index?.fix).toMatch(/give --db \(or TSM_DB\) a new file name/);
      expect(tsm(['doctor', '--vault', v.dir, '--db', join(v.dir, 'notdb.bin')]).stdout).not.toContain('fix: run `tsm index`');
      // Still `tsm index` where that is the fix.
      const none = tsm(['doctor', '--json', '--vault', v.dir]);
      // Named from another folder, the command carries the vault (fix-target.ts).
      expect(problems(none.stdout).find((p) => p.check === 'index')?.fix).toBe(`run \`tsm index --vault ${v.dir}\``);
    } finally {
      v.cleanup();
    }
  });

  const runuser = process.getuid?.() === 0 && spawnSync('runuser', ['-u', 'nobody', '--', 'true']).status === 0;
  it.skipIf(!runuser)('an index folder the user may not write: the fix is the permissions', () => {
    const v = makeVault({ 'a.md': '# a\n' });
    try {
      chmodSync(v.dir, 0o755);
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      chmodSync(join(v.dir, '.tsm'), 0o555);
      const r = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, TSM, 'doctor', '--json', '--vault', v.dir], { cwd: ROOT, encoding: 'utf8' });
      const index = problems(r.stdout).find((p) => p.check === 'index');
      expect(index?.message).toMatch(/not writable for you/);
      expect(index?.fix).toMatch(/make the index file and its folder writable/);
    } finally {
      chmodSync(join(v.dir, '.tsm'), 0o755);
      v.cleanup();
    }
  });

  it('a skipped file gets the fix for its own cause: a bad name, a broken link, a link out, a loop, no permission', () => {
    const v = makeVault({ 'ok.md': '# ok\n', 'café.md': 'nfc', 'cafe\u0301.md': 'nfd', 'folder/x.md': 'x' });
    try {
      writeFileSync(Buffer.concat([Buffer.from(join(v.dir, 'bad')), Buffer.from([0xff]), Buffer.from('name.md')]), 'x');
      symlinkSync(join(v.dir, 'nowhere.md'), join(v.dir, 'broken.md'));
      symlinkSync('/etc/hostname', join(v.dir, 'host.md'));
      symlinkSync(v.dir, join(v.dir, 'folder/loop'));
      chmodSync(v.dir, 0o755);
      const asNobody = process.getuid?.() === 0 && runuser;
      if (asNobody) {
        chmodSync(join(v.dir, 'folder'), 0o700);
        spawnSync('chown', ['-R', 'nobody', v.dir]);
        writeFileSync(join(v.dir, 'locked.md'), 'x');
        chmodSync(join(v.dir, 'locked.md'), 0o000);
        chmodSync(join(v.dir, 'folder'), 0o000);
      }
      const run = (args: string[]) =>
        asNobody
          ? spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, TSM, ...args], { cwd: ROOT, encoding: 'utf8' })
          : spawnSync(process.execPath, [TSM, ...args], { cwd: ROOT, encoding: 'utf8' });
      expect(run(['index', '--vault', v.dir]).status).toBe(0);
      const fixes = Object.fromEntries(
        problems(run(['doctor', '--json', '--vault', v.dir]).stdout)
          .filter((p) => p.check === 'notes')
          .map((p) => [p.message.slice(0, p.message.indexOf(':')), p.fix]),
      );
      expect(fixes['bad\ufffdname.md']).toMatch(/^rename the file/);
      expect(fixes['café.md (not NFC)']).toMatch(/^rename the file/);
      expect(fixes['broken.md']).toMatch(/^point the symlink at an existing note/);
      expect(fixes['host.md']).toMatch(/^copy the file into the vault/);
      if (asNobody) {
        expect(fixes['locked.md']).toMatch(/^give your user read permission/);
        expect(fixes['folder']).toMatch(/^give your user read permission/);
      } else {
        expect(fixes['folder/loop']).toMatch(/^remove the looping symlink/);
      }
    } finally {
      spawnSync('chmod', ['-R', 'u+rwx', v.dir]);
      v.cleanup();
    }
  });

  it('a bad config.json is one finding: the other checks still run, with the default settings', () => {
    // Doctor stopped at it with one line on stderr and checked nothing else.
    const v = makeVault({ 'a.md': '# a\n\nSee [[missing-note]].\n' });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      for (const [config, said] of [
        ['{ "chunkChars": "big" }', /config\.json: chunkChars must be a whole number from 200 to 1000000 \(got "big"\); correct it there/],
        ['{ not json', /config\.json: not valid JSON/],
      ] as const) {
        writeFileSync(join(v.dir, '.tsm/config.json'), config);
        const r = tsm(['doctor', '--json', '--vault', v.dir]);
        expect(r.code, r.stderr).toBe(1);
        expect(r.stderr).toBe('');
        const found = problems(r.stdout);
        const finding = found.find((p) => p.check === 'config');
        expect(finding?.message).toMatch(said);
        expect(finding?.message).toMatch(/the checks below used the default settings/);
        expect(finding?.fix).toContain(join(v.dir, '.tsm/config.json'));
        // the index checks ran: the unresolved link is reported
        expect(found.some((p) => p.check === 'links' && p.message.includes('missing-note'))).toBe(true);
        const text = tsm(['doctor', '--vault', v.dir]);
        expect(text.stdout).toMatch(/^error   config: .*config\.json: /m);
        expect(text.stdout).toMatch(/^warning links: a\.md:3 links to "missing-note"/m);
      }
    } finally {
      v.cleanup();
    }
  });

  // A site's pages link their pictures by the site's path (`/images/x.png`), kept in its static folder, which a
  // vault of the pages lacks: the handbook's 1,408 such links were every line of the 50 doctor shows.
  it("a site's missing static folder is one line; each other link once", () => {
    const files: Record<string, string> = { 'page.md': '# page\n\n[a](/nowhere/) and again [a](/nowhere/)\n\n![x](/assets/one.png)\n' };
    for (let i = 0; i < 12; i++) files[`p${String(i).padStart(2, '0')}.md`] = `# p ${i}\n\n![shot](/images/shots/p${i}.png)\n`;
    const v = makeVault(files);
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const found = problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout).filter((p) => p.check === 'links');
      expect(found[0].message).toMatch(/^12 links name files under "\/images\/", a folder not in the vault \(the first: p\d\d\.md:3 links to "\/images\/shots\/p\d+\.png"\)$/);
      expect(found[0].fix).toMatch(/^add those files to the vault/);
      expect(found.slice(1).map((p) => p.message)).toEqual([
        'page.md:3 links to "/nowhere/", which is not in the vault',
        'page.md:5 links to "/assets/one.png", which is not in the vault',
      ]);
      // A folder the vault has is no missing folder: its links are listed one by one.
      mkdirSync(join(v.dir, 'images'));
      const again = problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout).filter((p) => p.check === 'links');
      expect(again.filter((p) => p.message.includes('/images/shots/'))).toHaveLength(12);
    } finally {
      v.cleanup();
    }
  });

  it('of more than 50 unresolved links, those of the notes changed last are listed', () => {
    // By path alone, the link just broken in zz-today.md was behind 55 older ones, and not shown.
    const files: Record<string, string> = { 'zz-today.md': '# today\n\n[[renamed-away]]\n' };
    for (let i = 0; i < 55; i++) files[`old-${String(i).padStart(2, '0')}.md`] = `# old ${i}\n\n[[gone-${i}]]\n`;
    const v = makeVault(files);
    try {
      const old = new Date('2025-01-01T00:00:00Z');
      for (let i = 0; i < 55; i++) utimesSync(join(v.dir, `old-${String(i).padStart(2, '0')}.md`), old, old);
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const found = problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout).filter((p) => p.check === 'links');
      expect(found[0].message).toBe('zz-today.md:3 links to "renamed-away", which is not in the vault');
      expect(found.filter((p) => p.message.includes('links to')).length).toBe(50);
      expect(found.at(-1)?.message).toBe('… and 6 more unresolved links (50 of 56 shown above, the notes changed last first)');
      // Among notes of one time, by path.
      expect(found[1].message).toMatch(/^old-00\.md:3 /);
    } finally {
      v.cleanup();
    }
  });

  it('a missing attachment is not a note to create', () => {
    // An image the vault lacks (`![[lucide-cog.svg#icon]]`) said "create that note".
    const v = makeVault({ 'a.md': '# a\n\n![[lucide-cog.svg#icon]] Settings, ![[chart.png|100]] and [[missing-note]].\n' });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const found = problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout).filter((p) => p.check === 'links');
      const fixOf = (target: string) => found.find((p) => p.message.includes(`"${target}"`))?.fix;
      expect(fixOf('lucide-cog.svg')).toBe('add that file to the vault, or correct the link');
      expect(fixOf('chart.png')).toBe('add that file to the vault, or correct the link');
      expect(fixOf('missing-note')).toBe('create that note, or correct the link');
    } finally {
      v.cleanup();
    }
  });

  it('whether a missing target is a note to create or a file to add follows the vault\'s note extensions', () => {
    // In a vault of .md and .mdx notes, [[x.mdx]] said "add that file" (the rule knew only .md and .markdown),
    // and [[y.markdown]], which this vault would never read as a note, said "create that note".
    const v = makeVault({
      '.tsm/config.json': '{ "extensions": [".md", ".mdx"] }',
      'a.md': '# a\n\n[[x.mdx]], [[y.markdown]], [[z.MD]], [[chart.png]] and [[missing-note]].\n',
    });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const found = problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout).filter((p) => p.check === 'links');
      const fixOf = (target: string) => found.find((p) => p.message.includes(`"${target}"`))?.fix;
      expect(fixOf('x.mdx')).toBe('create that note, or correct the link');
      expect(fixOf('z.MD')).toBe('create that note, or correct the link');
      expect(fixOf('y.markdown')).toBe('add that file to the vault, or correct the link');
      expect(fixOf('chart.png')).toBe('add that file to the vault, or correct the link');
      expect(fixOf('missing-note')).toBe('create that note, or correct the link');
    } finally {
      v.cleanup();
    }
  });

  it('behind the vault, doctor says its unresolved links and note warnings are as the last sync found them', () => {
    // [[bee]] read "which is not in the vault" with bee.md there (added since the last sync), and a fixed
    // frontmatter kept its warning, each said as current beside "the index is behind the vault".
    const v = makeVault({ 'a.md': '---\ntitle: [oops\n---\n# a\n\nsee [[bee]]\n' });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const staleness = () => problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout).find((p) => p.check === 'staleness')?.message;
      expect(staleness()).toBeUndefined();
      writeFileSync(join(v.dir, 'bee.md'), '# Bee\n');
      writeFileSync(join(v.dir, 'a.md'), '---\ntitle: ok\n---\n# a\n\nsee [[bee]]\n');
      expect(staleness()).toBe('the index is behind the vault: 1 new, 1 changed, 0 deleted files; the unresolved links and note warnings below are as the last sync found them');
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      expect(problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout).filter((p) => ['staleness', 'links', 'notes'].includes(p.check))).toEqual([]);
    } finally {
      v.cleanup();
    }
  });

  it('a link to a file tsm skipped is not a note to create: it names the file and its warning', () => {
    // [[bin]] to a bin.md of NUL bytes said "links to "bin", which is not in the vault; fix: create that note".
    const v = makeVault({ 'a.md': '# a\n\nSee [[bin]] and [[missing-note]].\n', 'bin.md': 'binary\0\0bytes\n' });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const found = problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout);
      expect(found.find((p) => p.check === 'links' && p.message.includes('"bin"'))).toEqual({
        check: 'links',
        severity: 'warning',
        message: 'a.md:3 links to "bin", which is bin.md: a file tsm skipped (its warning says why)',
        fix: 'the link is right: make bin.md a note tsm can read (its warning says how)',
      });
      expect(found.find((p) => p.check === 'links' && p.message.includes('"missing-note"'))?.fix).toBe('create that note, or correct the link');
      expect(found.find((p) => p.check === 'notes')?.message).toMatch(/^bin\.md: skipped: binary file/);
    } finally {
      v.cleanup();
    }
  });

  it('a wikilink with a full-width ｜ is told to use the ASCII | for its alias, not to create that note', () => {
    // [[ノート｜別名]] said "create that note, or correct the link": Obsidian reads ｜ as part of the name.
    const v = makeVault({ 'a.md': '# a\n\nSee [[ノート｜別名]] and [[ノート|別名]].\n', 'ノート.md': '# ノート\n' });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const found = problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout).filter((p) => p.check === 'links');
      expect(found).toEqual([
        {
          check: 'links',
          severity: 'warning',
          message: 'a.md:3 links to "ノート｜別名", which is not in the vault',
          fix: 'for an alias, write [[ノート|別名]] with the ASCII | (Obsidian reads the full-width ｜ as part of the name)',
        },
      ]);
    } finally {
      v.cleanup();
    }
  });

  it('a markdown link with a `?query` to a note that is there is not reported unresolved', () => {
    // The GitLab handbook's 18 links to /handbook/company/team/?department=… were listed as "not in the vault".
    const v = makeVault({
      'a.md': '# a\n\n[legal](/handbook/company/team/?department=legal) and [gone](/handbook/nowhere/?x=1)\n',
      'company/team.md': '# Team\n',
    });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const found = problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout).filter((p) => p.check === 'links');
      expect(found.map((p) => p.message)).toEqual(['a.md:3 links to "/handbook/nowhere/", which is not in the vault']);
    } finally {
      v.cleanup();
    }
  });

  it('a markdown link to x.html where the note x.md is there is told to link the note, not to add the file', () => {
    // The GitLab handbook links [..](technical-strategy.html) 78 times, most beside the note it was built from;
    // the fix said "add that file to the vault".
    const v = makeVault({
      'eng/_index.md': '# eng\n\n[s](strategy.html#goals) [d](doc/lexicon.html) [w](nowhere.html)\n',
      'eng/strategy.md': '# Strategy\n',
      'eng/doc/lexicon.md': '# Lexicon\n',
      // Another folder's note of that name is not the page's note.
      'other/nowhere.md': '# Nowhere\n',
    });
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const found = problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout).filter((p) => p.check === 'links');
      expect(found.map((p) => [p.message, p.fix])).toEqual([
        [
          'eng/_index.md:3 links to "strategy.html", which is not in the vault',
          'link the note eng/strategy.md (write strategy.md): strategy.html is the page a site builds from it',
        ],
        [
          'eng/_index.md:3 links to "doc/lexicon.html", which is not in the vault',
          'link the note eng/doc/lexicon.md (write doc/lexicon.md): doc/lexicon.html is the page a site builds from it',
        ],
        ['eng/_index.md:3 links to "nowhere.html", which is not in the vault', 'add that file to the vault, or correct the link'],
      ]);
    } finally {
      v.cleanup();
    }
  });

  it('a link to a file the scan skipped (a FIFO, a broken symlink, a name not UTF-8) names it, with the fix for its cause', () => {
    // These are recorded only as scan warnings (not in skipped_files): each link to one was reported as
    // 'which is not in the vault; fix: create that note', though the file is there.
    const v = makeVault({ 'a.md': '# a\n\nSee [[fifo]], [[broken]], [[bad\uFFFDname]], [[folder]] and [[missing-note]].\n' });
    try {
      expect(spawnSync('mkfifo', [join(v.dir, 'fifo.md')]).status).toBe(0);
      symlinkSync(join(v.dir, 'nowhere.md'), join(v.dir, 'broken.md'));
      writeFileSync(Buffer.concat([Buffer.from(join(v.dir, 'bad')), Buffer.from([0xff]), Buffer.from('name.md')]), 'x');
      // A folder with a warning of its own is not a file a link names.
      symlinkSync(join(v.dir, 'nowhere'), join(v.dir, 'folder'));
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const links = problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout).filter((p) => p.check === 'links');
      const about = (target: string): Problem | undefined => links.find((p) => p.message.includes(`"${target}"`));
      expect(about('fifo')).toEqual({
        check: 'links',
        severity: 'warning',
        message: 'a.md:3 links to "fifo", which is fifo.md: a file tsm skipped (its warning says why)',
        fix: 'the link is right: fifo.md is a pipe, a socket or a device, not a file: replace it with the note',
      });
      expect(about('broken')?.fix).toBe('the link is right: broken.md is a broken symlink: point it at the note');
      expect(about('bad\uFFFDname')?.fix).toBe('the link is right: the name of bad\uFFFDname.md is not valid UTF-8: rename the file and the link to a name of valid UTF-8');
      expect(about('folder')?.fix).toBe('create that note, or correct the link');
      expect(about('missing-note')?.fix).toBe('create that note, or correct the link');
    } finally {
      v.cleanup();
    }
  });

  it('past 200 note warnings, status points at what doctor lists, and doctor lists that many', () => {
    // status said "… N more (tsm doctor --json lists all)", and doctor (text and --json) stopped at 200.
    const files: Record<string, string> = {};
    for (let i = 0; i < 205; i++) files[`n${i}.md`] = '---\na: [\n---\n# n\n';
    const v = makeVault(files);
    try {
      expect(tsm(['index', '--vault', v.dir]).code).toBe(0);
      const status = tsm(['status', '--vault', v.dir]).stdout;
      expect(status).toContain('  … 185 more (`tsm doctor` lists the first 200)\n');
      const notes = problems(tsm(['doctor', '--json', '--vault', v.dir]).stdout).filter((p) => p.check === 'notes');
      expect(notes.length).toBe(201);
      expect(notes[200].message).toBe('… and 5 more note warnings (200 of 205 shown above)');
    } finally {
      v.cleanup();
    }
  });

  it('warns about config.json keys tsm does not know, naming them', () => {
    const v = makeVault({ 'a.md': '# a\n' });
    try {
      mkdirSync(join(v.dir, '.tsm'));
      writeFileSync(join(v.dir, '.tsm/config.json'), '{ "hookTopk": 3, "halfLifeDays": {"knowlege": 9} }');
      const r = tsm(['doctor', '--vault', v.dir]);
      expect(r.stdout).toMatch(/warning config: .*config\.json has settings tsm does not know, which change nothing: hookTopk, halfLifeDays\.knowlege\n/);
    } finally {
      v.cleanup();
    }
  });
});
