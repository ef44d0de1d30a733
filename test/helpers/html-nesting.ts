// What an HTML renderer (GitHub, Obsidian's preview, VS Code's) nests each `## Result` of an -f md answer in,
// read from the raw HTML CommonMark (remark-parse) passes through: no HTML parser is installed, so a tag
// balance over its `html` nodes in document order.
import remarkParse from 'remark-parse';
import { unified } from 'unified';

const commonmark = unified().use(remarkParse).freeze();
const VOID = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** The elements open where each `## Result` heading starts: `[]` for each when none swallows the ones after it. */
export function htmlOpenAtResults(md: string): string[][] {
  const open: string[] = [];
  const atResults: string[][] = [];
  const walk = (n: { type: string; value?: string; children?: unknown[] }): void => {
    if (n.type === 'heading' && (n.children?.[0] as { value?: string } | undefined)?.value?.startsWith('Result ')) atResults.push([...open]);
    if (n.type === 'html') {
      for (const m of n.value!.matchAll(/<(\/?)([A-Za-z][A-Za-z0-9-]*)[^<>]*?(\/?)>/g)) {
        const name = m[2].toLowerCase();
        if (m[1] === '/') {
          const at = open.lastIndexOf(name);
          if (at >= 0) open.length = at;
        } else if (m[3] !== '/' && !VOID.has(name)) open.push(name);
      }
    }
    for (const c of n.children ?? []) walk(c as never);
  };
  walk(commonmark.parse(md) as never);
  return atResults;
}
