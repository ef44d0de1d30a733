// The full `tsm` command line (yargs). Each command's module is imported only when that command runs,
// so no command pays for another's dependencies.
import { statSync } from 'node:fs';
import yargs, { type Argv, type Options } from 'yargs';
import { VERSION } from '../core/version.js';
import { isCjkCodePoint } from '../text/unicode.js';
import { ambiguousValueMessage, HOOK_OPTIONS, numberOption, SEARCH_OPTIONS, stringOption, VAULT_OPTIONS, type OptionSpec } from './options.js';
import { commandNamed, COMMAND_OPTIONS, JSON_OPTION, unknownOptionOf } from './command-options.js';
import { COMMAND_MODULES } from './command-modules.js';
import { runCommand, UsageError } from './run.js';
import { COMMANDS } from './hook-args.js';
import { unknownCommandMessage } from './suggest.js';

/**
 * A number option is a string to yargs' parser, so that numberOption sees what was typed: yargs' `number`
 * type made `-n abc` NaN before any check could name "abc". Marked a number as well, which the parser
 * ignores beside `string` and the help shows as [number]. A string option given twice is its last value
 * (stringOption), not the array yargs makes of it.
 */
function withOptions(y: Argv, specs: Record<string, OptionSpec>): Argv {
  for (const [name, s] of Object.entries(specs)) {
    const { range: _range, path: _path, forFormat: _forFormat, ...yargsSpec } = s;
    const spec =
      s.type === 'number'
        ? { ...yargsSpec, type: 'string', number: true, coerce: (v: unknown) => numberOption(name, s, v) }
        : s.type === 'string' && !s.array
          ? { ...yargsSpec, coerce: (v: unknown) => stringOption(name, s, v) }
          : yargsSpec;
    y = y.option(name, spec as Options);
  }
  return y;
}

const vaultOptions = (y: Argv) => withOptions(y, VAULT_OPTIONS);

/** [command, what it does] for each command's --help. */
const EXAMPLES = {
  index: [
    ['$0 index', 'index new and changed notes'],
    ['$0 index --embed', 'index, then embed what lacks a vector'],
    ['git diff --name-only | $0 index --files-from-stdin', 'check only these files'],
  ],
  search: [
    ['$0 search LoRa モジュール', 'keywords'],
    ['$0 search -f json --type knowledge --recent 3m "antenna gain"', 'JSON, filtered'],
  ],
  model: [
    ['$0 model setup', 'install the ONNX runtime (once per user)'],
    ['$0 model pull', 'download the configured model (cl-nagoya/ruri-v3-30m by default)'],
    ['$0 model pull intfloat/multilingual-e5-small', 'download the English-heavy alternative'],
  ],
} as const satisfies Record<string, readonly (readonly [string, string])[]>;

/**
 * A command's examples, each a `# what it does` line above the command on a line of its own. yargs lays
 * an example and its description out in two columns, the command's at most half the width, and wrapped
 * the command inside it: copying the first line of `git diff --name-only | tsm index` dropped
 * `--files-from-stdin`. One column wraps only past the help's width, which helpWrap keeps wide enough.
 */
function withExamples(y: Argv, examples: readonly (readonly [string, string])[]): Argv {
  for (const [command, what] of examples) y = y.example(`# ${what}`, '').example(command, '');
  return y;
}

/** Columns a line takes in a terminal: CJK characters take two. */
function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += isCjkCodePoint(ch.codePointAt(0)!) ? 2 : 1;
  return width;
}

/**
 * The width yargs wraps the help at: the terminal's, at most 100, and never narrower than the longest
 * example line (with yargs' indent of 2 on each side), so that no example is cut in two: on a narrower
 * terminal the line runs on and the terminal folds it, which copying undoes.
 */
export function helpWrap(columns: number | undefined): number {
  const longest = Math.max(...Object.values(EXAMPLES).flatMap((rows) => rows.flatMap(([command, what]) => [displayWidth(command.replace(/\$0/g, 'tsm')), displayWidth(`# ${what}`)])));
  return Math.max(longest + 4, Math.min(100, columns || 100));
}

