// Which command takes which option, in a module light enough for search's fast path: data and string
// functions only (no yargs). yargs-cli.ts builds each command's options from COMMAND_OPTIONS, and both it and
// the fast path (fast-args.ts) name an option typed to the wrong command from the same table: `tsm search q
// --full` and `tsm index --verbose` each say whose option it is. This table lived in yargs-cli.ts, which the
// fast path may not load, so `tsm search q --embed` said only "unknown option --embed".
import { HOOK_OPTIONS, SEARCH_OPTIONS, VAULT_OPTIONS, type OptionSpec } from './options.js';
import { COMMANDS } from './hook-args.js';
import { unknownOptionMessage } from './suggest.js';

export const JSON_OPTION: Record<string, OptionSpec> = { json: { type: 'boolean', default: false, describe: 'print JSON' } };

/**
 * Each command's own options (beside VAULT_OPTIONS), declared once: yargs-cli.ts's builders add them, and a
 * mistyped option is matched against all of them (ALL_OPTIONS).
 */
export const COMMAND_OPTIONS = {
  index: {
    full: { type: 'boolean', default: false, describe: 're-read every file (a clean rebuild)' },
    'files-from-stdin': { type: 'boolean', default: false, describe: 'check only the paths read from stdin, one per line (or NUL-separated)' },
    json: { type: 'boolean', default: false, describe: 'print the summary as JSON' },
    embed: { type: 'boolean', default: false, describe: "then give sections vectors of the vault's model (resumable)" },
    threads: { type: 'number', range: { min: 1, max: 64 }, describe: 'with --embed: model threads (default 1)' },
  },
  related: {
    limit: { alias: 'n', type: 'number', range: { min: 1, unit: 'notes' }, describe: 'notes to show in each list, each with all its links (default: all)' },
    ...JSON_OPTION,
  },
  'ingest-session': JSON_OPTION,
  init: {
    claude: { type: 'boolean', default: false, describe: "also wire tsm into this project's Claude Code (your local settings)" },
    shared: { type: 'boolean', default: false, describe: 'with --claude: write the files a team commits (.claude/settings.json, .mcp.json) instead' },
  },
  watch: {
    debounce: { type: 'number', default: 150, range: { min: 0, max: 60_000, unit: 'milliseconds', fraction: true }, describe: 'milliseconds to gather events into one batch' },
    poll: { type: 'boolean', default: false, describe: 'poll for changes (network drives, container mounts)' },
  },
  model: {
    model: { type: 'string', describe: 'model id (default: $TSM_MODEL, else "model" in .tsm/config.json, else cl-nagoya/ruri-v3-30m)' },
    'model-dir': { type: 'string', path: true, describe: 'a model folder of your own (default: $TSM_MODEL_DIR, else "modelDir" in .tsm/config.json)' },
    revision: { type: 'string', describe: 'pull: branch, tag or commit (default: main)' },
    force: { type: 'boolean', default: false, describe: 'pull: download again; setup: install again' },
    'dry-run': { type: 'boolean', default: false, describe: 'setup: print the npm command instead of running it' },
    ...JSON_OPTION,
  },
} as const satisfies Record<string, Record<string, OptionSpec>>;

/** Each command's options but the shared VAULT_OPTIONS, in the order a message lists their commands. */
const OWN_OPTIONS: Record<string, Record<string, OptionSpec>> = { search: SEARCH_OPTIONS, hook: HOOK_OPTIONS, status: JSON_OPTION, doctor: JSON_OPTION, ...COMMAND_OPTIONS };

/**
 * Every option a command without operands takes (VAULT_OPTIONS and its own, as yargs-cli.ts's builders give
 * it them), or null for a command with operands: cli.ts runs a plain command line of these without yargs.
 * A function, not a table, so that the fast bundle, which never asks, carries none of it.
 */
export function plainCommandOptions(command: string): Record<string, OptionSpec> | null {
  switch (command) {
    case 'index':
      return { ...VAULT_OPTIONS, ...COMMAND_OPTIONS.index };
    case 'status':
    case 'doctor':
      return { ...VAULT_OPTIONS, ...JSON_OPTION };
    case 'init':
      return { ...VAULT_OPTIONS, ...COMMAND_OPTIONS.init };
    case 'watch':
      return { ...VAULT_OPTIONS, ...COMMAND_OPTIONS.watch };
    case 'serve':
      return VAULT_OPTIONS;
    default:
      return null;
  }
}

