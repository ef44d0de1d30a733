// Which module runs each command, in one table: yargs-cli.ts's handlers and cli.ts's plain command lines both
// load a command from here. Each is a dynamic import, so a command loads only its own module and what it needs.
import type { COMMANDS } from './hook-args.js';
import type { CommandModule } from './run.js';

export const COMMAND_MODULES: Record<(typeof COMMANDS)[number], () => Promise<CommandModule>> = {
  index: () => import('./cmd-index.js'),
  search: () => import('./cmd-search.js'),
  status: () => import('./cmd-status.js'),
  doctor: () => import('./cmd-doctor.js'),
  related: () => import('./cmd-related.js'),
  init: () => import('./cmd-init.js'),
  watch: () => import('./cmd-watch.js'),
  hook: () => import('./cmd-hook.js'),
  'ingest-session': () => import('./cmd-ingest-session.js'),
  model: () => import('./cmd-model.js'),
  serve: () => import('./cmd-serve.js'),
};
