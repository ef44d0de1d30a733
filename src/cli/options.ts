// Option tables shared by the full yargs CLI and the fast path (`search`, `hook`), so both accept the
// same flags with the same meaning.
import { UsageError } from './run.js';

/** What a number option takes: a whole number (a fraction too when `fraction`) from `min`, to `max` if set. */
export interface NumberRange {
  min: number;
  max?: number;
  /** what it counts, named in its error: "a whole number of results" */
  unit?: string;
  fraction?: boolean;
}

export interface OptionSpec {
  type: 'string' | 'number' | 'boolean';
  describe: string;
  alias?: string;
  default?: string | number | boolean;
  array?: boolean;
  choices?: readonly string[];
  /** type 'number': the values it takes (numberOption checks them) */
  range?: NumberRange;
  /** type 'string': names a file or folder, so an empty value is a usage error (stringOption) */
  path?: boolean;
  /**
   * The one output format (`-f`) that reads it: given with another, or with --ids, it does nothing, and
   * `tsm search` says so on stderr (ignoredOptions). Such an option has no default, so that given is told from not.
   */
  forFormat?: 'json' | 'xml' | 'md';
}

/** A decimal number as people type one (1e3 included); Number() would also take 0x10, Infinity and " ". */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * A number option's value, from what was typed, for the fast path and yargs alike: one that is not a number
 * of its range is a usage error naming what was typed and what it takes (yargs read `-n abc` as NaN, and
 * the error said "got NaN"). Given twice, the last counts, as node:util.parseArgs has it.
 */
export function numberOption(name: string, spec: OptionSpec, value: unknown): number {
  const typed = Array.isArray(value) ? value[value.length - 1] : value;
  if (typed === false) throw negatedValueOption(name);
  if (typeof typed === 'number') return typed; // a default of the table
  if (typeof typed !== 'string' || typed === '') throw new UsageError(`--${name} needs a value`);
  const range = spec.range ?? { min: -Infinity, fraction: true };
  const n = Number(typed.trim());
  const fits = DECIMAL.test(typed.trim()) && (range.fraction || Number.isInteger(n)) && n >= range.min && (range.max === undefined || n <= range.max);
  if (!fits) throw new UsageError(`--${name} takes ${expected(range)} (got "${typed}")`);
  return n;
}

/**
 * A string option's value: given twice, the last counts, as node:util.parseArgs (search's fast path) has it.
 * yargs makes a repeated option an array, which the commands, reading `typeof argv.vault === 'string'`, took
 * for no option at all: `tsm index --vault ~/a --vault ~/b` (an alias that names a vault, and one typed
 * after it) indexed the current folder, and `--db x --db y` wrote the vault's default index.
 *
 * An empty one that names a file or folder (`path`) is a usage error, for both parsers: `--vault ""` (a
 * script's `--vault "$NOTES"` with NOTES unset) and yargs' `--vault` with no value after it were the current
 * folder, so `tsm index --vault` in a vault's subfolder made a second vault there, and `tsm search x --vault ""`
 * in a code checkout indexed the checkout. (An empty TSM_VAULT is unset: config.ts envSetting.)
 */
export function stringOption(name: string, spec: OptionSpec, value: unknown): unknown {
  const typed = Array.isArray(value) ? value[value.length - 1] : value;
  if (typed === false) throw negatedValueOption(name);
  if (spec.path && typed === '') throw new UsageError(`--${name} needs a value`);
  return typed;
}

/**
 * `--no-vault`, `--no-model`: yargs negates any option, and a value option negated came to the command as
 * false, read as not given: `tsm status --no-vault` in a folder ran on that folder, where `--vault ""` is a
 * usage error, and `--no-limit` said "--limit needs a value". Search's fast path refuses it as an unknown
 * option; so does yargs now, with what the option takes instead.
 */
function negatedValueOption(name: string): UsageError {
  return new UsageError(`unknown option --no-${name}: --${name} takes a value; leave it out for its default`);
}

/**
 * An option whose value starts with `-` (`-n -- x`, `-n -f json`): node:util's message ("argument is
 * ambiguous", three lines, `--limit=-XYZ`) said nothing of what the option takes. A number option's error is
 * numberOption's, as for `-n abc`; another option's says how to give a value that starts with `-`. Both
 * parsers say it: search's fast path (fast-args.ts) and yargs, for a value option just before `--`.
 */
