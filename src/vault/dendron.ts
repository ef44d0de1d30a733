// Whether a vault is Dendron's: a `dendron.yml` in its folder (a self-contained vault), or in a folder above
// it (the workspace) that lists it under `workspace.vaults` (`- fsPath: notes`). Dendron writes a labelled
// link label first, `[[Setup guide|project.setup]]`, the other way round from Obsidian's
// `[[project.setup|Setup guide]]`: what the parser reads as the target depends on it (parse/links.ts).
// A workspace must name the vault: a dendron.yml in a home folder would otherwise turn every Obsidian
// vault below it into a Dendron one. A stat per folder up to the root, once per sync.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileKind } from './file-kind.js';

export const DENDRON_FILE = 'dendron.yml';

export function isDendronVault(vault: string): boolean {
  const root = resolve(vault);
  if (fileKind(join(root, DENDRON_FILE)) === 'file') return true;
  for (let dir = dirname(root); ; dir = dirname(dir)) {
    const file = join(dir, DENDRON_FILE);
    if (fileKind(file) === 'file' && listsVault(file, relative(dir, root).split(sep).join('/'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/** Whether a workspace's dendron.yml has `fsPath: <rel>` (quoted or not, `./` or not) for the vault. */
function listsVault(file: string, rel: string): boolean {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return false;
  }
  for (const m of text.matchAll(/\bfsPath:[ \t]*(["']?)(.*?)\1[ \t]*(?:#.*)?$/gm)) {
    if (m[2].replace(/^\.\//, '').replace(/\/+$/, '') === rel) return true;
  }
  return false;
}
