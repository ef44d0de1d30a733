// tsm's own folders are made only inside a vault that exists (src/vault/folders.ts).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FolderGoneError, makeVaultFolder, TSM_GITIGNORE } from '../../src/vault/folders.js';
import { withFileLock } from '../../src/vault/file-lock.js';
import { ingestTranscript } from '../../src/sessions/ingest.js';
import { openWriter } from '../../src/index/db.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'tsm-folders-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('makeVaultFolder', () => {
  it('makes the folders between the vault and the one asked for, and leaves existing ones', () => {
    const vault = join(root, 'v');
    mkdirSync(vault);
    makeVaultFolder(vault, join(vault, '.tsm', 'sessions'));
    expect(existsSync(join(vault, '.tsm', 'sessions'))).toBe(true);
    makeVaultFolder(vault, join(vault, '.tsm', 'sessions'));
    makeVaultFolder(vault, vault);
  });

  it('never makes the vault itself: a vault deleted meanwhile stays deleted', () => {
    const vault = join(root, 'gone');
    expect(() => makeVaultFolder(vault, join(vault, '.tsm'))).toThrow(FolderGoneError);
    expect(() => makeVaultFolder(vault, vault)).toThrow(/does not exist \(deleted or moved\?\)/);
    expect(existsSync(vault)).toBe(false);
  });

  it('makes a folder outside the vault (a sessionsDir set elsewhere) only below a parent that exists', () => {
    const vault = join(root, 'v');
    mkdirSync(vault);
    makeVaultFolder(vault, join(root, 'elsewhere'));
    expect(existsSync(join(root, 'elsewhere'))).toBe(true);
    expect(() => makeVaultFolder(vault, join(root, 'missing', 'sessions'))).toThrow(FolderGoneError);
    expect(existsSync(join(root, 'missing'))).toBe(false);
  });

  it('reports a file in the way as it is, not as a vault gone', () => {
    const vault = join(root, 'v');
    mkdirSync(vault);
    writeFileSync(join(vault, '.tsm'), 'a file');
    // Named, with the fix: it was a bare `ENOTDIR: not a directory` from the write into it.
    expect(() => makeVaultFolder(vault, join(vault, '.tsm', 'sessions'))).toThrow(`${join(vault, '.tsm')} is not a folder, and tsm writes its files into a folder of that name: move it aside`);
  });

  it('a file where the last folder goes is in the way too (the sessions folder)', () => {
    const vault = join(root, 'v-sessions');
    mkdirSync(vault);
    writeFileSync(join(vault, 'sessions'), 'a file');
    expect(() => makeVaultFolder(vault, join(vault, 'sessions'))).toThrow(/sessions is not a folder.*move it aside/);
  });
});

describe('writers that outlive their vault', () => {
  it('a lock in a deleted vault fails and makes nothing', async () => {
    const vault = join(root, 'gone');
    await expect(withFileLock(join(vault, '.tsm', 'sync.lock'), { vault, timeoutMs: 100 }, () => 1)).rejects.toThrow(FolderGoneError);
    expect(existsSync(vault)).toBe(false);
  });

  it('an index in a deleted vault is not created (a sync that outlived it); one given elsewhere still is', () => {
    const vault = join(root, 'gone');
    expect(() => openWriter(join(vault, '.tsm', 'index.db'), { vault })).toThrow(FolderGoneError);
    expect(existsSync(vault)).toBe(false);
    const elsewhere = join(root, 'db', 'deep', 'index.db');
    openWriter(elsewhere, { vault }).db.close();
    expect(existsSync(elsewhere)).toBe(true);
  });

  it('an ingest whose vault was deleted writes no note and no state, and makes no folder', () => {
    const vault = join(root, 'gone');
    const transcript = join(root, 's.jsonl');
    const line = (o: object) => `${JSON.stringify(o)}\n`;
    writeFileSync(
      transcript,
      line({ type: 'user', sessionId: 'abc', timestamp: '2026-11-20T10:00:00Z', cwd: '/p', message: { role: 'user', content: 'how far does the LoRa collar reach?' } }) +
        line({ type: 'assistant', sessionId: 'abc', timestamp: '2026-11-20T10:00:05Z', message: { role: 'assistant', content: [{ type: 'text', text: 'About 2 km in the valley.' }] } }),
    );
    expect(() => ingestTranscript(transcript, { vault, sessionsDir: join(vault, 'sessions'), stateDir: join(vault, '.tsm', 'sessions') })).toThrow(FolderGoneError);
    expect(existsSync(vault)).toBe(false);
  });
});

describe('.tsm/.gitignore', () => {
  it('is written into a .tsm/ tsm makes, by whichever writer makes it, and never into one that exists', () => {
    const vault = join(root, 'v');
    mkdirSync(vault);
    makeVaultFolder(vault, join(vault, '.tsm', 'sessions'));
    expect(readFileSync(join(vault, '.tsm', '.gitignore'), 'utf8')).toBe(TSM_GITIGNORE);
    const other = join(root, 'w');
    mkdirSync(join(other, '.tsm'), { recursive: true });
    openWriter(join(other, '.tsm', 'index.db'), { vault: other }).db.close();
    expect(existsSync(join(other, '.tsm', '.gitignore'))).toBe(false);
    const third = join(root, 'x');
    mkdirSync(third);
    openWriter(join(third, '.tsm', 'index.db'), { vault: third }).db.close();
    expect(readFileSync(join(third, '.tsm', '.gitignore'), 'utf8')).toBe(TSM_GITIGNORE);
  });
});
