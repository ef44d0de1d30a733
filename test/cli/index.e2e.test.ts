// tsm index / status / related / doctor / init against real temporary vaults, through the built CLI.
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, cpSync, existsSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, makeVault, ROOT, TSM, tsm, writeFiles } from '../helpers/cli.js';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).reverse().forEach((c) => c()));
function vault(files: Record<string, string | Buffer>): string {
  const v = makeVault(files);
  cleanups.push(v.cleanup);
  return v.dir;
}
const json = (r: { stdout: string }) => JSON.parse(r.stdout);
const paths = (dir: string, q: string) => json(tsm(['search', q, '--vault', dir, '-f', 'json', '-n', '50'])).map((h: { path: string }) => h.path);

describe('tsm index and status', () => {
  it('indexes, then a second run changes nothing', () => {
    const dir = vault({ 'a.md': '# Alpha\n\nfirst note about lora', 'daily/2026-01-02.md': '## log\nradio test', 'sessions/s.md': '# s' });
    const first = json(tsm(['index', '--vault', dir, '--json']));
    expect(first).toMatchObject({ added: 3, updated: 0, removed: 0, unchanged: 0, skipped: 0 });
    const second = json(tsm(['index', '--vault', dir, '--json']));
    expect(second).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 3 });
    const status = json(tsm(['status', '--vault', dir, '--json']));
    expect(status).toMatchObject({ notes: 3, byType: { daily: 1, knowledge: 1, session: 1 }, warnings: 0 });
    expect(status.indexBytes).toBeGreaterThan(0);
    expect(status.lastSync).toMatch(/^\d{4}-/);
  });

  it("status prints the last sync in the user's zone with its offset; --json keeps the exact UTC value", () => {
    const dir = vault({ 'a.md': '# A\n\nx' });
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    const env = { TZ: 'Asia/Kolkata' };
    const exact = json(tsm(['status', '--vault', dir, '--json'], { env })).lastSync as string;
    expect(exact).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const line = tsm(['status', '--vault', dir], { env }).stdout.split('\n').find((l) => l.startsWith('last sync'));
    const shown = /^last sync (\S+)$/.exec(line ?? '')?.[1] ?? '';
    expect(shown, line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30$/);
    expect(Date.parse(shown)).toBe(Math.floor(Date.parse(exact) / 1000) * 1000);
  });

  it('prints a one-line summary without --json and no progress bar in a pipe', () => {
    const dir = vault({ 'a.md': 'x' });
    const r = tsm(['index', '--vault', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^1 added, 0 updated, 0 removed, 0 unchanged, 0 skipped in \d+\.\d\d s\n$/);
    expect(r.stderr).not.toContain('\r');
  });

  it("the summary counts its warnings in words: '1 warning', not '1 warnings'", () => {
    const odd = '---\ntype: meeting\n---\n# M\n';
    const one = tsm(['index', '--vault', vault({ 'a.md': odd })]);
    expect(one.stdout).toMatch(/ s \(1 warning: tsm status\)\n$/);
    const two = tsm(['index', '--vault', vault({ 'a.md': odd, 'b.md': odd })]);
    expect(two.stdout).toMatch(/ s \(2 warnings: tsm status\)\n$/);
  });

  it('reflects edits, deletions and renames after the next index', () => {
    const dir = vault({ 'a.md': '# A\n\nzebra', 'b.md': '# B\n\nlink to [[a]]' });
    tsm(['index', '--vault', dir]);
    writeFileSync(join(dir, 'a.md'), '# A\n\nquokka');
    unlinkSync(join(dir, 'b.md'));
    writeFileSync(join(dir, 'c.md'), '# C\n\nnew [[a]]');
    const s = json(tsm(['index', '--vault', dir, '--json']));
    expect(s).toMatchObject({ added: 1, updated: 1, removed: 1 });
    expect(paths(dir, 'quokka')).toEqual(['a.md']);
    expect(paths(dir, 'zebra')).toEqual([]);
    renameSync(join(dir, 'a.md'), join(dir, 'renamed.md'));
    expect(json(tsm(['index', '--vault', dir, '--json']))).toMatchObject({ added: 1, removed: 1 });
    expect(paths(dir, 'quokka')).toEqual(['renamed.md']);
    // c.md's link to [[a]] is now unresolved, and shows up as such.
    const rel = json(tsm(['related', 'c', '--vault', dir, '--json']));
    expect(rel.outgoing[0]).toMatchObject({ target: 'a', targetPath: null });
  });

  it('--full rebuilds every note', () => {
    const dir = vault({ 'a.md': 'x', 'b.md': 'y' });
    tsm(['index', '--vault', dir]);
    expect(json(tsm(['index', '--vault', dir, '--full', '--json']))).toMatchObject({ added: 2, unchanged: 0 });
  });

  it('"extensions": [] is a config error naming the setting, not a sync that takes every note out of the index', () => {
    const dir = vault({ 'a.md': '# A\n\nalpha', 'b.md': '# B\n\nbeta' });
    expect(tsm(['index', '--vault', dir]).code).toBe(0);
    writeFileSync(join(dir, '.tsm', 'config.json'), '{ "extensions": [] }');
    const r = tsm(['index', '--vault', dir]);
    // It said "0 added, 0 updated, 2 removed", and every search found nothing.
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`tsm: ${join(dir, '.tsm', 'config.json')}: extensions must name at least one note extension, like [".md"] (got []); correct it there\n`);
    writeFileSync(join(dir, '.tsm', 'config.json'), '{}');
    expect(json(tsm(['status', '--vault', dir, '--json'])).notes).toBe(2);
  });

  it('--files-from-stdin checks only the listed paths', () => {
    const dir = vault({ 'a.md': 'one', 'b.md': 'two' });
    tsm(['index', '--vault', dir]);
    writeFileSync(join(dir, 'a.md'), 'uno');
    writeFileSync(join(dir, 'b.md'), 'dos');
    const s = json(tsm(['index', '--vault', dir, '--files-from-stdin', '--json'], { input: 'a.md\n' }));
    expect(s).toMatchObject({ updated: 1 });
    expect(paths(dir, 'uno')).toEqual(['a.md']);
    expect(paths(dir, 'dos')).toEqual([]);
  });

  it('--files-from-stdin: a note listed more than once (other spellings of its path included) is read and counted once', () => {
    const dir = vault({ 'a.md': 'one', 'sub/b.md': 'two' });
    tsm(['index', '--vault', dir]);
    writeFileSync(join(dir, 'a.md'), 'uno');
    writeFileSync(join(dir, 'c.md'), 'tres');
    const list = ['a.md', './a.md', join(dir, 'a.md'), 'sub/../a.md', 'c.md', 'c.md', 'sub/b.md', 'sub/b.md'].join('\n');
    const s = json(tsm(['index', '--vault', dir, '--files-from-stdin', '--json'], { input: `${list}\n` }));
    // It said 4 updated, 2 added and 2 unchanged: three notes.
    expect(s).toMatchObject({ added: 1, updated: 1, removed: 0, unchanged: 1 });
    rmSync(join(dir, 'c.md'));
    const gone = json(tsm(['index', '--vault', dir, '--files-from-stdin', '--json'], { input: 'c.md\0./c.md\0c.md\0' }));
    expect(gone).toMatchObject({ added: 0, updated: 0, removed: 1, unchanged: 0 });
    expect(json(tsm(['index', '--vault', dir, '--json']))).toMatchObject({ added: 0, updated: 0, removed: 0, unchanged: 2 });
  });

  it('--files-from-stdin that cannot read standard input says so and fails; it took that as an empty list', () => {
    // `tsm index --files-from-stdin < dir/` said "0 added, …" and exited 0: a script's wrong redirect went unseen.
    const dir = vault({ 'a.md': 'one' });
    tsm(['index', '--vault', dir]);
    writeFileSync(join(dir, 'a.md'), 'uno');
    const fd = openSync(dir, 'r');
    try {
      const r = spawnSync(process.execPath, [TSM, 'index', '--vault', dir, '--files-from-stdin'], { env: cleanEnv(), stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe('tsm: --files-from-stdin: cannot read the paths from standard input (it is a folder): pipe them in, one a line or NUL-separated (`git diff --name-only | tsm index --files-from-stdin`)\n');
    } finally {
      closeSync(fd);
    }
    expect(paths(dir, 'uno')).toEqual([]);
  });

  it('--files-from-stdin reads a line as the name it is (` draft.md`, as git prints it), and a padded line that names nothing trimmed', () => {
    // Every line was trimmed: `git diff --name-only | tsm index --files-from-stdin` said " draft.md: not found".
    const dir = vault({ ' draft.md': 'one', 'b.md': 'two' });
    tsm(['index', '--vault', dir]);
    writeFileSync(join(dir, ' draft.md'), 'uno');
    const s = json(tsm(['index', '--vault', dir, '--files-from-stdin', '--json'], { input: ' draft.md\n' }));
    expect(s).toMatchObject({ updated: 1 });
    expect(s.notTaken).toEqual([]);
    expect(paths(dir, 'uno')).toEqual([' draft.md']);
    // An indented list, and an absolute path after a space, still name their notes.
    writeFileSync(join(dir, 'b.md'), 'dos');
    const padded = json(tsm(['index', '--vault', dir, '--files-from-stdin', '--json'], { input: `   b.md  \n\t ${join(dir, ' draft.md')}\n` }));
    expect(padded).toMatchObject({ updated: 1, unchanged: 1 });
    expect(padded.notTaken).toEqual([]);
  });

  it('--files-from-stdin: a listed path it does not take is shown on stderr without its control characters', () => {
    const dir = vault({ 'a.md': '# A\n' });
    tsm(['index', '--vault', dir]);
    const r = tsm(['index', '--vault', dir, '--files-from-stdin'], { input: 'gone\u001b[2J\u001b]0;x\u0007.md\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^tsm: 1 of 1 listed path not taken:\n  gone.*\.md: not found\n/);
    expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
  });

  it('--files-from-stdin takes what `git diff --name-only` prints for a vault inside a repository, from any folder', () => {
    // repo/.git (all tsm looks for), the vault in repo/notes: git prints paths from the repository's root,
    // non-ASCII names in C quotes with octal bytes, and a deleted note too.
    const repo = vault({ '.git/HEAD': 'ref: refs/heads/main\n', 'notes/a.md': 'one', 'notes/sub dir/Delta Δ.md': 'two', 'notes/日本.md': 'three', 'src/x.ts': 'x' });
    const notes = join(repo, 'notes');
    tsm(['index', '--vault', notes]);
    writeFileSync(join(notes, 'sub dir/Delta Δ.md'), 'two, edited');
    writeFileSync(join(notes, '日本.md'), 'three, edited');
    unlinkSync(join(notes, 'a.md'));
    const gitSays = 'notes/a.md\n"notes/sub dir/Delta \\316\\224.md"\n"notes/\\346\\227\\245\\346\\234\\254.md"\nsrc/x.ts\n';
    const r = tsm(['index', '--files-from-stdin', '--json'], { cwd: notes, input: gitSays });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ updated: 2, removed: 1, notTaken: [{ path: 'src/x.ts', reason: 'outside the vault' }] });
    expect(r.stderr).toBe('tsm: 1 of 4 listed paths not taken:\n  src/x.ts: outside the vault\n');
    // A user in a subfolder lists paths from there.
    writeFileSync(join(notes, 'sub dir/Delta Δ.md'), 'two, edited again');
    const sub = tsm(['index', '--files-from-stdin'], { cwd: join(notes, 'sub dir'), input: 'Delta Δ.md\n' });
    expect(sub.stdout).toMatch(/^0 added, 1 updated, 0 removed/);
    expect(sub.stderr).toBe('');
  });

  it('--files-from-stdin says which listed paths it did not take, and why', () => {
    // LICENSE: no extension, so no attachment a link may name either (a .txt is one: the next test).
    const dir = vault({ 'a.md': 'one', '.tsmignore': 'drafts/\n', 'drafts/d.md': 'draft', LICENSE: 'text' });
    tsm(['index', '--vault', dir]);
    const r = tsm(['index', '--vault', dir, '--files-from-stdin'], { input: '/etc/passwd\nnope.md\nLICENSE\ndrafts/d.md\na.md\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^0 added, 0 updated, 0 removed, 1 unchanged, 0 skipped/);
    expect(r.stderr).toBe(
      'tsm: 4 of 5 listed paths not taken:\n  /etc/passwd: outside the vault\n  nope.md: not found\n  LICENSE: not a note (.md)\n' +
        '  drafts/d.md: ignored (.tsmignore, .gitignore or a skipped folder)\n' +
        'tsm: a relative path is read from the vault root, else from the current folder, else from the root of the git work tree holding the vault\n',
    );
  });

  it('--files-from-stdin: a folder (the vault\'s own too) is not taken as a folder, one line per path, the rest with a count', () => {
    // Measured before: a folder was "not a note (.md)", the vault's own folder (`.`, `find .`'s first line)
    // "outside the vault", and every path shared the count's line, joined by "; ".
    const dir = vault({ 'a.md': 'one', 'sub/b.md': 'two', 'c.md/x.md': 'three' });
    tsm(['index', '--vault', dir]);
    const r = tsm(['index', '--vault', dir, '--files-from-stdin'], { input: `sub\n.\n${dir}\nc.md\nsub/b.md\nno/1.md\nno/2.md\nno/3.md\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^0 added, 0 updated, 0 removed, 1 unchanged, 0 skipped/);
    expect(r.stderr).toBe(
      'tsm: 7 of 8 listed paths not taken:\n' +
        '  sub: a folder: name the notes in it\n' +
        '  .: a folder: name the notes in it\n' +
        `  ${dir}: a folder: name the notes in it\n` +
        '  c.md: a folder: name the notes in it\n' +
        '  no/1.md: not found\n' +
        '  … and 2 more (--json lists all)\n' +
        'tsm: a relative path is read from the vault root, else from the current folder, else from the root of the git work tree holding the vault\n',
    );
  });

  it('--files-from-stdin takes an attachment that came or went: a link to it resolves, or no longer does; one line names those kept as attachments', () => {
    // `git diff --name-only` lists the image pasted beside a note: it was "not a note", and the note's link
    // to it stayed unresolved (tsm related, tsm doctor's "add that file") until the next full tsm index.
    // Measured before: `rg -l` listing notes.txt recorded it as an attachment without a word, while every other
    // path not read as a note had its line; its words were then never found by tsm search.
    const dir = vault({ 'board.md': '# Board\n\n![[board.png]] and [[notes.txt]]\n' });
    tsm(['index', '--vault', dir]);
    const linkOf = (target: string) => json(tsm(['related', 'board.md', '--vault', dir, '--json'])).outgoing.find((l: { target: string }) => l.target === target);
    expect(linkOf('board.png').attachmentPath).toBeNull();
    writeFileSync(join(dir, 'board.png'), 'png');
    writeFileSync(join(dir, 'notes.txt'), 'text');
    const added = tsm(['index', '--vault', dir, '--files-from-stdin'], { input: 'board.png\nnotes.txt\nboard.md\n' });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/^0 added, 0 updated, 0 removed, 1 unchanged/);
    expect(added.stderr).toBe('tsm: 2 of 3 listed paths kept as attachments, not notes (a note ends in .md: "extensions" in .tsm/config.json sets which):\n  board.png\n  notes.txt\n');
    const one = json(tsm(['index', '--vault', dir, '--files-from-stdin', '--json'], { input: 'notes.txt\n./notes.txt\n' }));
    expect(one).toMatchObject({ notTaken: [], attachments: ['notes.txt'] });
    expect(linkOf('board.png').attachmentPath).toBe('board.png');
    expect(linkOf('notes.txt').attachmentPath).toBe('notes.txt');
    unlinkSync(join(dir, 'board.png'));
    const gone = tsm(['index', '--vault', dir, '--files-from-stdin'], { input: 'board.png\n' });
    expect(gone.stderr).toBe('');
    expect(linkOf('board.png').attachmentPath).toBeNull();
    // An attachment the index never listed, and not there: still "not a note".
    expect(tsm(['index', '--vault', dir, '--files-from-stdin'], { input: 'nope.png\n' }).stderr).toMatch(/^tsm: 1 of 1 listed path not taken:\n  nope\.png: not a note \(\.md\)\n/);
  });

  it('a .tsmignore in a folder is read by tsm index and --files-from-stdin, and its removal brings the note back', () => {
    const dir = vault({ 'a.md': 'lichen', 'sub/secret.md': 'lichen', 'sub/keep.md': 'lichen' });
    tsm(['index', '--vault', dir]);
    writeFileSync(join(dir, 'sub/.tsmignore'), 'secret.md\n');
    expect(json(tsm(['index', '--vault', dir, '--json']))).toMatchObject({ added: 0, removed: 1 });
    expect(paths(dir, 'lichen').sort()).toEqual(['a.md', 'sub/keep.md']);
    const r = tsm(['index', '--vault', dir, '--files-from-stdin'], { input: 'sub/secret.md\n' });
    expect(r.stderr).toContain('sub/secret.md: ignored (.tsmignore, .gitignore or a skipped folder)');
    unlinkSync(join(dir, 'sub/.tsmignore'));
    expect(json(tsm(['index', '--vault', dir, '--json']))).toMatchObject({ added: 1, removed: 0 });
  });

  it('a vault that does not exist is a clear error with exit 1', () => {
    const r = tsm(['index', '--vault', '/no/such/vault']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('vault not found: /no/such/vault');
    expect(r.stdout).toBe('');
  });

  it('status without an index says to run tsm index (exit 1)', () => {
    const dir = vault({ 'a.md': 'x' });
    const r = tsm(['status', '--vault', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`run \`tsm index --vault ${dir}\``);
  });

  it('the index lives in --db when given, and the vault may be read-only', () => {
    const dir = vault({ 'a.md': '# A\nhello' });
    const db = join(dir, '..', `tsm-ro-${Date.now()}.db`);
    cleanups.push(() => ['', '-wal', '-shm'].forEach((s) => rmSync(db + s, { force: true })));
    chmodSync(dir, 0o555);
    cleanups.push(() => chmodSync(dir, 0o755));
    expect(tsm(['index', '--vault', dir, '--db', db]).code).toBe(0);
    expect(existsSync(join(dir, '.tsm'))).toBe(false);
    expect(json(tsm(['search', 'hello', '--vault', dir, '--db', db, '-f', 'json']))[0].path).toBe('a.md');
  });
});

describe('bad input: indexing goes on, a warning is recorded, nothing is lost', () => {
  const bad: Record<string, string | Buffer> = {
    'malformed-yaml.md': '---\ntitle: [unclosed\n  : bad\n---\n# Body\n\nsurvivor text alpha',
    'frontmatter-only.md': '---\ntitle: Only FM\n---\n',
    'empty.md': '',
    'invalid-utf8.md': Buffer.concat([Buffer.from('# Bad bytes\n\nbeta '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(' gamma')]),
    'bom.md': '\uFEFF# BOM title\n\ndelta',
    'crlf.md': '# CRLF\r\n\r\n## Second\r\nepsilon line\r\n',
    'binary.md': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]),
    'setext.md': 'Setext Title\n============\n\nSub\n---\n\nzeta',
    'fenced.md': '# Real\n\n```sh\n# not a heading\n```\n\neta',
    'skipped-levels.md': '# H1\n\n#### H4\n\ntheta',
    'spaces and #hash.md': '# Spaced\n\niota',
    'ノート.md': '# 日本語のノート\n\n本文テキスト',
  };

  it('indexes every bad file it can, skips the binary one with a warning', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `## h${i}\nline ${i}`).join('\n');
    const dir = vault({ ...bad, 'many-headings.md': `# Many\n${many}\nkappa` });
    const r = tsm(['index', '--vault', dir, '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.added).toBe(Object.keys(bad).length); // all but binary.md, plus many-headings.md
    expect(s.skipped).toBe(1);
    const status = json(tsm(['status', '--vault', dir, '--json']));
    const warned = status.warningList.map((w: { path: string }) => w.path);
    expect(warned).toContain('binary.md');
    expect(warned).toContain('malformed-yaml.md');
    expect(warned).toContain('invalid-utf8.md');
    for (const [q, p] of [
      ['alpha', 'malformed-yaml.md'],
      ['gamma', 'invalid-utf8.md'],
      ['delta', 'bom.md'],
      ['epsilon', 'crlf.md'],
      ['zeta', 'setext.md'],
      ['eta', 'fenced.md'],
      ['theta', 'skipped-levels.md'],
      ['iota', 'spaces and #hash.md'],
      ['本文テキスト', 'ノート.md'],
      ['kappa', 'many-headings.md'],
    ]) {
      expect(paths(dir, q), q).toContain(p);
    }
    const crlf = json(tsm(['search', 'epsilon', '--vault', dir, '-f', 'json']))[0];
    expect(crlf.section).toBe('CRLF > Second');
    expect(crlf.line).toBe(3);
    const fenced = json(tsm(['search', 'eta', '--vault', dir, '-f', 'json', '--all-sections'])).filter((h: { path: string }) => h.path === 'fenced.md');
    expect(fenced.map((h: { section: string }) => h.section)).toEqual(['Real']);
    const skipped = json(tsm(['search', 'theta', '--vault', dir, '-f', 'json']))[0];
    expect(skipped.section).toBe('H1 > H4');
  });

  it('a file over the size limit is skipped with a warning', () => {
    const dir = vault({ '.tsm/config.json': '{ "maxFileBytes": 1000 }', 'big.md': `# Big\n${'x'.repeat(2000)}`, 'ok.md': 'fine' });
    const s = json(tsm(['index', '--vault', dir, '--json']));
    expect(s).toMatchObject({ added: 1, skipped: 1 });
    expect(json(tsm(['status', '--vault', dir, '--json'])).warningList[0].path).toBe('big.md');
  });

  it('file names in NFD are stored as NFC', () => {
    const dir = vault({ 'cafe\u0301.md': '# Café\n\nlambda' });
    tsm(['index', '--vault', dir]);
    expect(paths(dir, 'lambda')).toEqual(['café.md']);
  });

  it('a symlink loop does not hang indexing', () => {
    const dir = vault({ 'real/a.md': 'mu' });
    symlinkSync(dir, join(dir, 'real/loop'));
    const r = tsm(['index', '--vault', dir, '--json'], { timeoutMs: 20_000 });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).added).toBe(1);
  });

  it('fixing a bad file clears its warning on the next index', () => {
    const dir = vault({ 'y.md': '---\ntitle: [x\n---\nbody' });
    tsm(['index', '--vault', dir]);
    expect(json(tsm(['status', '--vault', dir, '--json'])).warnings).toBe(1);
    writeFileSync(join(dir, 'y.md'), '---\ntitle: fixed\n---\nbody');
    tsm(['index', '--vault', dir]);
    expect(json(tsm(['status', '--vault', dir, '--json'])).warnings).toBe(0);
  });

  it('a frontmatter type tsm does not know is a warning in status and doctor, saying what the note became', () => {
    const dir = vault({ 'm.md': '---\ntype: meeting\n---\n# Standup\n\nnotes' });
    tsm(['index', '--vault', dir]);
    const message = 'frontmatter: type "meeting" is not a type tsm knows (daily, knowledge, session): indexed as knowledge';
    expect(tsm(['status', '--vault', dir]).stdout).toContain(`  ! m.md: ${message}\n`);
    const problem = json(tsm(['doctor', '--vault', dir, '--json'])).problems.find((p: { check: string }) => p.check === 'notes');
    expect(problem).toMatchObject({ severity: 'warning', message: `m.md: ${message}`, fix: expect.stringMatching(/^set `type:` to daily, knowledge or session/) });
  });
});

