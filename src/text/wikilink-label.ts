// Which side of a labelled wikilink's first pipe names the note: Obsidian's `[[target|label]]`, or Dendron's
// `[[label|target]]` (src/vault/dendron.ts). One rule for the parser (parse/links.ts, the links it records)
// and for display (text/markdown-line.ts, how a snippet shows the link).

/** The target and the label of `[[before|after]]`, split at its first pipe. */
export function labelledWikilink(before: string, after: string, labelFirst: boolean): { target: string; label: string } {
  return labelFirst ? { target: after, label: before } : { target: before, label: after };
}
