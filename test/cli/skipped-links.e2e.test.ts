// A link to a file tsm skipped (too large, NUL bytes, a FIFO) names a file that is there: `tsm related` and
// `tsm status` said `[unresolved]` / counted it as unresolved with no word more, as if the file did not
// exist, while `tsm doctor` named the file and why (NoteReader.skippedFiles). They now say the same.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';

let v: ReturnType<typeof makeVault>;

beforeAll(() => {
  v = makeVault({
    'a.md': '# a\n\nSee [[big]], [[bin#Part]], [[fifo]], [[missing]] and [[b]].\n',
    'b.md': '# b\n\ntext\n',
    'big.md': `# big\n\n${'word '.repeat(100)}\n`,
    'bin.md': 'binary\0\0bytes\n',
  });
  mkdirSync(join(v.dir, '.tsm'));
  writeFileSync(join(v.dir, '.tsm/config.json'), '{ "maxFileBytes": 200 }');
  expect(spawnSync('mkfifo', [join(v.dir, 'fifo.md')]).status).toBe(0);
  const r = tsm(['index', '--vault', v.dir]);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(() => v.cleanup());

describe('a link to a file tsm skipped', () => {
  it('tsm related names the file and why it was skipped, not [unresolved]', () => {
    const r = tsm(['related', 'a.md', '--vault', v.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('  big.md  [skipped: file too large (');
    expect(r.stdout).toContain('  bin.md#Part  [skipped: binary file (NUL bytes');
    expect(r.stdout).toContain(`  fifo.md  [skipped: not a regular file (a pipe, a socket or a device)]  wikilink:3\n`);
    expect(r.stdout).toContain('  missing  [unresolved]  wikilink:3\n');
    expect(r.stdout).toContain('  b.md  wikilink:3\n');
  });

  it('tsm related --json adds `skipped` {path, reason} to each link (null when none), keeping the fields it had', () => {
    const r = tsm(['related', 'a.md', '--json', '--vault', v.dir]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout).outgoing as Record<string, unknown>[];
    const to = (target: string) => out.find((l) => l.target === target);
    expect(to('fifo')).toEqual({
      kind: 'wikilink',
      sourcePath: 'a.md',
      targetPath: null,
      attachmentPath: null,
      target: 'fifo',
      heading: null,
      text: null,
      line: 3,
      skipped: { path: 'fifo.md', reason: 'not a regular file (a pipe, a socket or a device)' },
      ignored: null,
    });
    expect(to('big')?.skipped).toEqual({ path: 'big.md', reason: expect.stringMatching(/^file too large \(\d+ bytes > 200\)$/) });
    expect(to('bin')?.skipped).toEqual({ path: 'bin.md', reason: expect.stringMatching(/^binary file/) });
    expect(to('missing')?.skipped).toBeNull();
    expect(to('b')).toMatchObject({ targetPath: 'b.md', skipped: null });
  });

  it('tsm status counts them among the unresolved links, and says how many', () => {
    const text = tsm(['status', '--vault', v.dir]);
    expect(text.stdout).toContain('links     5 (4 unresolved, 3 of them to files tsm skipped: `tsm doctor` says why)\n');
    const json = JSON.parse(tsm(['status', '--json', '--vault', v.dir]).stdout);
    expect(json).toMatchObject({ links: 5, unresolvedLinks: 4, linksToSkippedFiles: 3 });
  });

  it('tsm status leaves the line as it was when no link names a skipped file', () => {
    const w = makeVault({ 'a.md': '# a\n\nSee [[missing]].\n' });
    try {
      tsm(['index', '--vault', w.dir]);
      expect(tsm(['status', '--vault', w.dir]).stdout).toContain('links     1 (1 unresolved)\n');
      expect(JSON.parse(tsm(['status', '--json', '--vault', w.dir]).stdout).linksToSkippedFiles).toBe(0);
    } finally {
      w.cleanup();
    }
  });
});
