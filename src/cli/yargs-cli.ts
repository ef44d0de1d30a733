// The `tsm` command line. Each command's module is imported only when that command runs, so
// `tsm search` and `tsm hook` never load remark, chokidar or the MCP SDK.
import yargs, { type Argv } from 'yargs';
import { VERSION } from './version.js';
import { fail, runCommand, UsageError } from './run.js';

const vaultOptions = (y: Argv) =>
  y
    .option('vault', { type: 'string', describe: 'vault folder (default: $TSM_VAULT, nearest folder with .tsm/, or .)' })
    .option('db', { type: 'string', describe: 'index file (default: $TSM_DB or <vault>/.tsm/index.db)' });

const argv = process.argv.slice(2);
const isHook = argv[0] === 'hook';

const cli = yargs(argv)
  .scriptName('tsm')
  .version(VERSION)
  .usage('$0 <command> [options]\n\nLocal search for a folder of markdown notes.')
  .command(
    'index',
    'bring the index in step with the vault',
    (y) =>
      vaultOptions(y)
        .option('full', { type: 'boolean', default: false, describe: 're-read every file (a clean rebuild)' })
        .option('files-from-stdin', { type: 'boolean', default: false, describe: 'check only the paths read from stdin, one per line' })
        .option('json', { type: 'boolean', default: false, describe: 'print the summary as JSON' })
        .example('$0 index', 'index new and changed notes')
        .example('git diff --name-only | $0 index --files-from-stdin', 'check only these files'),
    (a) => runCommand(() => import('./cmd-index.js'), a),
  )
  .command(
    'search <query..>',
    'search the vault (builds the index first when none exists)',
    (y) => (buildSearchOptions(vaultOptions(y)) as Argv),
    (a) => runCommand(() => import('./cmd-search.js'), a),
  )
  .command(
    'status',
    'counts, index size, last sync and warnings',
    (y) => vaultOptions(y).option('json', { type: 'boolean', default: false }),
    (a) => runCommand(() => import('./cmd-status.js'), a),
  )
  .command(
    'doctor',
    'check the index and its wiring; every problem comes with its fix',
    (y) => vaultOptions(y).option('json', { type: 'boolean', default: false }),
    (a) => runCommand(() => import('./cmd-doctor.js'), a),
  )
  .command(
    'related <note>',
    'outgoing links and backlinks of a note',
    (y) =>
      vaultOptions(y)
        .positional('note', { type: 'string', describe: 'vault path, path without .md, or note name' })
        .option('json', { type: 'boolean', default: false }),
    (a) => runCommand(() => import('./cmd-related.js'), a),
  )
  .command(
    'init',
    'create .tsm/ with a commented config.json',
    (y) => vaultOptions(y).option('claude', { type: 'boolean', default: false, describe: "also wire tsm into this project's Claude Code settings" }),
    (a) => runCommand(() => import('./cmd-init.js'), a),
  )
  .command(
    'watch',
    'index, then keep the index in step with every change',
    (y) => vaultOptions(y).option('debounce', { type: 'number', default: 150, describe: 'milliseconds to gather events into one batch' }),
    (a) => runCommand(() => import('./cmd-watch.js'), a),
  )
  .command(
    'hook [event]',
    'Claude Code hook handler (reads one JSON object on stdin)',
    (y) => vaultOptions(y).positional('event', { type: 'string', describe: 'event name when the payload has none' }).strict(false),
    (a) => runCommand(() => import('./cmd-hook.js'), a),
  )
  .command(
    'ingest-session <transcripts..>',
    'turn Claude Code transcripts (.jsonl files or folders) into session notes',
    (y) => vaultOptions(y).option('json', { type: 'boolean', default: false }),
    (a) => runCommand(() => import('./cmd-ingest-session.js'), a),
  )
  .command(
    'serve',
    'MCP server on stdio',
    (y) => vaultOptions(y),
    (a) => runCommand(() => import('./cmd-serve.js'), a),
  )
  .demandCommand(1, 'name a command: tsm --help lists them')
  .strict(!isHook)
  .recommendCommands()
  .help()
  .alias('h', 'help')
  .wrap(Math.min(100, process.stdout.columns || 100))
  .fail((msg, err) => {
    if (err) fail(err);
    else fail(new UsageError(msg));
  });

function buildSearchOptions(y: Argv) {
  return y
    .positional('query', { type: 'string', array: true, describe: 'free text: keywords or a whole prompt' })
    .option('format', { alias: 'f', choices: ['text', 'json', 'xml', 'md'] as const, default: 'text' })
    .option('limit', { alias: 'n', type: 'number', default: 10, describe: 'results to show' })
    .option('all-sections', { type: 'boolean', default: false, describe: 'more than one section per note' })
    .option('type', { type: 'string', array: true, describe: 'daily | knowledge | session (repeatable)' })
    .option('status', { type: 'string', array: true, describe: 'frontmatter status (repeatable)' })
    .option('tag', { type: 'string', array: true, describe: 'tag (repeatable)' })
    .option('path', { type: 'string', array: true, describe: 'vault path prefix (repeatable)' })
    .option('after', { type: 'string', describe: 'on or after YYYY, YYYY-MM or YYYY-MM-DD' })
    .option('before', { type: 'string', describe: 'before YYYY, YYYY-MM or YYYY-MM-DD' })
    .option('recent', { type: 'string', describe: 'within the last 30d, 2w, 3m or 1y' })
    .option('year', { type: 'number', describe: 'in this year' })
    .option('budget', { type: 'number', describe: 'xml: characters of snippet text in all (default $TSM_SNIPPET_BUDGET or 1000)' })
    .option('full', { type: 'boolean', default: false, describe: 'json: add each section\'s text as "content"' })
    .option('include-content', { type: 'number', describe: 'json: add the whole file of the top N results' })
    .option('ids', { type: 'boolean', default: false, describe: 'print section ids only, one per line' })
    .option('detail', { choices: ['auto', 'none', 'low', 'high'] as const, default: 'auto', describe: 'md: which results carry details' })
    .example('$0 search LoRa モジュール', 'keywords')
    .example('$0 search -f json --type knowledge --recent 3m "antenna gain"', 'JSON, filtered');
}

await cli.parseAsync().catch(fail);
