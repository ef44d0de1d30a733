// Option tables shared by the full yargs CLI and the fast path (`search`, `hook`), so both accept the
// same flags with the same meaning.

export interface OptionSpec {
  type: 'string' | 'number' | 'boolean';
  describe: string;
  alias?: string;
  default?: string | number | boolean;
  array?: boolean;
  choices?: readonly string[];
}

export const VAULT_OPTIONS: Record<string, OptionSpec> = {
  vault: { type: 'string', describe: 'vault folder (default: $TSM_VAULT, else the nearest folder holding .tsm/ or .obsidian/)' },
  db: { type: 'string', describe: 'index file (default: $TSM_DB or <vault>/.tsm/index.db)' },
};

export const SEARCH_OPTIONS: Record<string, OptionSpec> = {
  ...VAULT_OPTIONS,
  format: { type: 'string', alias: 'f', choices: ['text', 'json', 'xml', 'md'], default: 'text', describe: 'output format' },
  limit: { type: 'number', alias: 'n', default: 10, describe: 'results to show' },
  'all-sections': { type: 'boolean', default: false, describe: 'more than one section per note' },
  type: { type: 'string', array: true, describe: 'daily | knowledge | session (repeatable)' },
  status: { type: 'string', array: true, describe: 'frontmatter status (repeatable)' },
  tag: { type: 'string', array: true, describe: 'tag (repeatable)' },
  path: { type: 'string', array: true, describe: 'vault path prefix (repeatable)' },
  after: { type: 'string', describe: 'on or after YYYY, YYYY-MM or YYYY-MM-DD' },
  before: { type: 'string', describe: 'before YYYY, YYYY-MM or YYYY-MM-DD' },
  recent: { type: 'string', describe: 'within the last 30d, 2w, 3m or 1y' },
  year: { type: 'number', describe: 'in this year' },
  budget: { type: 'number', describe: 'xml: characters all results may print: paths, headings, snippets (default $TSM_SNIPPET_BUDGET or 1500)' },
  full: { type: 'boolean', default: false, describe: 'json: add each section\'s text as "content"' },
  'include-content': { type: 'number', describe: 'json: add the whole file of the top N results' },
  ids: { type: 'boolean', default: false, describe: 'print section ids only, one per line' },
  detail: { type: 'string', choices: ['auto', 'none', 'low', 'high'], default: 'auto', describe: 'md: which results carry details' },
  verbose: { type: 'boolean', default: false, describe: 'say on stderr whether the neural ranker took part, and why not' },
};

// A hook looks for .tsm/ only (src/hooks/hook-vault.ts): Claude Code runs it in every project, and a folder
// that merely holds .obsidian/ has not asked for tsm.
export const HOOK_OPTIONS: Record<string, OptionSpec> = {
  ...VAULT_OPTIONS,
  vault: { type: 'string', describe: "vault folder (default: $TSM_VAULT, else the nearest folder holding .tsm/ at or above the payload's cwd; none: the hook does nothing)" },
};
