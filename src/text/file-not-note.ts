// Whether a name ends in a note extension, and whether a link's target names a file that is not a note:
// one rule for how an embed is shown (markdown-line.ts), for doctor's fix for a missing target (add that
// file, or create that note) and for the vault's paths and links (vault/paths.ts, index/resolve-link.ts).

/** A file extension ending a name: a dot, a letter, then up to 7 letters or digits (`.png`, `.canvas`, `.mp4`). */
const FILE_EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;

/**
 * Whether a link target (without its `#…`) ends in a file extension that is none of `extensions` (lower
 * case, with the dot): `chart.png`, `board.canvas`; `x.mdx` where `.mdx` is no note extension.
 */
export function namesFileNotNote(target: string, extensions: readonly string[]): boolean {
  const t = target.trim();
  return FILE_EXTENSION.test(t) && noteExtensionOf(t, extensions) === null;
}

/** The note extension (of `extensions`, lower case with the dot) a name ends in, the longest that fits; else null. */
export function noteExtensionOf(name: string, extensions: readonly string[]): string | null {
  let found: string | null = null;
  for (const ext of extensions) {
    if (name.length > ext.length && name.slice(-ext.length).toLowerCase() === ext && ext.length > (found?.length ?? 0)) found = ext;
  }
  return found;
}