export function ambiguousValueMessage(typed: string, specs: Record<string, OptionSpec>, args: string[]): string {
  const name = typed.startsWith('--') ? typed.slice(2) : Object.keys(specs).find((n) => specs[n].alias === typed.slice(1));
  const at = args.findIndex((a, i) => a === typed && args[i + 1]?.startsWith('-'));
  const value = args[at + 1] ?? '';
  if (name === undefined || !(name in specs)) return `${typed} needs a value (got "${value}")`;
  if (specs[name].type === 'number') {
    try {
      numberOption(name, specs[name], value);
    } catch (e) {
      return (e as Error).message;
    }
  }
  return `--${name} needs a value (got "${value}"; one that starts with "-" is written --${name}=-value)`;
}

/**
 * What the options of one format (OptionSpec.forFormat) given with another do: nothing, one stderr line each
 * (`--budget applies to -f xml only; ignored`). `tsm search q --budget 100` printed every snippet whole, and
 * `--detail high -f json` no details, without a word.
 */
export function ignoredOptions(specs: Record<string, OptionSpec>, argv: Record<string, unknown>): string[] {
  return Object.entries(specs).flatMap(([name, spec]) => {
    const format = spec.forFormat;
    if (format === undefined || argv[name] === undefined || argv[name] === false) return [];
    if (argv.ids) return [`--${name} applies to -f ${format} only, not with --ids; ignored`];
    return argv.format === format ? [] : [`--${name} applies to -f ${format} only; ignored`];
  });
}

/** "a whole number of results, 1 or more", "a number of milliseconds from 0 to 60000" */
function expected(r: NumberRange): string {
  const bounds = r.max !== undefined ? ` from ${r.min} to ${r.max}` : r.min > -Infinity ? `, ${r.min} or more` : '';
  return `a ${r.fraction ? '' : 'whole '}number${r.unit ? ` of ${r.unit}` : ''}${bounds}`;
}

export const VAULT_OPTIONS: Record<string, OptionSpec> = {
  vault: { type: 'string', path: true, describe: 'vault folder (default: $TSM_VAULT, else the nearest folder holding .tsm/ or .obsidian/)' },
  db: { type: 'string', path: true, describe: 'index file (default: $TSM_DB or <vault>/.tsm/index.db)' },
};

export const SEARCH_OPTIONS: Record<string, OptionSpec> = {
  ...VAULT_OPTIONS,
  format: { type: 'string', alias: 'f', choices: ['text', 'json', 'xml', 'md'], default: 'text', describe: 'output format' },
  limit: { type: 'number', alias: 'n', default: 10, range: { min: 1, unit: 'results' }, describe: 'results to show' },
  'all-sections': { type: 'boolean', default: false, describe: 'more than one section per note' },
  type: { type: 'string', array: true, describe: 'daily | knowledge | session (repeatable)' },
  status: { type: 'string', array: true, describe: 'frontmatter status (repeatable)' },
  tag: { type: 'string', array: true, describe: 'tag (repeatable)' },
  path: { type: 'string', array: true, describe: 'vault path prefix (repeatable)' },
  after: { type: 'string', describe: 'on or after YYYY, YYYY-MM or YYYY-MM-DD' },
  before: { type: 'string', describe: 'before YYYY, YYYY-MM or YYYY-MM-DD' },
  recent: { type: 'string', describe: 'within the last 30d, 2w, 3m or 1y' },
  // Read by the date filters with --after and --before (src/search/filters.ts), which name a bad one.
  year: { type: 'string', describe: 'in this year' },
  budget: { type: 'number', range: { min: 0, unit: 'characters' }, forFormat: 'xml', describe: 'xml: characters all results may print: paths, headings, snippets (default $TSM_SNIPPET_BUDGET, else "snippetBudget" in .tsm/config.json, else 1500)' },
  full: { type: 'boolean', forFormat: 'json', describe: 'json: add each section\'s text as "content"' },
  'include-content': { type: 'number', range: { min: 0, unit: 'results' }, forFormat: 'json', describe: 'json: add the whole file of the top N results' },
  ids: { type: 'boolean', default: false, describe: 'print section ids only, one per line' },
  detail: { type: 'string', choices: ['auto', 'none', 'low', 'high'], forFormat: 'md', describe: 'md: which results carry details (default auto)' },
  verbose: { type: 'boolean', default: false, describe: 'say on stderr whether the neural ranker took part, and why not' },
};

// A hook looks for .tsm/ only (src/hooks/hook-vault.ts): Claude Code runs it in every project, and a folder
// that merely holds .obsidian/ has not asked for tsm.
export const HOOK_OPTIONS: Record<string, OptionSpec> = {
  ...VAULT_OPTIONS,
  vault: { type: 'string', describe: "vault folder (default: $TSM_VAULT, else the nearest folder holding .tsm/ at or above the payload's cwd; none: the hook does nothing)" },
};