/** Every option some command declares: what an unknown one is matched against (with --help, --version). */
const ALL_OPTIONS = [...new Set(Object.values(OWN_OPTIONS).flatMap((o) => Object.keys(o)))];

/**
 * Whether some command takes the option `name` (without its dashes; an alias, `n`, `f`, counts): typed with no
 * command, it asks for one ("name a command"), where any other is a typo. main.ts had search's options alone
 * for this: `tsm --limit 3` asked for a command and `tsm --json` said "unknown option --json".
 */
export function someCommandTakes(name: string): boolean {
  return ['help', 'h', 'version'].includes(name) || Object.hasOwn(VAULT_OPTIONS, name) || Object.hasOwn(COMMANDS_OF_OPTION, name) || ALIASES.has(name);
}

/** Each option and the commands that take it, for an option typed to a command that does not. */
const COMMANDS_OF_OPTION: Record<string, string[]> = {};
for (const [command, specs] of Object.entries(OWN_OPTIONS)) {
  for (const name of Object.keys(specs)) if (!Object.hasOwn(VAULT_OPTIONS, name)) (COMMANDS_OF_OPTION[name] ??= []).push(command);
}

/**
 * The message for an option `command` does not take, for yargs and the fast path alike: the closest option
 * of any command (and whose it is), or which commands take the one typed. The command's negated flags are
 * offered too (`--no-verbos`: did you mean --no-verbose?), and an option typed as a value names its option
 * (`tsm search q --json`: did you mean -f json?).
 *
 * `fastPath`: --version is not offered, which yargs reads anywhere but search's fast path refuses
 * (`tsm search q --versoin` would have suggested an option that fails in turn).
 */
export function unknownOptionOf(typed: string, command: string | null, fastPath = false): string {
  const specs = command !== null && Object.hasOwn(OWN_OPTIONS, command) ? OWN_OPTIONS[command] : {};
  const negated = Object.keys(specs).flatMap((n) => (specs[n].type === 'boolean' ? [`no-${n}`] : []));
  const known = [...(fastPath ? ['help'] : ['help', 'version']), ...ALL_OPTIONS, ...negated];
  return unknownOptionMessage(typed, known, specs, COMMANDS_OF_OPTION, command);
}

/** The one-letter names of options (`-n`, `-f`), of any command. */
const ALIASES = new Set([VAULT_OPTIONS, ...Object.values(OWN_OPTIONS)].flatMap((specs) => Object.values(specs).flatMap((s) => (s.alias ? [s.alias] : []))));

/** `--vault`, `-n`: the options that take a value (the next word, unless written `--vault=x`), of any command. */
const VALUE_OPTIONS = new Set(
  [VAULT_OPTIONS, ...Object.values(OWN_OPTIONS)].flatMap((specs) =>
    Object.entries(specs).flatMap(([name, s]) => (s.type === 'boolean' ? [] : [`--${name}`, ...(s.alias ? [`-${s.alias}`] : [])])),
  ),
);

/**
 * The command a command line names, as yargs reads it: its first word that is a command name and no option's
 * value. `tsm --vault index search x` searches the vault `index`, and its usage errors are search's.
 * (hook-args.ts's commandOf, which a hook's command line goes by, does not skip values on purpose: `tsm --db
 * hook` must answer the hook.)
 */
export function commandNamed(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return null;
    if (VALUE_OPTIONS.has(a) && i + 1 < argv.length && !argv[i + 1].startsWith('-')) i++;
    else if ((COMMANDS as readonly string[]).includes(a)) return a;
  }
  return null;
}

/**
 * Where a usage error points: the help of the command the line names, which lists its options and their
 * values (`tsm search --bogus` pointed to `tsm --help`, which lists only the commands); `tsm --help` when it
 * names none (an unknown command, a bare option).
 */
export function helpFor(argv: readonly string[]): string {
  const command = commandNamed(argv);
  return command === null ? 'tsm --help' : `tsm ${command} --help`;
}
