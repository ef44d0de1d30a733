// What a reader (tsm search, status, doctor, the hooks, the MCP server) says about an index of another
// schema version, met right after an upgrade or a downgrade: the fix it names must be one that works.
// An older index under a running `tsm watch` of the vault (started by the older tsm) is not updated by
// `tsm index`, which leaves it as it is while the watcher writes (db.ts openWriter): the reader says to stop
// the watcher first, as `tsm index` itself does. And a writer that changes the index's schema says what it
// did: a migration in place (seconds of a sync that reads nothing new), or a rebuild, which drops the vectors.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IndexError } from '../../src/index/db.js';
import { withIndexReader } from '../../src/index/open-reader.js';
import { SCHEMA_VERSION } from '../../src/index/schema.js';
import { syncVault } from '../../src/index/sync.js';
import { promptContext } from '../../src/hooks/prompt-context.js';
import { Deadline } from '../../src/hooks/deadline.js';
import { loadConfig, tsmDir, type TsmConfig } from '../../src/vault/config.js';
import { watcherPidFile } from '../../src/vault/watcher-pid.js';
import { writeFiles } from '../helpers/cli.js';

let root: string;
let cfg: TsmConfig;
let watcher: ChildProcess;

function setVersion(version: number): void {
  const raw = new Database(cfg.db);
  raw.prepare("UPDATE meta SET value = ? WHERE key = 'schema_version'").run(String(version));
  raw.close();
}

function readerError(opts: { tsmDir?: string } = {}): IndexError {
  try {
    withIndexReader(cfg.db, () => undefined, opts);
  } catch (err) {
    expect(err).toBeInstanceOf(IndexError);
    return err as IndexError;
  }
  throw new Error('the reader opened the index');
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'tsm-upgrade-readers-'));
  writeFiles(root, { '.tsm/config.json': JSON.stringify({ semantic: false }), 'a.md': '# A\n\nC++ templates.\n' });
  cfg = loadConfig({ vaultFlag: root, env: {} });
  await syncVault(cfg);
  // A live process that is not this one, with a watcher's command line, stands for the older tsm's watcher.
  watcher = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', '/opt/tsm/bin/tsm', 'watch'], { stdio: 'ignore' });
});

afterAll(async () => {
  watcher.kill();
  await new Promise((resolve) => watcher.once('exit', resolve));
  rmSync(root, { recursive: true, force: true });
});

describe('a reader meeting an index of an older schema', () => {
  it('says `tsm index` updates it when no watcher writes to it', () => {
    setVersion(SCHEMA_VERSION - 1);
    rmSync(watcherPidFile(tsmDir(cfg)), { force: true });
    const e = readerError({ tsmDir: tsmDir(cfg) });
    expect(e.message).toBe(`the index at ${cfg.db} has schema version ${SCHEMA_VERSION - 1}, this tsm needs ${SCHEMA_VERSION}: run \`tsm index\` to update it`);
    expect(e.olderSchema).toBe(true);
  });

  it('names the running watcher to stop first, since `tsm index` leaves the index alone while it runs', async () => {
    setVersion(SCHEMA_VERSION - 1);
    writeFileSync(watcherPidFile(tsmDir(cfg)), `${watcher.pid}\n`);
    const said =
      `the index at ${cfg.db} has schema version ${SCHEMA_VERSION - 1}, this tsm needs ${SCHEMA_VERSION}, and \`tsm watch\` (pid ${watcher.pid}) writes to it: ` +
      'stop it, then run `tsm index` (or start `tsm watch` again), which updates the index';
    const e = readerError({ tsmDir: tsmDir(cfg) });
    expect(e.message).toBe(said);
    expect(e.olderSchema).toBe(true);
    // What `tsm index` says in the same state: the same words.
    await expect(syncVault(cfg)).rejects.toThrow(said);
    // The prompt hook's log line.
    const r = promptContext(cfg, 'C++ templates', { deadline: new Deadline(5000, process.uptime() * 1000) });
    expect(r).toEqual({ kind: 'none', problem: said, olderSchema: true });
    // Without the vault's folder (a reader given only --db) it cannot know of the watcher.
    expect(readerError().message).toMatch(/: run `tsm index` to update it$/);
  });
});

