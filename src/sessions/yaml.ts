// A tiny YAML writer for session-note frontmatter: every string is double-quoted and escaped, so the
// block stays valid YAML whatever a transcript put into a path, command or branch name.

export type FrontmatterValue = string | null | readonly string[];

/** A YAML double-quoted scalar. JSON escapes are valid YAML; a few characters YAML treats specially are escaped too. */
export function yamlString(value: string): string {
  return JSON.stringify(value).replace(
    // C1 controls, DEL, NEL, BOM, line/paragraph separators, lone surrogates: escaped, never raw.
    /[\u007f-\u009f\u2028\u2029\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Keys whose value is written bare because it is a fixed token of ours. */
const BARE_VALUE = /^[a-z][a-z0-9_-]*$/;

/** `---`-delimited frontmatter, keys in the given order. */
export function renderFrontmatter(entries: ReadonlyArray<readonly [string, FrontmatterValue]>, bare: ReadonlySet<string> = new Set()): string {
  const lines = ['---'];
  for (const [key, value] of entries) {
    if (value === null) lines.push(`${key}: null`);
    else if (typeof value === 'string') {
      lines.push(`${key}: ${bare.has(key) && BARE_VALUE.test(value) ? value : yamlString(value)}`);
    } else if (value.length === 0) lines.push(`${key}: []`);
    else {
      lines.push(`${key}:`);
      for (const item of value) lines.push(`  - ${yamlString(item)}`);
    }
  }
  lines.push('---');
  return lines.join('\n');
}