export async function runYargs(argv: string[]): Promise<void> {
  const cli = yargs(pathsAfterDoubleDash(argv))
    .scriptName('tsm')
    .version(VERSION)
    .usage('$0 <command> [options]\n\nLocal search for a folder of markdown notes.')
    .command(
      'index',
      'bring the index in step with the vault',
      (y) =>
withOptions(withExamples(vaultOptions(y), EXAMPLES.index), COMMAND_OPTIONS.index),
      (a) => runCommand(COMMAND_MODULES.index, a),
    )
    .command(
      'search <query..>',
      'search the vault (builds the index first when none exists)',
      (y) =>
        withExamples(withOptions(y, SEARCH_OPTIONS), EXAMPLES.search).positional('query', {
          type: 'string',
          array: true,
          describe: 'free text: keywords or a whole prompt',
        }),
      (a) => runCommand(COMMAND_MODULES.search, a),
    )
    .command(
      'status',
      'counts, index size, last sync and warnings',
      (y) => withOptions(vaultOptions(y), JSON_OPTION),
      (a) => runCommand(COMMAND_MODULES.status, a),
    )
    .command(
      'doctor',
      'check the index and its wiring; every problem comes with its fix',
      (y) => withOptions(vaultOptions(y), JSON_OPTION),
      (a) => runCommand(COMMAND_MODULES.doctor, a),
    )
    .command(
      'related <note>',
      'outgoing links and backlinks of a note',
      (y) =>
        withOptions(vaultOptions(y), COMMAND_OPTIONS.related).positional('note', {
          type: 'string',
          describe: 'vault path, path without its note extension, or note name',
        }),
      (a) => runCommand(COMMAND_MODULES.related, a),
    )
    .command(
      'init',
      'create .tsm/ with a commented config.json',
      (y) =>
withOptions(vaultOptions(y), COMMAND_OPTIONS.init),
      (a) => runCommand(COMMAND_MODULES.init, a),
    )
    .command(
      'watch',
      'index, then keep the index in step with every change',
      (y) =>
withOptions(vaultOptions(y), COMMAND_OPTIONS.watch),
      (a) => runCommand(COMMAND_MODULES.watch, a),
    )
    .command(
      'hook [event]',
      'Claude Code hook handler (reads one JSON object on stdin)',
      (y) => withOptions(y, HOOK_OPTIONS).positional('event', { type: 'string', describe: 'event name when the payload has none' }).strict(false),
      (a) => runCommand(COMMAND_MODULES.hook, a),
    )
    .command(
      'ingest-session <transcripts..>',
      'turn Claude Code transcripts (.jsonl files or folders) into session notes',
      (y) => withOptions(vaultOptions(y), COMMAND_OPTIONS['ingest-session']),
      (a) => runCommand(COMMAND_MODULES['ingest-session'], a),
    )
    .command(
      'model <action> [name]',
      'the neural embedding model and its runtime: list, path, pull, setup (docs/embeddings.md)',
      (y) =>
        withExamples(withOptions(vaultOptions(y), COMMAND_OPTIONS.model), EXAMPLES.model)
          .positional('action', { type: 'string', choices: ['list', 'path', 'pull', 'setup'], describe: 'list the models; print the model folder; download a model; install the ONNX runtime' })
          .positional('name', { type: 'string', describe: 'pull: a Hugging Face model id (default: the configured model)' }),
      (a) => runCommand(COMMAND_MODULES.model, a),
    )
    .command(
      'serve',
      'MCP server on stdio',
      (y) => vaultOptions(y),
      (a) => runCommand(COMMAND_MODULES.serve, a),
    )
    .demandCommand(1, 'name a command: tsm --help lists them')
    .strict()
    .help()
    .alias('h', 'help')
    .wrap(helpWrap(process.stdout.columns))
    // Throw, never report here: parseAsync then rejects once and the catch below reports once (reporting in
    // both printed every error twice), and a usage error stops the command instead of letting it run.
    // yargs wraps an error of a coerce (numberOption's UsageError) in its YError: a usage error still.
    .fail((msg, err) => {
      if (err?.name === 'YError') throw new UsageError(err.message);
      throw err ?? new UsageError(unknownArgumentsMessage(msg, argv) ?? missingPositionalMessage(msg, argv) ?? msg);
    });

  // Errors go to main.ts, which reports them once (and checks stdin for a hook payload before exit 2).
  await cli.parseAsync();
}

