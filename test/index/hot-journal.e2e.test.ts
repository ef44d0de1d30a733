// An index another program switched to SQLite's rollback journal (a SQLite browser, `sqlite3`) and left with
// a write half done (it was killed): a hot `index.db-journal` only a writer may roll back. A search said
// "cannot open the index at …: attempt to write a readonly database", with no cause and no fix; now it names
// the journal and `tsm index`, which rolls the write back, after which the search answers as before.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeVault, ROOT, tsm } from '../helpers/cli.js';

let vault: { dir: string; cleanup: () => void };
let db: string;

beforeEach(() => {
  // Enough sections that the killed write spills pages into the file (a journal with nothing spilled is not hot).
  const files: Record<string, string> = { 'a.md': '# Alpha\n\nneedle text\n' };
  for (let i = 0; i < 60; i++) files[`n${i}.md`] = `# Note ${i}\n\n${'other words '.repeat(200)}\n`;
  vault = makeVault(files);
  db = join(vault.dir, '.tsm', 'index.db');
  expect(tsm(['index', '--vault', vault.dir]).code).toBe(0);
});
afterEach(() => vault.cleanup());

/** A process that writes the index in rollback mode and is killed (SIGKILL) before its COMMIT. */
function killedRollbackWriter(): void {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(process.argv[1]);
    db.pragma('journal_mode = DELETE');
    db.pragma('cache_size = 1'); // pages go to the file before the commit: the journal is hot
    db.exec('BEGIN');
    db.exec("UPDATE sections SET heading = heading || ' changed'");
    process.kill(process.pid, 'SIGKILL');`;
  const r = spawnSync(process.execPath, ['-e', script, db], { cwd: ROOT, encoding: 'utf8' });
  expect(r.signal, r.stderr).toBe('SIGKILL');
  expect(existsSync(`${db}-journal`)).toBe(true);
}

describe('a hot rollback journal beside the index', { timeout: 60_000 }, () => {
  it('a search and doctor name it and tsm index; tsm index rolls it back and the search answers', () => {
    killedRollbackWriter();
    const search = tsm(['search', 'needle', '--vault', vault.dir]);
    expect(search.code).toBe(1);
    expect(search.stdout).toBe('');
    expect(search.stderr).toMatch(
      /^tsm: the index at \S+index\.db holds a write left half done in index\.db-journal \(a program that wrote it stopped\), which a reader may not undo: run `tsm index( --vault \S+)?`, which rolls it back\n$/,
    );
    const doctor = JSON.parse(tsm(['doctor', '--json', '--vault', vault.dir]).stdout) as { problems: { check: string; fix: string }[] };
    expect(doctor.problems.find((p) => p.check === 'index')?.fix).toMatch(/^run `tsm index( --vault \S+)?`, which rolls it back$/);
    const index = tsm(['index', '--vault', vault.dir]);
    expect(index.code, index.stderr).toBe(0);
    expect(index.stdout).toMatch(/^0 added, 0 updated, 0 removed, 61 unchanged/);
    const found = tsm(['search', 'needle', '--vault', vault.dir, '-f', 'json']);
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout).map((h: { path: string; section: string }) => [h.path, h.section])).toEqual([['a.md', 'Alpha']]);
  });
});
