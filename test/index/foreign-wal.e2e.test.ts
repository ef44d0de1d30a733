// A -wal file of another index beside the vault's index (a backup restored from two times, a sync tool
// carrying `.tsm/`): SQLite reads it as the index's own writes. A search for a word the vault has said
// "0 results" and exit 0, and the prompt hook injected nothing and logged nothing, while `tsm doctor` said the
// index was damaged. Now a search that finds nothing with a -wal beside the index checks it (wal-check.ts)
// and says the damage and its fix; `tsm index --full`, that fix, rebuilds it (it emptied it row by row, and
// a table and its indexes that disagreed went on disagreeing).
import { copyFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { makeVault, tsm } from '../helpers/cli.js';
import { servedClient } from '../helpers/served-client.js';
import { call } from '../mcp/client.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function vaultOf(letter: string, word: string, notes: number, more = ''): string {
  const files: Record<string, string> = {};
  for (let i = 1; i <= notes; i++) files[`${letter}${i}.md`] = `# ${letter.toUpperCase()}${i}\n\n${word} text${i} and more words here\n${more.replaceAll('#', String(i))}`;
  const v = makeVault(files);
  cleanups.push(v.cleanup);
  const r = tsm(['index', '--vault', v.dir]);
  expect(r.code, r.stderr).toBe(0);
  return v.dir;
}

/**
 * Lays a -wal of `other`'s index beside `vault`'s: a connection held open on the other index keeps its -wal
 * (SQLite deletes it when the last connection closes) while a `tsm index` writes an edit into it.
 */
function foreignWal(vault: string, other: string): void {
  const otherDb = join(other, '.tsm', 'index.db');
  const held = new Database(otherDb, { readonly: true });
  try {
    held.prepare('SELECT count(*) FROM notes').get();
    writeFileSync(join(other, 'b1.md'), '# B1\n\nzebra edited\n');
    const r = tsm(['index', '--vault', other]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(`${otherDb}-wal`)).toBe(true);
    copyFileSync(`${otherDb}-wal`, join(vault, '.tsm', 'index.db-wal'));
  } finally {
    held.close();
  }
}

const DAMAGED = (detail: string) => new RegExp(`^tsm: the index at \\S+index\\.db is damaged \\(${detail}\\): run \`tsm index --full --vault \\S+\` to rebuild it\\n$`);

