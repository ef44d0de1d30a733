// JSON with // and /* */ comments and trailing commas: what a hand-edited config file looks like.

export function parseJsonc(text: string): unknown {
  return JSON.parse(toPlainJson(text));
}

/** One pass: copies strings verbatim, drops comments, and drops commas that only precede `}` or `]`. */
function toPlainJson(text: string): string {
  let out = '';
  let pendingComma = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      const end = stringEnd(text, i);
      out += flush() + text.slice(i, end);
      i = end - 1;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else if (ch === ',') {
      out += flush();
      pendingComma = true;
    } else if (ch === '}' || ch === ']') {
      pendingComma = false;
      out += ch;
    } else if (/\s/.test(ch)) {
      out += ch;
    } else {
      out += flush() + ch;
    }
  }
  return out + flush();

  function flush(): string {
    const c = pendingComma ? ',' : '';
    pendingComma = false;
    return c;
  }
}

/** Index just past the closing quote of the string starting at `start` (or the end of the text). */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  return text.length;
}

/**
 * A value read from a settings file (config.json, Obsidian's) as the user gave it, for an error. JSON.parse reads a number past the doubles' range
 * (`1e400`) as Infinity, which JSON.stringify writes as null: `"chunkChars": 1e400` was "(got null)", a
 * value nobody wrote. (The text itself is gone once parsed: Node 20's JSON.parse gives a reviver no source.)
 */
export function shownJson(value: unknown): string {
  const big = (n: number) => `${n < 0 ? 'a negative number' : 'a number'} too large`;
  if (typeof value === 'number' && !Number.isFinite(value)) return big(value);
  // Within a list or an object: the same words, unquoted, where JSON.stringify would write null.
  const marks: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'number' || Number.isFinite(v)) return v;
    marks.push(big(v));
    return `\u0000${marks.length - 1}\u0000`;
  });
  return marks.length ? text.replace(/"\\u0000(\d+)\\u0000"/g, (_m, i: string) => `(${marks[Number(i)]})`) : text;
}
