// tsm init: create .tsm/ with a commented config (never overwriting one); --claude wires Claude Code too.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultConfigText, TSM_DIR } from '../vault/config.js';

export async function run(argv: Record<string, unknown>): Promise<void> {
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
  process.stderr.write(created.length ? `tsm: created ${created.join(', ')}\n` : `tsm: ${dir} already set up\n`);
  if (argv.claude) {
    const { wireClaudeCode } = await import('../hooks/claude-setup.js');
    const changes = wireClaudeCode(process.env.CLAUDE_PROJECT_DIR || process.cwd(), vault);
    for (const c of changes) process.stderr.write(`tsm: ${c}\n`);
  }
}