/** yargs says "Unknown argument: versoin"; tsm says which option was probably meant. */
function unknownArgumentsMessage(msg: string, argv: string[]): string | null {
  const m = /^Unknown arguments?: (.+)$/s.exec(msg);
  if (!m) return null;
  const unknown = m[1].split(', ');
  // yargs names a negated flag without its `no-` (`--no-embed`: "embed"), as it reads it.
  const typedAsOption = (a: string) => argv.find((t) => [`--${a}`, `--no-${a}`].some((o) => t === o || t.startsWith(`${o}=`)) || t === `-${a}`);
  // No command named: the first word that is no option is the mistyped command, and the options are
  // unknown only because no command took them (`--vault` is every command's).
  const word = commandNamed(argv) === null ? unknown.find((a) => !typedAsOption(a)) : undefined;
  if (word !== undefined) return unknownCommandMessage(word, COMMANDS);
  return unknown
    .map((a) => {
      const typed = typedAsOption(a);
      // A word after `--` is named as typed, not as pathsAfterDoubleDash passed it.
      const word = a.startsWith('./-') && argv.includes(a.slice(2)) ? a.slice(2) : a;
      return typed ? unknownOptionOf(typed, commandNamed(argv)) : `unexpected argument "${word}"${isFolder(word) ? ` (a folder: name a vault with --vault ${word})` : ''}`;
    })
    .join('; ');
}

/** `tsm index ~/notes`: a command that takes no positional was given a folder, as rg and zk take one. */
function isFolder(word: string): boolean {
  try {
    return statSync(word).isDirectory();
  } catch {
    return false;
  }
}

/** What each command whose positional names a note or a file needs, when none was given. */
const POSITIONAL_NEEDS: Record<string, string> = {
  related: 'a note: its vault path, file name, title or alias',
  'ingest-session': 'a transcript: a .jsonl file or a folder of them',
};

/**
 * After `--`, every word is a note or a path, never options; but yargs 18 gives no positional a word after
 * `--` (`tsm related -- a.md`: "Not enough non-option arguments") and reads a positional's value again as
 * options (`-dash.md` as the flags -d -a -s -h). So `--` is dropped and a word after it starting with "-" is
 * passed as `./-dash.md`: the same path (related reads a typed note from the vault root, ingest-session a path
 * from the current folder, both through path.resolve) and the same name (`./-dash` is `-dash`).
 * An option that takes a value just before `--` (`tsm related -n -- a.md`) is the usage error search gives
 * for it: dropping `--` made the note -n's value, and yargs said "tsm related needs a note".
 */
function pathsAfterDoubleDash(argv: string[]): string[] {
  const at = argv.indexOf('--');
  const command = commandNamed(argv);
  if (at === -1 || command === null || !(command in POSITIONAL_NEEDS)) return argv;
  const specs: Record<string, OptionSpec> = { ...VAULT_OPTIONS, ...COMMAND_OPTIONS[command as 'related' | 'ingest-session'] };
  const before = argv[at - 1] ?? '';
  const name = before.startsWith('--') ? before.slice(2) : Object.keys(specs).find((n) => `-${specs[n].alias}` === before);
  if (name !== undefined && specs[name] !== undefined && specs[name].type !== 'boolean') throw new UsageError(ambiguousValueMessage(before, specs, argv));
  return [...argv.slice(0, at), ...argv.slice(at + 1).map((a) => (a.startsWith('-') ? `./${a}` : a))];
}

/** What `tsm model` needs when no action was given. */
const MODEL_NEEDS = 'an action: list, path, pull or setup';

/**
 * yargs says "Not enough non-option arguments: got 0, need at least 1"; tsm says what the command needs, and
 * that a name starting with "-" (`-dash.md`, which yargs took for options) goes after `--`.
 */
function missingPositionalMessage(msg: string, argv: string[]): string | null {
  const command = commandNamed(argv);
  if (!/^Not enough non-option arguments/.test(msg) || command === null) return null;
  if (command === 'model') return `tsm model needs ${MODEL_NEEDS}`;
  if (!(command in POSITIONAL_NEEDS)) return null;
  const end = argv.indexOf('--');
  const dashed = argv.slice(0, end === -1 ? undefined : end).find((a) => /^-[^-]./.test(a));
  const hint = dashed === undefined ? '' : ` (a name starting with "-" goes after --: tsm ${command} -- ${dashed})`;
  return `tsm ${command} needs ${POSITIONAL_NEEDS[command]}${hint}`;
}

