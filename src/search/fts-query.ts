// FTS5 MATCH expressions built from query terms. User text is never FTS5 syntax: every term is a quoted
// string (quotes doubled), so `"`, `*`, `-`, `:`, `(`, NEAR and AND are matched as text.

export function quote(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

function orOf(terms: string[], prefixes: string[] = []): string {
  return [...terms.map(quote), ...prefixes.map((p) => `${quote(p)}*`)].join(' OR ');
}

/** OR of terms within the given columns, or null when there is nothing to match. */
export function columnMatch(columns: string[], terms: string[], prefixes: string[] = []): string | null {
  if (terms.length === 0 && prefixes.length === 0) return null;
  return `{${columns.join(' ')}} : (${orOf(terms, prefixes)})`;
}

/** OR of several expressions (null parts dropped). */
export function anyOf(parts: (string | null)[]): string | null {
  const kept = parts.filter((p): p is string => p !== null);
  if (kept.length === 0) return null;
  return kept.length === 1 ? kept[0] : kept.map((p) => `(${p})`).join(' OR ');
}
