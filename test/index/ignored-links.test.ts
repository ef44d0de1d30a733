// withIgnored: the one rule for links to notes the ignore rules leave out (doctor, status, related, MCP
// related). The vault is walked for them only when a link names no note, attachment nor skipped file, so
// `tsm related` on a note whose links all resolve reads no folder more. The walk is the real one, counted.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LinkRecord } from '../../src/core/types.js';
import { makeVault } from '../helpers/cli.js';

const walks = vi.hoisted(() => [] as string[]);
vi.mock('../../src/vault/ignored-files.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/vault/ignored-files.js')>();
  return {
    ...real,
    ignoredFiles: (vault: string, extensions: readonly string[]) => {
      walks.push(vault);
      return real.ignoredFiles(vault, extensions);
    },
  };
});
const { withIgnored } = await import('../../src/index/ignored-links.js');

const made: { dir: string; cleanup: () => void }[] = [];
afterEach(() => {
  made.splice(0).forEach((v) => v.cleanup());
  walks.length = 0;
});

function vault() {
  const v = makeVault({ '.gitignore': 'drafts/\n', 'a.md': '# a\n', 'drafts/x.md': '# x\n', 'drafts/pic.png': 'png' });
  made.push(v);
  return v.dir;
}

const link = (target: string, found: Partial<LinkRecord> = {}): LinkRecord => ({
  kind: 'wikilink',
  sourcePath: 'a.md',
  targetPath: null,
  attachmentPath: null,
  skipped: null,
  ignored: null,
  target,
  heading: null,
  text: null,
  line: 3,
  ...found,
});

describe('withIgnored', () => {
  it('names the ignored note or attachment a link names, and the rule; a link to nothing stays unnamed', () => {
    const links = withIgnored([link('x'), link('drafts/x'), link('missing'), link('drafts/pic.png', { kind: 'embed' }), link('pic.png', { kind: 'embed' }), link('other.png')], vault(), ['.md']);
    expect(links.map((l) => l.ignored)).toEqual([
      { path: 'drafts/x.md', by: '.gitignore', rule: 'drafts/' },
      { path: 'drafts/x.md', by: '.gitignore', rule: 'drafts/' },
      null,
      { path: 'drafts/pic.png', by: '.gitignore', rule: 'drafts/' },
      // By name, as the index resolves an attachment (Obsidian too: the only pic.png).
      { path: 'drafts/pic.png', by: '.gitignore', rule: 'drafts/' },
      null,
    ]);
    expect(walks).toHaveLength(1);
  });

  it('does not walk the vault when every link names a note, an attachment or a skipped file', () => {
    const links = [
      link('b', { targetPath: 'b.md' }),
      link('img.png', { attachmentPath: 'img.png' }),
      link('x', { skipped: { path: 'x.md', reason: 'binary file' } }),
    ];
    withIgnored(links, vault(), ['.md']);
    expect(walks).toEqual([]);
    expect(links.map((l) => l.ignored)).toEqual([null, null, null]);
    withIgnored([], vault(), ['.md']);
    expect(walks).toEqual([]);
  });
});
