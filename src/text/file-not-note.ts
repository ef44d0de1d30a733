// Whether a link's target names a file that is not a note: one rule for how an embed is shown
// (markdown-line.ts) and for doctor's fix for a missing target (add that file, or create that note).

/** A file extension ending a name: a dot, a letter, then up to 7 letters or digits (`.png`, `.canvas`, `.mp4`). */
const FILE_EXTENSION = /\.[A-Za-z][A-Za-z0-9]{0,7}$/;

/**
 * Whether a link target (without its `#…`) ends in a file extension that is none of `extensions` (lower
 * case, with the dot): `chart.png`, `board.canvas`; `x.mdx` where `.mdx` is no note extension.
 */
export function namesFileNotNote(target: string, extensions: readonly string[]): boolean {
  const t = target.trim();
  if (!FILE_EXTENSION.test(t)) return false;
  const lower = t.toLowerCase();
  return !extensions.some((ext) => lower.length > ext.length && lower.endsWith(ext));
}