describe('a reader meeting an index too old to update in place', () => {
  it('says `tsm index` rebuilds it, in the message and in the fix doctor prints, with or without a watcher', () => {
    // The message said "run `tsm index` to rebuild it" and the fix beside it in `tsm doctor` "which updates it".
    setVersion(1);
    rmSync(watcherPidFile(tsmDir(cfg)), { force: true });
    const e = readerError({ tsmDir: tsmDir(cfg) });
    expect(e.message).toBe(`the index at ${cfg.db} has schema version 1, this tsm needs ${SCHEMA_VERSION}: run \`tsm index\` to rebuild it`);
    expect(e.fix).toBe('run `tsm index` (once no other tsm process is writing the index), which rebuilds it');
    writeFileSync(watcherPidFile(tsmDir(cfg)), `${watcher.pid}\n`);
    expect(readerError({ tsmDir: tsmDir(cfg) }).message).toMatch(/stop it, then run `tsm index` \(or start `tsm watch` again\), which rebuilds the index$/);
    rmSync(watcherPidFile(tsmDir(cfg)), { force: true });
    // One it updates in place says so in both.
    setVersion(SCHEMA_VERSION - 1);
    expect(readerError({ tsmDir: tsmDir(cfg) }).fix).toBe('run `tsm index` (once no other tsm process is writing the index), which updates it');
  });
});

describe('a reader meeting an index of a newer schema', () => {
  it('says to use the newer tsm (restarting a server that outlived the upgrade) before rebuilding it with this one', () => {
    setVersion(SCHEMA_VERSION + 1);
    const e = readerError({ tsmDir: tsmDir(cfg) });
    expect(e.message).toBe(
      `the index at ${cfg.db} was written by a newer tsm (schema version ${SCHEMA_VERSION + 1}; this tsm reads ${SCHEMA_VERSION}): ` +
        'use that tsm (restart a `tsm serve` or a Claude Code session started before it was installed), or run `tsm index` with this one to rebuild it',
    );
    expect(e.olderSchema).toBe(false);
    expect(e.fix).toBe('use the newer tsm that wrote it, or run `tsm index` with this one to rebuild it');
  });
});

describe('a writer meeting an index of a newer schema under a running watcher', () => {
  it('does not say that `tsm index` updates it: this tsm would rebuild the newer index', async () => {
    setVersion(SCHEMA_VERSION + 1);
    writeFileSync(watcherPidFile(tsmDir(cfg)), `${watcher.pid}\n`);
    await expect(syncVault(cfg)).rejects.toThrow(
      `the index at ${cfg.db} has schema version ${SCHEMA_VERSION + 1}, this tsm needs ${SCHEMA_VERSION}, and \`tsm watch\` (pid ${watcher.pid}) writes to it: ` +
        "it is a newer tsm's index: use that tsm, or stop the watcher, then run `tsm index` with this one to rebuild it",
    );
  });
});

describe('a writer that changes the schema', () => {
  /** What `fn` writes on stderr. */
  async function stderrOf(fn: () => Promise<unknown>): Promise<string> {
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      await fn();
    } finally {
      spy.mockRestore();
    }
    return written.join('');
  }

  it('says it updated the index in place, and says nothing once it is current', async () => {
    rmSync(watcherPidFile(tsmDir(cfg)), { force: true });
    setVersion(SCHEMA_VERSION - 1);
    expect(await stderrOf(() => syncVault(cfg))).toMatch(
      new RegExp(`^tsm: updated the index at ${cfg.db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} from schema version ${SCHEMA_VERSION - 1} to ${SCHEMA_VERSION} in place in \\d+\\.\\d\\d s\n$`),
    );
    expect(await stderrOf(() => syncVault(cfg))).toBe('');
  });

  it('says it rebuilds an index of a newer tsm, and that its vectors are dropped', async () => {
    rmSync(watcherPidFile(tsmDir(cfg)), { force: true });
    const raw = new Database(cfg.db);
    const section = raw.prepare('SELECT id FROM sections LIMIT 1').pluck().get();
    const model = raw.prepare("INSERT INTO embedding_models (fingerprint, dims) VALUES ('test', 1)").run().lastInsertRowid;
    raw.prepare("INSERT INTO section_vectors (id, model, vec) VALUES (?, ?, x'00000000')").run(section, model);
    raw.close();
    setVersion(SCHEMA_VERSION + 1);
    expect(await stderrOf(() => syncVault(cfg))).toBe(
      `tsm: the index at ${cfg.db} was written by a newer tsm (schema version ${SCHEMA_VERSION + 1}; this tsm writes ${SCHEMA_VERSION}): ` +
        'rebuilding it from the notes; its 1 stored vector is dropped (`tsm index --embed` makes them again)\n',
    );
  });
});
