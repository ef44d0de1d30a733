// The page name a note's file name stands for, as Logseq writes one. One rule for the title a note takes
// from its file name (parse/metadata.ts) and the name a link finds it by (index/resolve-link.ts).

/**
 * `/` as `___` (Logseq's :triple-lowbar format: `Project___Apollo` is `Project/Apollo`) or `%2F`, and the
 * characters a file name cannot hold as `%XX` (`What%3F` is `What?`). A `%` that starts no escape is text
 * (`100%`).
 */
export function pageName(stem: string): string {
  const slashed = stem.replaceAll('___', '/');
  if (!slashed.includes('%')) return slashed;
  try {
    return decodeURIComponent(slashed);
  } catch {
    return slashed;
  }
}
