// The `tsm` entry point. `search` and `hook` run on the fast path (node:util.parseArgs, only the modules
// they need); every other command, and any --help, goes through the full yargs CLI.
import { parseFastArgs } from './fast-args.js';
import { HOOK_OPTIONS, SEARCH_OPTIONS } from './options.js';
import { fail, UsageError } from './run.js';

async function main(argv: string[]): Promise<void> {
  const command = argv[0];
  const wantsHelp = argv.includes('--help') || argv.includes('-h');
  if (command === 'search' && !wantsHelp) {
    const args = parseFastArgs(argv.slice(1), SEARCH_OPTIONS, 'query');
    if ((args.query as string[]).length === 0) throw new UsageError('search needs a query: tsm search <query…>');
    await (await import('./cmd-search.js')).run(args);
  } else if (command === 'hook' && !wantsHelp) {
    const args = parseFastArgs(argv.slice(1), HOOK_OPTIONS, 'events');
    args.event = (args.events as string[])[0];
    await (await import('./cmd-hook.js')).run(args);
  } else {
    await (await import('./yargs-cli.js')).runYargs(argv);
  }
}

main(process.argv.slice(2)).catch(fail);
