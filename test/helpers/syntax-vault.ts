// A small vault for the query language (tsm search and MCP search): nested tags, phrases that occur
// split and whole, a word that one note must not hold, Japanese phrases, and words to misspell.
export const SYNTAX_VAULT: Record<string, string> = {
  '.tsm/.keep': '',
  'knowledge/dataview.md': [
    '---',
    'tags: [project/alpha, obsidian]',
    'status: current',
    '---',
    '# Dataview queries',
    '',
    'The Dataview plugin lists notes. Synchronization runs nightly.',
    '',
    '## Configuration',
    '',
    'Configure the plugin with a query block. 消費電力の測定を記録する。',
    '',
  ].join('\n'),
  'knowledge/sync.md': ['---', 'tags: [projects]', '---', '# Sync engines', '', 'A sync engine copies notes between machines. Dataview is not involved.', ''].join('\n'),
  'knowledge/engines.md': ['---', 'tags: [project]', '---', '# Engines compared', '', 'Each engine can sync, but the sync step is slow. It worked yesterday.', ''].join('\n'),
  'daily/2026-01-01.md': ['# 2026-01-01', '', 'Worked on the synchronizer and the plugin. 電力の消費を測った。', ''].join('\n'),
};
