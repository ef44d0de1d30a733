// Whether a vault is Dendron's: a `dendron.yml` in its folder (a self-contained vault) or in a folder above
// it (the workspace that lists it under `workspace.vaults`, as `fsPath: notes`). Dendron writes a labelled
// link label first, `[[Setup guide|project.setup]]`, the other way round from Obsidian's
// `[[project.setup|Setup guide]]`: what the parser reads as the target depends on it (parse/links.ts).
// A stat per folder up to the root, once per sync.
import { dirname, join, resolve } from 'node:path';
import { fileKind } from './file-kind.js';

export const DENDRON_FILE = 'dendron.yml';

export function isDendronVault(vault: string): boolean {
  let dir = resolve(vault);
  for (;;) {
    if (fileKind(join(dir, DENDRON_FILE)) === 'file') return true;
    const up = dirname(dir);
    if (up === dir) return false;
    dir = up;
  }
}
