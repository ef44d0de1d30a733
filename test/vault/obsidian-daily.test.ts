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
      JSON.stringify({ daily: { enabled, folder: 'Log', format: 'YYYY/MM/YYYY-MM-DD' } });
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
      { path: PERIODIC, message: 'must hold a JSON object: its daily-note settings are not read, nor its weekly, monthly, quarterly and yearly ones' },
    ]);
    vault?.cleanup();
    expect(read({ [CORE]: '{"folder": 3}' }).warnings).toEqual([
      { path: CORE, message: 'folder and format must be text (got {"folder":3,"format":""}): its daily-note settings are not read' },
    ]);
    vault?.cleanup();
    // A number past the doubles' range is said as such (JSON.stringify wrote it as null, a value nobody wrote).
    expect(read({ [CORE]: '{"folder": 1e400}' }).warnings).toEqual([
      { path: CORE, message: 'folder and format must be text (got {"folder":(a number too large),"format":""}): its daily-note settings are not read' },
    ]);
    vault?.cleanup();
    vault = makeVault({});
    mkdirSync(join(vault.dir, CORE), { recursive: true });
    expect(readObsidianDaily(vault.dir).warnings).toEqual([{ path: CORE, message: 'not a plain file (a folder, a pipe): its daily-note settings are not read' }]);
  });

  it("reads Periodic Notes' weekly, monthly, quarterly and yearly settings only when they are on, the plugin's formats for one left empty", () => {
    const data = {
      daily: { enabled: false, folder: 'Log', format: 'YYYY-MM-DD' },
      weekly: { enabled: true, folder: '/Reviews/Weekly/', format: '[Week] ww[, ]gggg', template: '' },
      monthly: { enabled: true, folder: 'Reviews', format: '' },
      quarterly: { enabled: false, folder: 'Reviews', format: 'YYYY [Q]Q' },
      yearly: { enabled: 'yes', folder: 'Years', format: 'YYYY' },
    };
    expect(read({ [PERIODIC]: JSON.stringify(data) })).toEqual({
      settings: [
        { folder: 'Reviews/Weekly', format: '[Week] ww[, ]gggg', file: PERIODIC, key: 'weekly' },
        { folder: 'Reviews', format: 'YYYY-MM', file: PERIODIC, key: 'monthly' },
      ],
      warnings: [],
    });
    vault?.cleanup();
    const defaults = { weekly: { enabled: true }, quarterly: { enabled: true }, yearly: { enabled: true, folder: 'Years' } };
    expect(read({ [PERIODIC]: JSON.stringify(defaults) }).settings.map((s) => [s.key, s.folder, s.format])).toEqual([
      ['weekly', '', 'gggg-[W]ww'],
      ['quarterly', '', 'YYYY-[Q]Q'],
      ['yearly', 'Years', 'YYYY'],
    ]);
  });

  it('a wrong entry is a warning naming it; the others are read', () => {
    const data = { weekly: { enabled: true, format: 3 }, monthly: { enabled: true, folder: ['a'] }, yearly: { enabled: true, format: 'YYYY' }, quarterly: 'on' };
    const r = read({ [PERIODIC]: JSON.stringify(data) });
    expect(r.settings).toEqual([{ folder: '', format: 'YYYY', file: PERIODIC, key: 'yearly' }]);
    expect(r.warnings).toEqual([
      { path: PERIODIC, message: 'weekly\'s folder and format must be text (got {"folder":"","format":3}): its weekly-note settings are not read' },
      { path: PERIODIC, message: 'monthly\'s folder and format must be text (got {"folder":["a"],"format":""}): its monthly-note settings are not read' },
    ]);
  });
  // Periodic Notes 1.0 (beta): the settings of the active calendar set, not the 0.x keys its migration left.
  it("reads Periodic Notes 1.0's active calendar set, the first when the active one is gone", () => {
    const data = {
      daily: { enabled: true, folder: 'Old', format: 'DD.MM.YYYY' },
      activeCalendarSet: 'work',
      calendarSets: [
        { id: 'default', day: { enabled: true, format: 'DD.MM.YYYY', folder: 'Other' } },
        {
          id: 'work',
          day: { enabled: true, format: 'YYYY-MM-DD', folder: 'Work/Daily', templatePath: 'T.md' },
          week: { enabled: true, format: 'GGGG-[W]WW', folder: 'Work/Weekly' },
          month: { enabled: false, format: 'YYYY-MM', folder: 'Work' },
          year: { enabled: true, format: '', folder: 'Work/Years' },
        },
      ],
    };
    expect(read({ [PERIODIC]: JSON.stringify(data) })).toEqual({
      settings: [
        { folder: 'Work/Daily', format: 'YYYY-MM-DD', file: PERIODIC, key: 'daily' },
        { folder: 'Work/Weekly', format: 'GGGG-[W]WW', file: PERIODIC, key: 'weekly' },
        { folder: 'Work/Years', format: 'YYYY', file: PERIODIC, key: 'yearly' },
      ],
      warnings: [],
    });
    vault?.cleanup();
    expect(read({ [PERIODIC]: JSON.stringify({ ...data, activeCalendarSet: 'gone' }) }).settings).toEqual([{ folder: 'Other', format: 'DD.MM.YYYY', file: PERIODIC, key: 'daily' }]);
  });

  // Periodic Notes' own default for a key it has not written (src/settings/index.ts, DEFAULT_SETTINGS):
  // data.json written by an early 1.0 beta (its manager always used "Default") has no activeCalendarSet.
  it('without activeCalendarSet, reads the set named Default, as the plugin does, not the first', () => {
    const data = {
      calendarSets: [
        { day: { enabled: true, format: 'DD.MM.YYYY', folder: 'NoId' } },
        { id: 'Work', day: { enabled: true, format: 'DD.MM.YYYY', folder: 'Work' } },
        { id: 'Default', day: { enabled: true, format: 'YYYY-MM-DD', folder: 'Journal' } },
      ],
    };
    expect(read({ [PERIODIC]: JSON.stringify(data) }).settings).toEqual([{ folder: 'Journal', format: 'YYYY-MM-DD', file: PERIODIC, key: 'daily' }]);
  });

  // The plugin's default calendarSets is [], which it reads as "not migrated yet": the top-level settings count.
  it('an empty calendarSets reads the top-level settings without a warning', () => {
    const r = read({ [PERIODIC]: JSON.stringify({ daily: { enabled: true, folder: 'Log' }, calendarSets: [] }) });
    expect(r).toEqual({ settings: [{ folder: 'Log', format: 'YYYY-MM-DD', file: PERIODIC, key: 'daily' }], warnings: [] });
  });

  it('a calendarSets that is no list of sets is a warning, and the top-level settings are read', () => {
    for (const calendarSets of [{}, ['work'], 'work']) {
      vault?.cleanup();
      const r = read({ [PERIODIC]: JSON.stringify({ daily: { enabled: true, folder: 'Log' }, calendarSets }) });
      expect(r.settings).toEqual([{ folder: 'Log', format: 'YYYY-MM-DD', file: PERIODIC, key: 'daily' }]);
      expect(r.warnings).toEqual([{ path: PERIODIC, message: 'calendarSets must be a list of calendar sets: its top-level daily, weekly, monthly, quarterly and yearly settings are read instead' }]);
    }
  });
  it("a calendar set's day is read only when enabled is true, as Periodic Notes 1.0 has it", () => {
    const data = (day: Record<string, unknown>) => JSON.stringify({ activeCalendarSet: 'Default', calendarSets: [{ id: 'Default', day: { folder: 'Log', format: 'DD-MM-YYYY', ...day } }] });
    expect(read({ [PERIODIC]: data({}) }).settings).toEqual([]);
    vault?.cleanup();
    expect(read({ [PERIODIC]: data({ enabled: false }) }).settings).toEqual([]);
    vault?.cleanup();
    expect(read({ [PERIODIC]: data({ enabled: true }) }).settings).toEqual([{ folder: 'Log', format: 'DD-MM-YYYY', file: PERIODIC, key: 'daily' }]);
  });
});
