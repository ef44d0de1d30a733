// A small argv parser for the latency-critical commands (`search`, `hook`), built on node:util.parseArgs
// from the same option tables yargs uses. yargs costs tens of milliseconds to load; this costs none.
import { parseArgs } from 'node:util';
import type { OptionSpec } from './options.js';
import { UsageError } from './run.js';
import { unknownOptionMessage } from './suggest.js';

export function parseFastArgs(args: string[], specs: Record<string, OptionSpec>, positional: string): Record<string, unknown> {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, s] of Object.entries(specs)) {
    options[name] = { type: s.type === 'boolean' ? 'boolean' : 'string', ...(s.alias ? { short: s.alias } : {}), ...(s.array ? { multiple: true } : {}) };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true, allowNegative: true } as Parameters<typeof parseArgs>[0]);
  } catch (err) {
    throw new UsageError(parseErrorMessage(err as NodeJS.ErrnoException, specs, positional));
  }
  const out: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(specs)) {
    const v = (parsed.values as Record<string, unknown>)[name];
    if (v === undefined) {
      if (s.default !== undefined) out[name] = s.default;
      continue;
    }
    if (s.type === 'number') {
      const n = Number(v);
      if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${name} takes a number (got "${v}")`);
      out[name] = n;
    } else {
      if (s.choices && !s.choices.includes(String(v))) {
        throw new UsageError(`--${name} takes one of ${s.choices.join(', ')} (got "${v}")`);
      }
      out[name] = v;
    }
  }
  out[positional] = parsed.positionals;
  return out;
}

/**
 * node:util's messages, rewritten: its unknown-option message leaves a quote open and names no
 * alternative. Ours names the closest option and how to search for a word that starts with `-`.
 */
function parseErrorMessage(err: NodeJS.ErrnoException, specs: Record<string, OptionSpec>, positional: string): string {
  const quoted = /'([^']*)'/.exec(err.message)?.[1] ?? '';
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const known = Object.keys(specs).flatMap((n) => (specs[n].type === 'boolean' ? [n, `no-${n}`] : [n]));
    return `${unknownOptionMessage(quoted, known)}; a ${positional} word that starts with "-" goes after --, as in: -- ${quoted}`;
  }
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const long = /--([a-z-]+)/.exec(quoted)?.[1];
    if (/argument missing/.test(err.message)) return `--${long ?? quoted} needs a value`;
    if (/does not take an argument/.test(err.message)) return `--${long ?? quoted} takes no value`;
  }
  return err.message.replace(/^TypeError \[\w+\]: /, '');
}
