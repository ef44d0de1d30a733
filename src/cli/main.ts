// The `tsm` entry point. `search` and `hook` run on the fast path (node:util.parseArgs, only the modules
// they need); every other command goes through cli.ts, which runs a plain command line of a command without
// operands by parseArgs too, and everything else (any --help) through the full yargs CLI.
//
// A hook must never exit 2 (Claude Code then erases the user's prompt), whatever its command line says:
// any argument list naming `hook` answers the hook with lenient arguments; an argument list naming no
// command (bare `tsm`, as Claude Code 2.0.x runs an exec-form hook) answers it when stdin holds a hook
// payload; and a usage error of any other command line is checked the same way before it exits 2.
// An interactive stdin (a terminal, /dev/null) is never read: `tsm` alone still prints its usage at once.
import { isUsageError } from '../core/errors.js';
import { commandOf, looksLikeHookPayload, parseHookArgs, readStdinWithin, stdinIsInteractive } from './hook-args.js';
import { parseFastArgs } from './fast-args.js';
import { SEARCH_OPTIONS } from './options.js';
import { fail, setHookMode, UsageError } from './run.js';
import { helpFor, someCommandTakes } from './command-options.js';
import { writeOut } from './stdio.js';
import { unknownOptionMessage } from './suggest.js';
import { VERSION } from '../core/version.js';

/**
 * How long a command line that names no hook waits for stdin to show whether it holds a payload. Claude
 * Code writes the payload and closes the pipe as it starts the hook, so a real payload is there at once;
 * only a non-hook command line with an open, silent stdin waits this long, and only to report an error.
 */
const STDIN_PROBE_MS = 1000;

let stdinProbe: { text: string | null; pending: boolean } | undefined;

async function main(argv: string[]): Promise<void> {
  const command = commandOf(argv);
  // After `--` every word is an operand: `tsm search -- -h` searches for `-h`, as the unknown-option message
  // and the README promise, instead of sending the command line to yargs' help.
  const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const wantsHelp = options.includes('--help') || options.includes('-h');
  if (command === 'hook' && !(wantsHelp && stdinIsInteractive())) return runHook(argv, null);
  if (command === null && !wantsHelp && !argv.includes('--version') && !stdinIsInteractive()) {
    stdinProbe = await readStdinWithin(STDIN_PROBE_MS);
    if (looksLikeHookPayload(stdinProbe.text)) return runHook(argv, stdinProbe);
  }
  if (argv.length === 1 && argv[0] === '--version') {
    writeOut(`${VERSION}\n`); // yargs costs ~80 ms to load for one line
    return;
  }
  // Without a command, yargs would only say "name a command": a mistyped --version deserves better. A
  // first word that is no option is a mistyped command, which yargs-cli.ts names instead.
  const unknown = command === null && argv[0]?.startsWith('-') ? argv.find((a) => a.startsWith('-') && !someCommandTakes(a.replace(/^-+/, '').replace(/=.*$/s, ''))) : undefined;
  if (unknown !== undefined) throw new UsageError(unknownOptionMessage(unknown, ['help', 'version']));
  if (argv[0] === 'search' && !wantsHelp) {
    const args = parseFastArgs(argv.slice(1), SEARCH_OPTIONS, 'search', 'query');
    if ((args.query as string[]).length === 0) throw new UsageError('search needs a query: tsm search <query…>');
    await (await import('./cmd-search.js')).run(args);
  } else {
    await (await import('./cli.js')).runCli(argv);
  }
}

async function runHook(argv: string[], probe: { text: string | null; pending: boolean } | null): Promise<void> {
  setHookMode();
  await (await import('./cmd-hook.js')).run({ ...parseHookArgs(argv), stdin: probe?.text ?? undefined, stdinPending: probe?.pending ?? false });
}

/** A usage error is the one failure that exits 2: before it does, make sure no hook payload is waiting. */
async function failSafely(err: unknown, argv: string[]): Promise<void> {
  if (isUsageError(err)) {
    const probe = stdinProbe ?? (await readStdinWithin(STDIN_PROBE_MS));
    if (looksLikeHookPayload(probe.text)) return runHook(argv, probe).catch((e) => fail(e, helpFor(argv)));
    fail(err, helpFor(argv));
    if (probe.pending) process.exit(); // the probe's read would otherwise keep the process waiting
    return;
  }
  fail(err, helpFor(argv));
}

const argv = process.argv.slice(2);
main(argv).catch((err) => failSafely(err, argv));
