// The parser's options for a vault: config.json's settings, and Obsidian's daily-note settings (and Periodic
// Notes' weekly, monthly, quarterly and yearly ones) read from the vault's .obsidian/ folder
// (src/vault/obsidian-daily.ts) with the warnings they give, and whether the vault is Dendron's
// (src/vault/dendron.ts: its links name their target second). Read once per sync
// (two stats when Obsidian's files are absent, and one a folder up to the root for dendron.yml), so that a sync reads every note, and records the settings,
// by one reading of them, and a long-running `tsm watch` takes Obsidian's settings as they are now.
import type { IndexWarning } from '../core/types.js';
import { dayFormatProblem, type DayFormat } from '../parse/day-format.js';
import type { ParseOptions } from '../parse/options.js';
import type { TsmConfig } from '../vault/config.js';
import { isDendronVault } from '../vault/dendron.js';
import { periodicEntryOf, readObsidianDaily } from '../vault/obsidian-daily.js';

export interface VaultReading {
  opts: ParseOptions;
  /** What was wrong with Obsidian's settings files, each under its file's path (kept by a sync of the whole vault). */
  warnings: IndexWarning[];
}

export function readParseOptions(cfg: TsmConfig): VaultReading {
  const obsidian = readObsidianDaily(cfg.vault);
  const warnings = [...obsidian.warnings];
  const dayFormats: DayFormat[] = [];
  for (const s of obsidian.settings) {
    const period = periodicEntryOf(s.key);
    const problem = dayFormatProblem(s.format, period === undefined);
    if (problem === null) dayFormats.push(period ? { folder: s.folder, format: s.format, period } : { folder: s.folder, format: s.format });
    else warnings.push({ path: s.file, message: `${s.key ? `${s.key} ` : ''}format ${JSON.stringify(s.format)}: ${problem}: tsm takes no day from these ${period ?? 'daily'}-note settings` });
  }
  return {
    opts: { chunkChars: cfg.chunkChars, dailyFolders: cfg.dailyFolders, dayFormats, sessionFolders: cfg.sessionFolders, maxFileBytes: cfg.maxFileBytes, extensions: cfg.extensions, dendron: isDendronVault(cfg.vault) },
    warnings,
  };
}
