// Knobs of the parser. The index layer builds these from the vault config; tests use the defaults.
import type { DayFormat } from './day-format.js';

export interface ParseOptions {
  /** Sections longer than this (UTF-16 code units) are split at paragraph boundaries. */
  chunkChars: number;
  /** Folder names (any depth, case-insensitive) whose notes are daily notes. */
  dailyFolders: string[];
  /** Obsidian's daily-note settings (src/vault/obsidian-daily.ts): notes they name are daily notes of that day. */
  dayFormats: DayFormat[];
  /** Folder names (any depth, case-insensitive) whose notes are session notes. */
  sessionFolders: string[];
  /** Files bigger than this are skipped without being read whole. */
  maxFileBytes: number;
  /** The vault's note extensions (config `extensions`): links are keyed without them (src/index/reading-settings.ts records them). */
  extensions: string[];
  /** A Dendron vault (src/vault/dendron.ts): `[[label|note.id]]`, the label first, the target second. */
  dendron: boolean;
}

export const DEFAULT_PARSE_OPTIONS: ParseOptions = {
  chunkChars: 2400,
  dailyFolders: ['daily', 'journal'],
  dayFormats: [],
  sessionFolders: ['sessions'],
  maxFileBytes: 5 * 1024 * 1024,
  extensions: ['.md'],
  dendron: false,
};
