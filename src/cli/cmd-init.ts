// tsm init: create .tsm/ with a commented config (never overwriting one); --claude wires Claude Code too,
// in the local (personal) scope unless --shared asks for the files a team commits.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { claudeProject } from '../hooks/claude-settings.js';
import { ConfigFileError, defaultConfigText, loadConfig, resolveVault, TSM_DIR } from '../vault/config.js';
import { fileKind } from '../vault/file-kind.js';
import { notAFolder, TSM_GITIGNORE } from '../vault/folders.js';
import { createFileWhole } from '../vault/new-file.js';
import { UsageError, UserError } from './run.js';
import { writeErr } from './stdio.js';
import { machineShortOf } from '../core/machine-limits.js';

export async function run(argv: Record<string, unknown>): Promise<void> {
  if (argv.shared && !argv.claude) throw new UsageError('--shared goes with --claude: `tsm init --claude --shared`');
  // The vault every other command would use here (a named one must exist: `--vault ~/notse` creating a
  // folder tree would hide the typo), else the current folder, as `tsm index` takes it. Run in a project
  // kept inside a vault, a .tsm/ made in the project would become its nearest vault and hide the notes.
  const vault = resolveVault({ vaultFlag: typeof argv.vault === 'string' ? argv.vault : undefined, env: process.env, cwdIsVault: true });
  // The project to wire is checked before anything is made: a project folder is never created.
  const project = argv.claude ? claudeProject(process.env) : null;
  if (project?.problem) throw new UserError(`${project.problem}: correct it, or unset it to use the current folder (tsm makes no project folder)`);
  const dir = join(vault, TSM_DIR);
  const kind = fileKind(dir);
  if (kind !== 'absent' && kind !== 'directory') throw new UserError(`${dir} is a file, not tsm's folder: move it aside and run \`tsm init\` again`);
  if (kind === 'absent') {
    fsStep('create', dir, () => {
      try {
        mkdirSync(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        // Another tsm made it since the look above (two setups at once: "cannot create .tsm (EEXIST)", 2 of 60
        // in a shell loop of 6 at once): there, as wanted. Else a link to nothing (into a dotfiles folder
        // not there yet), which EEXIST named only as "check that path".
        if (fileKind(dir) !== 'directory') throw notAFolder(dir);
      }
    });
  }
  const config = join(dir, 'config.json');
  const created: string[] = [];
  // Whole or not at all: a full disk left an empty config.json, which this check then took for one set up.
  fsStep('write', config, () => {
    if (createFileWhole(config, defaultConfigText())) created.push(config);
  });
  const gitignore = join(dir, '.gitignore');
  fsStep('write', gitignore, () => {
    if (createFileWhole(gitignore, TSM_GITIGNORE)) created.push(gitignore);
  });
  writeErr(created.length ? `tsm: created ${created.join(', ')}\n` : `tsm: ${dir} already set up\n`);
  // A link to nothing is left in place (a dotfiles repository not cloned yet): said, as every command reads the defaults meanwhile.
  if (!created.includes(config) && fileKind(config) === 'absent') {
    writeErr(`tsm: ${config} is a link to nothing: left as it is; tsm uses the default settings until it leads to a file\n`);
  }
  // A config.json every command stops at (not JSON, a bad value) is no vault set up: "already set up", exit
  // 0, and the next `tsm index` stopped at it. Said after the other files, which are made all the same.
  let badConfig: ConfigFileError | null = null;
  if (!created.includes(config)) {
    try {
      loadConfig({ vaultFlag: vault, env: {} });
    } catch (err) {
      if (!(err instanceof ConfigFileError)) throw err;
      badConfig = err;
    }
  }
  if (argv.claude) {
    const { wireClaudeCode } = await import('../hooks/claude-setup.js');
    const changes = wireClaudeCode((project as { dir: string }).dir, vault, { shared: argv.shared === true });
    for (const c of changes) writeErr(`tsm: ${c}\n`);
    // The hooks and the MCP server run `tsm` by name: wired without it on PATH, none of them can run.
    const { NOT_ON_PATH_FIX, onPath } = await import('../hooks/claude-check.js');
    if (!onPath('tsm', process.env)) writeErr(`tsm: warning: \`tsm\` is not on PATH, and Claude Code runs the hooks and \`tsm serve\` by that name: ${NOT_ON_PATH_FIX}\n`);
  }
  if (badConfig) {
    // Its own fix when it has one (a folder there, a file this user may not read); else its text to correct.
    const fix = badConfig.fix ? '' : ': correct it, or move it aside and run `tsm init` again to write a new one';
    throw new UserError(`${badConfig.message.replace(/; correct it there$/, '')}; every tsm command stops at it${fix}`);
  }
}

/** What to do about a file system error init meets: they are the user's folder's, not bugs in tsm. */
const FS_FIXES: Record<string, string> = {
  EACCES: 'you may not write there: check the permissions of the folder, or run `tsm init` in a vault you own',
  EPERM: 'you may not write there: check the permissions of the folder, or run `tsm init` in a vault you own',
  EROFS: 'the disk is read-only: keep the vault on a writable disk',
};

/** Runs one file system step; an error with a code becomes one line naming the path and the fix. */
function fsStep(what: 'create' | 'write', path: string, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw err;
    // A full disk or quota, too many open files: the one wording of core/machine-limits.ts.
    const short = machineShortOf(err);
    const fix = short !== null ? `${short.replace(/ \([A-Z]+\)$/, '')} and run \`tsm init\` again` : (FS_FIXES[code] ?? 'check that path, then run `tsm init` again');
    throw new UserError(`cannot ${what} ${path} (${code}): ${fix}`);
  }
}
