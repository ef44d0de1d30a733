// One word for a shell, as tsm writes commands for people and for Claude Code's settings to run.

/**
 * One word for a POSIX shell, and for PowerShell too as long as it holds no single quote: left bare when
 * it is made only of characters no shell treats specially, otherwise single-quoted (nothing expands inside
 * single quotes in either shell; an embedded quote is written the POSIX way, `'\''`).
 */
export function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