describe('tsm related, doctor, init, --version', () => {
  it('related lists outgoing links and backlinks', () => {
    const dir = vault({
      'hub.md': '---\nrelated: ["[[spoke2]]"]\n---\n# Hub\n\nsee [[spoke1|the first]] and [two](spoke2.md#part) and [[nowhere]]',
      'spoke1.md': '# Spoke 1\n\nback to [[hub]]',
      'spoke2.md': '# Spoke 2',
    });
    tsm(['index', '--vault', dir]);
    const r = json(tsm(['related', 'hub.md', '--vault', dir, '--json']));
    expect(r.outgoing.map((l: { targetPath: string | null }) => l.targetPath)).toEqual(['spoke1.md', 'spoke2.md', null, 'spoke2.md']);
    expect(r.backlinks.map((l: { sourcePath: string }) => l.sourcePath)).toEqual(['spoke1.md']);
    const text = tsm(['related', 'hub', '--vault', dir]).stdout;
    expect(text).toContain('nowhere  [unresolved]');
    expect(tsm(['related', 'missing-note', '--vault', dir]).code).toBe(1);
  });

  it('links re-resolve when their target appears', () => {
    const dir = vault({ 'a.md': 'see [[later]]' });
    tsm(['index', '--vault', dir]);
    expect(json(tsm(['status', '--vault', dir, '--json'])).unresolvedLinks).toBe(1);
    writeFiles(dir, { 'later.md': '# Later' });
    tsm(['index', '--vault', dir]);
    expect(json(tsm(['status', '--vault', dir, '--json'])).unresolvedLinks).toBe(0);
    expect(json(tsm(['related', 'later', '--vault', dir, '--json'])).backlinks[0].sourcePath).toBe('a.md');
  });

  it('doctor reports staleness, unresolved links and warnings with fixes', () => {
    const dir = vault({ 'a.md': 'see [[ghost]]', 'bad.md': '---\n: [\n---\nx' });
    tsm(['index', '--vault', dir]);
    writeFileSync(join(dir, 'new.md'), 'new');
    const r = json(tsm(['doctor', '--vault', dir, '--json']));
    const checks = r.problems.map((p: { check: string }) => p.check);
    expect(checks).toEqual(expect.arrayContaining(['staleness', 'links', 'notes']));
    for (const p of r.problems) expect(p.fix.length).toBeGreaterThan(0);
    expect(r.ok).toBe(true);
    const bare = vault({ 'x.md': 'x' });
    const missing = tsm(['doctor', '--vault', bare, '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.stdout).problems[0]).toMatchObject({ check: 'index', severity: 'error', fix: `run \`tsm index --vault ${bare}\`` });
  });

  it('init creates a commented config once and is idempotent', () => {
    const dir = vault({});
    expect(tsm(['init', '--vault', dir]).code).toBe(0);
    const cfg = readFileSync(join(dir, '.tsm/config.json'), 'utf8');
    expect(cfg).toMatch(/^\/\/ tsm configuration/);
    writeFileSync(join(dir, '.tsm/config.json'), cfg.replace('"hookTopK": 5', '"hookTopK": 3'));
    expect(tsm(['init', '--vault', dir]).stderr).toContain('already set up');
    expect(readFileSync(join(dir, '.tsm/config.json'), 'utf8')).toContain('"hookTopK": 3');
  });

  it('a bad config value is a clear error naming the setting', () => {
    const dir = vault({ '.tsm/config.json': '{ "chunkChars": "big" }', 'a.md': 'x' });
    const r = tsm(['index', '--vault', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/chunkChars must be a whole number/);
  });

  it('--version prints the package version; unknown commands are usage errors (exit 2)', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8'));
    expect(tsm(['--version']).stdout.trim()).toBe(pkg.version);
    expect(tsm(['frobnicate']).code).toBe(2);
    expect(tsm(['search', 'x', '--no-such-flag']).code).toBe(2);
  });

  it('bin/tsm runs as a command through a symlink (as PATH and node_modules/.bin run it), arguments intact', () => {
    const dir = vault({ 'a.md': '# Quoted\n\nthe "odd $HOME query" lives here' });
    const bin = mkdtempSync(join(tmpdir(), 'tsm-bin-'));
    cleanups.push(() => rmSync(bin, { recursive: true, force: true }));
    symlinkSync(TSM, join(bin, 'tsm'));
    // A CA bundle that does not exist makes Node print a warning at start-up, so its absence shows that the
    // launcher dropped the variable (tsm never opens a TLS connection; Node parses the bundle eagerly).
    const env = cleanEnv({ NODE_EXTRA_CA_CERTS: join(bin, 'no-such-ca.pem'), PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}` });
    const run = (args: string[]) => spawnSync(join(bin, 'tsm'), args, { env, encoding: 'utf8' });
    const found = run(['search', '"odd $HOME query"', '--vault', dir, '-f', 'json']);
    expect(found.status).toBe(0);
    expect(JSON.parse(found.stdout).map((h: { path: string }) => h.path)).toEqual(['a.md']);
    expect(found.stderr).not.toMatch(/extra certs/i);
    expect(run(['frobnicate']).status).toBe(2);
  });

  it('the fast bundle is ASCII, so V8 holds its source as a one-byte string (scripts/build.mjs)', () => {
    const bytes = readFileSync(join(ROOT, 'dist/tsm.cjs'));
    expect(bytes.findIndex((b) => b > 0x7f)).toBe(-1);
  });

  it('a damaged or foreign V8 code cache is ignored, and the next search writes a good one', () => {
    // A copy of the package, so this test's cache does not race the other tests' launcher.
    const pkg = mkdtempSync(join(tmpdir(), 'tsm-pkg-'));
    cleanups.push(() => rmSync(pkg, { recursive: true, force: true }));
    cpSync(join(ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    const cache = join(pkg, 'dist/tsm.v8cache');
    expect(existsSync(cache)).toBe(true); // the build trains it
    writeFileSync(cache, Buffer.alloc(4096, 7));
    const dir = vault({ 'a.md': '# Alpha\n\nlora range' });
    const run = (args: string[]) => spawnSync(process.execPath, [join(pkg, 'bin/tsm'), ...args], { env: cleanEnv(), encoding: 'utf8' });
    const first = run(['search', 'lora', '--vault', dir, '-f', 'json']);
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)[0].path).toBe('a.md');
    expect(first.stderr).not.toMatch(/warning|error/i);
    const rewritten = readFileSync(cache);
    expect(rewritten.equals(Buffer.alloc(4096, 7))).toBe(false);
    const second = run(['search', 'lora', '--vault', dir, '-f', 'json']);
    expect(second.stdout).toBe(first.stdout);
    expect(readFileSync(cache).equals(rewritten)).toBe(true); // accepted: left alone
    // Other commands reach their lazily loaded modules from the cached bundle too.
    expect(run(['status', '--vault', dir, '--json']).status).toBe(0);

    // The cache names the Node that wrote it. V8 alone took Node 20.20.2's cache on 20.19.0 (the same V8
    // version) and every command crashed: a cache whose first line names another Node, or one without that
    // line (as before the key), is never handed to V8, and the next search writes this Node's.
    const newline = rewritten.indexOf(0x0a);
    const key = rewritten.subarray(0, newline + 1).toString('latin1');
    expect(key).toMatch(new RegExp(`^tsm-v8cache ${process.version.replace(/\./g, '\\.')} ${process.arch} `));
    const data = rewritten.subarray(newline + 1);
    for (const foreign of [Buffer.concat([Buffer.from(key.replace(process.version, 'v20.0.0'), 'latin1'), data]), data]) {
      writeFileSync(cache, foreign);
      const r = run(['search', 'lora', '--vault', dir, '-f', 'json']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toBe(first.stdout);
      expect(readFileSync(cache).subarray(0, newline + 1).toString('latin1')).toBe(key);
    }
  });
});


