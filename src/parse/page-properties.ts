// Logseq page properties: the `key:: value` lines that open a page file with no frontmatter (Logseq writes
// a page's properties there, unbulleted: `title:: Project/Apollo`, `alias:: Apollo, [[Moonshot]]`,
// `tags:: planning, q4`). Only the three that name the note, which frontmatter `title`, `aliases` and
// `tags` mean too, are read; the lines stay text, as Logseq shows them (and as Obsidian shows a Dataview
// field written `key:: value`), so nothing once searchable is lost.

const PROPERTY = /^([A-Za-z][\w-]*)::(?:[ \t]+(.*))?$/;
const LISTS: Record<string, string> = { alias: 'aliases', aliases: 'aliases', tags: 'tags' };

/** `title`, `aliases` and `tags` from the property lines that open `lines` at `from` (none: {}). */
export function pageProperties(lines: string[], from: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = from; i < lines.length; i++) {
    const m = PROPERTY.exec(lines[i].trimEnd());
    if (!m) break;
    const key = m[1].toLowerCase();
    const value = (m[2] ?? '').trim();
    if (key === 'title') out.title = value;
    else if (LISTS[key]) out[LISTS[key]] = value.split(',').map(pageName).filter(Boolean);
  }
  return out;
}

/** A value as the page it names: `[[Moonshot]]` and `#sync` are `Moonshot` and `sync`. */
function pageName(item: string): string {
  const t = item.trim().replace(/^#/, '');
  const m = /^\[\[(.*)\]\]$/.exec(t);
  return (m ? m[1] : t).trim();
}