describe('a -wal of another index beside the index', { timeout: 120_000 }, () => {
  it("whose notes pages disagree with the file's: search and the prompt hook say the damage", () => {
    const a = vaultOf('a', 'apple', 3);
    const b = vaultOf('b', 'zebra', 30);
    expect(tsm(['init', '--vault', a]).code).toBe(0);
    foreignWal(a, b);

    const r = tsm(['search', 'apple', '--vault', a]);
    // It was "tsm: 0 results" and exit 0.
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(DAMAGED("SQLite's check of its notes table: wrong # of entries in index notes_\\w+"));
    expect(r.code).toBe(1);
    expect(tsm(['doctor', '--vault', a]).stdout).toMatch(/error +integrity: the index fails SQLite's integrity check/);
    // tsm status showed the damaged index's counts as if true, with nothing said.
    const status = tsm(['status', '--vault', a]);
    expect(status).toMatchObject({ code: 1, stdout: '' });
    expect(status.stderr).toMatch(DAMAGED("SQLite's check of its notes table: wrong # of entries in index notes_\\w+"));

    // The prompt hook fails open: nothing injected, exit 0, the damage in its log.
    const hook = tsm(['hook'], {
      cwd: a,
      input: JSON.stringify({ session_id: 's', cwd: a, hook_event_name: 'UserPromptSubmit', prompt: 'what did I write about apple text' }),
    });
    expect(hook).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(join(a, '.tsm', 'hook.log'), 'utf8')).toMatch(/the index at \S+ is damaged \(SQLite's check of its notes table/);
  });

  it("whose notes pages disagree with the file's: MCP search says the damage, as tsm search does", async () => {
    const a = vaultOf('a', 'apple', 3);
    foreignWal(a, vaultOf('b', 'zebra', 30));
    const client = await servedClient(a, 'tsm-foreign-wal');
    try {
      // It answered {"total": 0} as if the vault held no apple.
      const r = await call(client, 'search', { query: 'apple' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/the index at \S+index\.db is damaged \(SQLite's check of its notes table: wrong # of entries in index notes_\w+\): run `tsm index --full( --vault \S+)?` to rebuild it/);
      // retrieve_memory, a search as markdown, the same.
      const memory = await call(client, 'retrieve_memory', { query: 'apple' });
      expect(memory.isError).toBe(true);
      expect(memory.text).toMatch(/the index at \S+index\.db is damaged \(SQLite's check of its notes table/);
    } finally {
      await client.close();
    }
  });

  it('whose notes pages disagree with the file\'s: tsm index --full, the fix named, moves the index aside and rebuilds it', () => {
    const a = vaultOf('a', 'apple', 3);
    foreignWal(a, vaultOf('b', 'zebra', 30));
    const full = tsm(['index', '--full', '--vault', a]);
    expect(full.code, full.stderr).toBe(0);
    // It emptied the index row by row, and doctor still said "wrong # of entries in index notes_date".
    expect(full.stderr).toMatch(/^tsm: the index was damaged; moved it to \S+index\.db\.corrupt-\d+ and rebuilt it\n/);
    expect(tsm(['doctor', '--vault', a]).stdout).not.toMatch(/integrity/);
    const found = tsm(['search', 'apple', '--vault', a, '-f', 'json']);
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout)).toHaveLength(3);
  });

  it('whose notes table lacks a row its index of paths names: tsm index moves the index aside and rebuilds it', () => {
    // Measured: these two vaults' pages give that damage (other sizes give others, or none this finds).
    const a = vaultOf('a', 'apple', 50, '\n## Sub\n\nlorem ipsum #\n');
    foreignWal(a, vaultOf('b', 'zebra', 150));
    const r = tsm(['index', '--vault', a]);
    // It was "tsm: TypeError: Cannot read properties of undefined (reading 'aliases')" and a stack trace.
    expect(r.stderr).not.toMatch(/TypeError/);
    expect(r.stderr).toMatch(/^tsm: the index was damaged; moved it to \S+index\.db\.corrupt-\d+ and rebuilt it$/m);
    expect(r.code, r.stderr).toBe(0);
    const found = tsm(['search', 'apple', '--vault', a, '-f', 'json', '--limit', '100']);
    expect(JSON.parse(found.stdout)).toHaveLength(50);
  });

  it("of another vault's index of as many pages: search names that vault", () => {
    const a = vaultOf('a', 'apple', 3);
    const b = vaultOf('b', 'zebra', 3);
    foreignWal(a, b);
    const r = tsm(['search', 'apple', '--vault', a]);
    expect(r.stderr).toMatch(DAMAGED(`its -wal file holds the writes of the index of ${b.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(r.code).toBe(1);
  });

  it('a -wal of its own: a search that finds nothing says so, as before', () => {
    const a = vaultOf('a', 'apple', 3);
    const held = new Database(join(a, '.tsm', 'index.db'), { readonly: true });
    try {
      held.prepare('SELECT count(*) FROM notes').get();
      writeFileSync(join(a, 'a1.md'), '# A1\n\napple edited\n');
      expect(tsm(['index', '--vault', a]).code).toBe(0);
      expect(statSync(join(a, '.tsm', 'index.db-wal')).size).toBeGreaterThan(0);
      const r = tsm(['search', 'nothinglikethis', '--vault', a]);
      expect(r).toMatchObject({ code: 0, stdout: '' });
      expect(r.stderr).toMatch(/^tsm: 0 results for "nothinglikethis"\n/);
    } finally {
      held.close();
    }
  });
});
