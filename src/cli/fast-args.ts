// A small argv parser for the latency-critical commands (`search`, `hook`), built on node:util.parseArgs
// from the same option tables yargs uses. yargs costs tens of milliseconds to load; this costs none.
import { parseArgs } from 'node:util';
import { ambiguousValueMessage, numberOption, stringOption, type OptionSpec } from './options.js';
import { UsageError } from './run.js';
import { unknownOptionOf } from './command-options.js';

export function parseFastArgs(args: string[], specs: Record<string, OptionSpec>, command: string, positional: string): Record<string, unknown> {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, s] of Object.entries(specs)) {
    options[name] = { type: s.type === 'boolean' ? 'boolean' : 'string', ...(s.alias ? { short: s.alias } : {}), ...(s.array ? { multiple: true } : {}) };
  }
  const { args: marked, words } = markDashWords(args, specs);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: marked, options, allowPositionals: true, strict: true, allowNegative: true } as Parameters<typeof parseArgs>[0]);
  } catch (err) {
    throw new UsageError(parseErrorMessage(err as NodeJS.ErrnoException, specs, command, positional, args));
  }
  const out: Record<string, unknown> = {};
  // An option's value may be a marked word too (`--path -drafts/`, `-n -5`): the value is the word.
  const unmark = (v: unknown): unknown => (typeof v === 'string' ? (words.get(v) ?? v) : Array.isArray(v) ? v.map(unmark) : v);
  for (const [name, s] of Object.entries(specs)) {
    const v = unmark((parsed.values as Record<string, unknown>)[name]);
    if (v === undefined) {
      if (s.default !== undefined) out[name] = s.default;
      continue;
    }
    if (s.type === 'number') {
      out[name] = numberOption(name, s, v);
    } else if (s.type === 'string' && !s.array) {
      if (s.choices && !s.choices.includes(String(v))) {
        throw new UsageError(`--${name} takes one of ${s.choices.join(', ')} (got "${v}")`);
      }
      out[name] = stringOption(name, s, v);
    } else {
      out[name] = v;
    }
  }
  out[positional] = parsed.positionals.map((p) => words.get(p) ?? p);
  return out;
}

/**
 * `tsm search sync -dataview`: a word that starts with one `-` and is not a short option (`-f`, `-n`,
 * `-fjson`, `-n5`) is a query word — an exclusion in the query language (`-x`, `-dataview`), or text (`-5`,
 * a minus sign) — not an unknown option. Such words stand in for themselves behind a marker no argument can
 * hold; after `--`, everything is a word anyway. (`-h` before `--` never gets here: main.ts sends it to yargs.)
 */
function markDashWords(args: string[], specs: Record<string, OptionSpec>): { args: string[]; words: Map<string, string> } {
  const shorts = new Set(Object.values(specs).flatMap((s) => (s.alias ? [s.alias] : [])));
  const words = new Map<string, string>();
  const end = args.indexOf('--');
  const marked = args.map((a, i) => {
    if ((end !== -1 && i > end) || !/^-[^-]/.test(a) || shorts.has(a[1])) return a;
    const marker = `\u0000${words.size}`;
    words.set(marker, a);
    return marker;
  });
  return { args: marked, words };
}

/**
 * node:util's messages, rewritten: its unknown-option message leaves a quote open and names no
 * alternative. Ours is the one yargs' commands give (command-options.ts: the closest option of any command,
 * or the command an option belongs to), and says how to search for a word that starts with `-`.
 */
function parseErrorMessage(err: NodeJS.ErrnoException, specs: Record<string, OptionSpec>, command: string, positional: string, args: string[]): string {
  const quoted = /'([^']*)'/.exec(err.message)?.[1] ?? '';
  if (/argument is ambiguous/.test(err.message)) return ambiguousValueMessage(quoted, specs, args);
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    return `${unknownOptionOf(quoted, command, true)}; a ${positional} word that starts with "-" goes after --, as in: -- ${quoted}`;
  }
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const long = /--([a-z-]+)/.exec(quoted)?.[1];
    if (/argument missing/.test(err.message)) return `--${long ?? quoted} needs a value`;
    if (/does not take an argument/.test(err.message)) return `--${long ?? quoted} takes no value`;
  }
  return err.message.replace(/^TypeError \[\w+\]: /, '');
}
