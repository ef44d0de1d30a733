// A Dendron vault through the built `tsm`: Dendron writes a labelled link label first,
// `[[Setup guide|project.setup]]`, and that names project.setup.md where a dendron.yml says the vault is
// Dendron's (in the vault, or in the workspace folder above it). Elsewhere the same text is Obsidian's
// `[[target|label]]`, and a dendron.yml added later reads the notes again.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, makeVault, tsm, writeFiles } from '../helpers/cli.js';

const NOTES = {
  'project.setup.md': '---\nid: a1\ntitle: Setup guide\nupdated: 1764244800000\n---\n\nHow to set up the project.\n',
  'project.md': '---\nid: b2\ntitle: Project\n---\n\nSee [[Setup guide|project.setup]], [[Steps|project.setup#steps]] and [[project.setup]].\n',
};
const DENDRON_YML = 'version: 5\nworkspace:\n  vaults:\n    - fsPath: notes\n';

let vault: { dir: string; cleanup: () => void };
afterEach(() => vault.cleanup());
beforeAll(() => assertBuilt());

function outgoing(dir: string): [string, string | null, string | null, string | null][] {
  const r = tsm(['related', 'project.md', '--json', '--vault', dir]);
  expect(r.code, r.stderr).toBe(0);
  const links = JSON.parse(r.stdout).outgoing as { target: string; heading: string | null; text: string | null; targetPath: string | null }[];
  return links.map((l) => [l.target, l.heading, l.text, l.targetPath]);
}

const DENDRON_READ = [
  ['project.setup', null, 'Setup guide', 'project.setup.md'],
  ['project.setup', 'steps', 'Steps', 'project.setup.md'],
  ['project.setup', null, null, 'project.setup.md'],
];

describe("Dendron's [[label|note.id]]", () => {
  it('in a vault of the workspace whose dendron.yml is above it, links the note its id names', () => {
    vault = makeVault({ 'dendron.yml': DENDRON_YML });
    const notes = join(vault.dir, 'notes');
    writeFiles(notes, NOTES);
    expect(tsm(['index', '--vault', notes]).code).toBe(0);
    expect(outgoing(notes)).toEqual(DENDRON_READ);
  });

  it("a dendron.yml above a vault it does not list (a home folder's) leaves the vault Obsidian's", () => {
    vault = makeVault({ 'dendron.yml': 'version: 5\nworkspace:\n  vaults:\n    - fsPath: "./journal"\n' });
    const notes = join(vault.dir, 'notes');
    writeFiles(notes, NOTES);
    expect(tsm(['index', '--vault', notes]).code).toBe(0);
    expect(outgoing(notes)[0]).toEqual(['Setup guide', null, 'project.setup', null]);
    // Listed quoted and as ./notes, it is the workspace's.
    writeFileSync(join(vault.dir, 'dendron.yml'), 'version: 5\nworkspace:\n  vaults:\n    - fsPath: "./journal"\n    - fsPath: \'./notes\'  # the notes\n');
    expect(tsm(['index', '--vault', notes]).code).toBe(0);
    expect(outgoing(notes)).toEqual(DENDRON_READ);
  });

  it('in a vault without dendron.yml is read as Obsidian reads it; one added later reads the notes again, saying why', () => {
    vault = makeVault(NOTES);
    expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
    expect(outgoing(vault.dir)).toEqual([
      ['Setup guide', null, 'project.setup', null],
      ['Steps', null, 'project.setup#steps', null],
      ['project.setup', null, null, 'project.setup.md'],
    ]);
    writeFileSync(join(vault.dir, 'dendron.yml'), DENDRON_YML);
    const r = tsm(['index', '--json', '--vault', vault.dir]);
    expect(r.stderr).toContain("tsm: Dendron's dendron.yml was added or removed since the notes were read: reading them all again, once");
    expect(JSON.parse(r.stdout)).toMatchObject({ updated: 2 });
    expect(outgoing(vault.dir)).toEqual(DENDRON_READ);
    rmSync(join(vault.dir, 'dendron.yml'));
    mkdirSync(join(vault.dir, 'dendron.yml'));
    // A folder of that name is no Dendron settings file.
    expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
    expect(outgoing(vault.dir)[0]).toEqual(['Setup guide', null, 'project.setup', null]);
  });
});
