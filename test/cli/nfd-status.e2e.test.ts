// Frontmatter values compared as keys, written in NFD (macOS file names, some editors) or NFC: `--status
// レビュー済み` typed in NFC found only the note that wrote it in NFC, and in NFD only the other. Both sides now
// take the key form (text/normalize.ts keyForm), the index at reading (PARSE_VERSION 21) and the filter's value.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';
import { connect } from '../mcp/setup.js';
import { ok } from '../mcp/client.js';
import { loadConfig } from '../../src/vault/config.js';
import { PARSE_VERSION } from '../../src/parse/version.js';

const NFC = 'レビュー済み';
const NFD = NFC.normalize('NFD');

const v = useIndexedVault({
  'composed.md': `---\nstatus: ${NFC}\n---\n# Composed\n\nwalrus composed\n`,
  'decomposed.md': `---\nstatus: ${NFD}\n---\n# Decomposed\n\nwalrus decomposed\n`,
  'other.md': '---\nstatus: draft\n---\n# Other\n\nwalrus other\n',
});

const found = (...args: string[]) => {
  const r = tsm(['search', ...args, '-f', 'json'], { cwd: v.dir });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { path: string; status: string }[]).map((h) => `${h.path} ${h.status === NFC ? 'NFC' : h.status}`).sort();
};

describe('a status written in NFD or NFC', () => {
  it('--status and status: in either form find both notes, whose status is stored in NFC', () => {
    const both = ['composed.md NFC', 'decomposed.md NFC'];
    expect(NFC).not.toBe(NFD);
    expect(found('walrus', '--status', NFC)).toEqual(both);
    expect(found('walrus', '--status', NFD)).toEqual(both);
    expect(found(`walrus status:${NFC}`)).toEqual(both);
    expect(found(`walrus status:${NFD}`)).toEqual(both);
    expect(found('walrus', '--status', 'DRAFT')).toEqual(['other.md draft']);
  });

  it('MCP search in either form finds both', async () => {
    const { client, close } = await connect(loadConfig({ vaultFlag: v.dir, env: {} }));
    try {
      for (const status of [NFC, NFD]) {
        const r = await ok(client, 'search', { query: 'walrus', status });
        expect(r.results.map((h: { path: string }) => h.path).sort()).toEqual(['composed.md', 'decomposed.md']);
      }
    } finally {
      await close();
    }
  });

  it('an index an older reading wrote (the status as written) is read again at the next sync', () => {
    const conn = new Database(join(v.dir, '.tsm', 'index.db'));
    conn.prepare("UPDATE notes SET status = ? WHERE path = 'decomposed.md'").run(NFD);
    conn.prepare(`UPDATE note_reading SET version = ${PARSE_VERSION - 1}`).run();
    conn.close();
    expect(found('walrus', '--status', NFC)).toEqual(['composed.md NFC']);
    expect(tsm(['index'], { cwd: v.dir }).code).toBe(0);
    expect(found('walrus', '--status', NFC)).toEqual(['composed.md NFC', 'decomposed.md NFC']);
  });
});
