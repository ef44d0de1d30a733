// tsm init: create .tsm/ with a commented config (never overwriting one); --claude wires Claude Code too,
// in the local (personal) scope unless --shared asks for the files a team commits.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultConfigText, TSM_DIR } from '../vault/config.js';
import { UsageError } from './run.js';
import { writeErr } from './stdio.js';

export async function run(argv: Record<string, unknown>): Promise<void> {
  if (argv.shared && !argv.claude) throw new UsageError('--shared goes with --claude: `tsm init --claude --shared`');
  const vault = resolve(typeof argv.vault === 'string' ? argv.vault : process.env.TSM_VAULT || process.cwd());
  const dir = join(vault, TSM_DIR);
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'config.json');
  const created: string[] = [];
  if (!existsSync(config)) {
    writeFileSync(config, defaultConfigText());
    created.push(config);
  }
  const gitignore = join(dir, '.gitignore');
  if (!existsSync(gitignore)) {
    // The index and logs are derived from the notes; only the config is worth committing.
    writeFileSync(gitignore, '*\n!.gitignore\n!config.json\n');
    created.push(gitignore);
  }
  writeErr(created.length ? `tsm: created ${created.join(', ')}\n` : `tsm: ${dir} already set up\n`);
  if (argv.claude) {
    const { wireClaudeCode } = await import('../hooks/claude-setup.js');
    const changes = wireClaudeCode(process.env.CLAUDE_PROJECT_DIR || process.cwd(), vault, { shared: argv.shared === true });
    for (const c of changes) writeErr(`tsm: ${c}\n`);
  }
}
