// config.json settings a note's rows depend on (chunkChars, dailyFolders, sessionFolders, maxFileBytes): a
// change reaches the notes at the next `tsm index`, whose files did not change (src/index/reading-settings.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, makeVault, tsm } from '../helpers/cli.js';

let vault: { dir: string; cleanup: () => void };
const run = (args: string[]) => tsm([...args, '--vault', vault.dir]);
const setConfig = (settings: object) => writeFileSync(join(vault.dir, '.tsm', 'config.json'), JSON.stringify(settings));
const status = () => JSON.parse(run(['status', '--json']).stdout) as { notes: number; byType: Record<string, number> };

beforeAll(() => assertBuilt());
beforeEach(() => {
  vault = makeVault({ 'notes/a.md': '# Alpha\n\nThe walrus.\n', 'big.md': `# Big\n\n${`${'word '.repeat(30)}\n\n`.repeat(20)}` });
  mkdirSync(join(vault.dir, '.tsm'), { recursive: true });
  setConfig({ maxFileBytes: 1000 });
  expect(run(['index']).code).toBe(0);
});
afterEach(() => vault.cleanup());

describe('settings the notes were read with', () => {
  it('a changed dailyFolders or maxFileBytes reaches unchanged notes at the next sync, which says why; doctor says so first', () => {
    expect(status()).toMatchObject({ notes: 1, byType: { daily: 0, knowledge: 1 } });
    setConfig({ maxFileBytes: 100_000, dailyFolders: ['notes'] });
    const doctor = run(['doctor']);
    expect(doctor.stdout).toContain('dailyFolders, maxFileBytes changed in config.json since the notes were read');
    const r = run(['index', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ added: 1, updated: 1 });
    expect(r.stderr).toContain('tsm: dailyFolders, maxFileBytes changed in config.json since the notes were read: reading them all again, once');
    expect(status()).toMatchObject({ notes: 2, byType: { daily: 1, knowledge: 1 } });
    // Once: the next sync reads nothing again, and the same folders in another case or order change nothing.
    setConfig({ maxFileBytes: 100_000, dailyFolders: ['Notes', 'notes'] });
    const again = run(['index', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ added: 0, updated: 0, unchanged: 2 });
    expect(again.stderr).not.toContain('changed in config.json');
  });

  it('a changed chunkChars splits the sections again', () => {
    const sections = () => (JSON.parse(run(['status', '--json']).stdout) as { sections: number }).sections;
    setConfig({ maxFileBytes: 100_000 });
    run(['index']);
    const before = sections();
    setConfig({ maxFileBytes: 100_000, chunkChars: 200 });
    expect(run(['index']).stderr).toContain('chunkChars changed');
    expect(sections()).toBeGreaterThan(before);
  });
});
