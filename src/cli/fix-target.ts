// The tsm commands a message tells the user to run ("run `tsm index`", "run `tsm watch` in the background")
// carry the vault and index this command was given. Run where the user is, such a command finds its vault
// from the current folder: after `tsm doctor --vault ~/notes` typed in a code checkout, doctor's "run `tsm
// watch`" watched the checkout (`tsm index` and `tsm watch` make the current folder a vault when none is
// named), and "run `tsm index`" indexed it. One rule, applied where the CLI writes: stderr (stdio.ts
// writeErr) and the fix lines of `tsm doctor` and `tsm status`.
import { vaultAboveCwd } from '../vault/config.js';
import { shellQuote } from '../text/shell-quote.js';

/**
 * The flags a named command needs to reach this command's vault and index ('' when it needs none). Kept on
 * the process, not in this module: the fast path (dist/tsm.cjs) and a command's lazy bundle each hold a copy
 * of this module, and the command notes its target in its copy while tsm.cjs writes its errors.
 */
const FLAGS = Symbol.for('tsm.fixTargetFlags');
const held = globalThis as { [FLAGS]?: string };

/**
 * Notes this command's target: `--vault` when it was given as a flag and names a vault other than the one the
 * current folder is in, `--db` when it was given as a flag. Set from the environment ($TSM_VAULT, $TSM_DB),
 * the named command reads the same environment, so it needs nothing.
 */
export function noteTarget(vault: string, db: string, given: { vault: boolean; db: boolean }, cwd = process.cwd()): void {
  const parts: string[] = [];
  if (given.vault && vaultAboveCwd(cwd) !== vault) parts.push(`--vault ${shellQuote(vault)}`);
  if (given.db) parts.push(`--db ${shellQuote(db)}`);
  held[FLAGS] = parts.join(' ');
}

/**
 * A command that takes --vault and --db, in backticks, where a message tells the user to run it ("run `tsm
 * index`", "start `tsm watch` again"). A command only named (`tsm watch` (pid 12) runs for this vault) is
 * left as written.
 */
const NAMED_COMMAND = /(?<=\b(?:run|start|restart) )`tsm (index|watch|search|status|doctor|related|init|ingest-session|serve)\b([^`]*)`/g;

/** `text` with each tsm command it tells the user to run given this command's target (see noteTarget). */
export function withTarget(text: string): string {
  const flags = held[FLAGS] ?? '';
  if (flags === '' || text.indexOf('`tsm ') === -1) return text;
  return text.replace(NAMED_COMMAND, (whole: string, command: string, rest: string) =>
    /(^|\s)--(vault|db)\b/.test(rest) ? whole : `\`tsm ${command}${rest} ${flags}\``,
  );
}
