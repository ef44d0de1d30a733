// A real vault on disk and a real index of it for in-process MCP tests: notes are written as markdown
// files and indexed by the real sync (test/helpers/fixture-vault.ts), as `tsm index` would.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NoteType } from '../../src/core/types.js';
import type { TsmConfig } from '../../src/vault/config.js';
import { frontmatterText, indexFixtureVault } from '../helpers/fixture-vault.js';

export interface NoteSpec {
  type: NoteType;
  date: string;
  frontmatter?: Record<string, unknown>;
  body: string;
  status?: string;
  /** Write the file as a symlink to this absolute path (its content is written there). */
  symlinkTo?: string;
}

export interface Fixture {
  vault: string;
  outside: string;
  cfg: TsmConfig;
  cleanup(): void;
}

/** `notes` may be a function of the folder outside the vault (for symlinks that leave it). */
export async function buildFixture(
  notesOf: Record<string, NoteSpec> | ((outside: string) => Record<string, NoteSpec>),
  settings: Record<string, unknown> = {},
): Promise<Fixture> {
  const vault = mkdtempSync(join(tmpdir(), 'tsm-mcp-vault-'));
  const outside = mkdtempSync(join(tmpdir(), 'tsm-mcp-outside-'));
  const notes = typeof notesOf === 'function' ? notesOf(outside) : notesOf;
  const files = Object.fromEntries(
    Object.entries(notes).map(([path, spec]) => {
      const fm = { type: spec.type, date: spec.date, status: spec.status, ...spec.frontmatter };
      return [path, { content: frontmatterText(fm) + spec.body, mtimeMs: Date.parse(`${spec.date}T12:00:00`), symlinkTo: spec.symlinkTo }];
    }),
  );
  const cfg = await indexFixtureVault(vault, files, settings);
  return {
    vault,
    outside,
    cfg,
    cleanup: () => {
      rmSync(vault, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    },
  };
}
