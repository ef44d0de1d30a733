// Obsidian's daily-note settings files, read as Obsidian writes them, and as they go wrong.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readObsidianDaily } from '../../src/vault/obsidian-daily.js';
import { makeVault } from '../helpers/cli.js';

const CORE = '.obsidian/daily-notes.json';
const PERIODIC = '.obsidian/plugins/periodic-notes/data.json';
let vault: { dir: string; cleanup: () => void } | null = null;
const read = (files: Record<string, string>) => {
  vault = makeVault(files);
  return readObsidianDaily(vault.dir);
};
afterEach(() => vault?.cleanup());

describe('readObsidianDaily', () => {
  it('reads nothing from a vault without the files', () => {
    expect(read({ 'a.md': 'x' })).toEqual({ settings: [], warnings: [] });
  });

  it("reads the core plugin's folder and format, Obsidian's defaults for a key left out", () => {
    expect(read({ [CORE]: '{"folder": "/Journal/Daily/", "format": "DD-MM-YYYY", "template": "t"}' }).settings).toEqual([
      { folder: 'Journal/Daily', format: 'DD-MM-YYYY', file: CORE, key: '' },
    ]);
    vault?.cleanup();
    expect(read({ [CORE]: '{"template": "Templates/Daily"}' }).settings).toEqual([{ folder: '', format: 'YYYY-MM-DD', file: CORE, key: '' }]);
  });

  it("reads Periodic Notes' daily settings when they are on, once when both plugins say the same", () => {
    const periodic = (enabled: boolean) =>
      JSON.stringify({ daily: { enabled, folder: 'Log', format: 'YYYY/MM/YYYY-MM-DD' }, weekly: { enabled: true, format: 'gggg-[W]ww' } });
    expect(read({ [PERIODIC]: periodic(true), [CORE]: '{"folder": "Log", "format": "YYYY/MM/YYYY-MM-DD"}' }).settings).toEqual([
      { folder: 'Log', format: 'YYYY/MM/YYYY-MM-DD', file: CORE, key: '' },
    ]);
    vault?.cleanup();
    expect(read({ [PERIODIC]: periodic(true) }).settings).toEqual([{ folder: 'Log', format: 'YYYY/MM/YYYY-MM-DD', file: PERIODIC, key: 'daily' }]);
    vault?.cleanup();
    expect(read({ [PERIODIC]: periodic(false) }).settings).toEqual([]);
  });

  it('a file that cannot be read is a warning naming it, never an error', () => {
    const bad = read({ [CORE]: '{"folder": "Journal",', [PERIODIC]: '[1]' });
    expect(bad.settings).toEqual([]);
    expect(bad.warnings).toEqual([
      { path: CORE, message: expect.stringMatching(/^not valid JSON \(.+\): its daily-note settings are not read$/) },
      { path: PERIODIC, message: 'must hold a JSON object: its daily-note settings are not read' },
    ]);
    vault?.cleanup();
    expect(read({ [CORE]: '{"folder": 3}' }).warnings).toEqual([
      { path: CORE, message: 'folder and format must be text (got {"folder":3,"format":""}): its daily-note settings are not read' },
    ]);
    vault?.cleanup();
    vault = makeVault({});
    mkdirSync(join(vault.dir, CORE), { recursive: true });
    expect(readObsidianDaily(vault.dir).warnings).toEqual([{ path: CORE, message: 'not a plain file (a folder, a pipe): its daily-note settings are not read' }]);
  });
});
