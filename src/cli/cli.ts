// Every command but search and hook, which main.ts runs on the fast path. A plain command line of a command
// that takes no operand (`tsm index`, `tsm status --json`, `tsm watch --vault ~/notes --debounce 300`) runs
// without yargs, parsed by node:util.parseArgs from the same option tables (fast-args.ts): loading yargs cost
// ~60 ms of CPU on the project's slower machine, a quarter of a `tsm status` and of each `tsm index` a script
// or the test suite runs. Anything else (--help, --version, an operand, an option or value parseArgs refuses,
// a number or path option's check failing) goes to yargs, whose help and messages stay the CLI's
// (yargs-cli.ts): this path only ever runs a command line yargs would have run the same way.
import { COMMAND_MODULES } from './command-modules.js';
import { plainCommandOptions } from './command-options.js';
import { parseFastArgs } from './fast-args.js';
import { runCommand } from './run.js';

export async function runCli(argv: string[]): Promise<void> {
  const plain = plainCommandLine(argv);
  if (plain) return runCommand(COMMAND_MODULES[plain.command], plain.args);
  await (await import('./yargs-cli.js')).runYargs(argv);
}

/** The command and its options, when `argv` is a plain command line of a command without operands; else null. */
export function plainCommandLine(argv: readonly string[]): { command: keyof typeof COMMAND_MODULES; args: Record<string, unknown> } | null {
  const [command, ...rest] = argv;
  const specs = command === undefined ? null : plainCommandOptions(command);
  if (specs === null) return null;
  if (rest.some((a) => a === '--' || a === '--help' || a === '-h' || a === '--version')) return null;
  try {
    const args = parseFastArgs(rest, specs, command, '_');
    if ((args._ as string[]).length > 0) return null;
    delete args._;
    return { command: command as keyof typeof COMMAND_MODULES, args };
  } catch {
    return null; // yargs says what is wrong, as it always has
  }
}
