// The progress bar on a real terminal: `script` gives the built `tsm` a pseudo-terminal (node-pty is not
// a dependency). It draws on a terminal that can move its cursor, and never on TERM=dumb (an Emacs shell
// buffer, a CI log that claims a tty), where `\r\x1b[2K` is printed as garbage: as npm and cargo, no bar.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, makeVault, TSM } from '../helpers/cli.js';

const hasScript = spawnSync('script', ['--version']).status === 0;

// 60 notes: cmd-index draws from 50 on.
const NOTES = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`n${i}.md`, `# Note ${i}\n\nsome text ${i}\n`]));

let vault: { dir: string; cleanup: () => void };
beforeAll(() => {
  vault = makeVault({ ...NOTES, '.tsm/.keep': '' });
});
afterAll(() => vault.cleanup());

/** `tsm index --full` on a pseudo-terminal (stdout and stderr both), as `script` records it. */
function indexOnTerminal(env: Record<string, string | undefined>): string {
  const command = `'${process.execPath}' '${TSM}' index --full --vault '${vault.dir}'`;
  const r = spawnSync('script', ['-qec', command, '/dev/null'], { env: cleanEnv(env), encoding: 'utf8', timeout: 60_000 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe.skipIf(!hasScript)('the progress bar on a terminal', () => {
  it('draws, then clears its line, on a terminal that moves its cursor', () => {
    const out = indexOnTerminal({ TERM: 'xterm-256color' });
    expect(out).toContain('indexing [');
    expect(out).toContain('\r\x1b[2K');
    expect(out).toMatch(/60 added/);
  });

  it('is not drawn on TERM=dumb: no carriage returns over the line, no escapes', () => {
    const out = indexOnTerminal({ TERM: 'dumb' });
    expect(out).not.toContain('indexing [');
    expect(out).not.toContain('\x1b');
    expect(out).toMatch(/^60 added, .* in [\d.]+ s\r\n$/);
  });

  it('NO_COLOR is about colour, not the cursor: the bar still draws', () => {
    expect(indexOnTerminal({ TERM: 'xterm-256color', NO_COLOR: '1' })).toContain('indexing [');
  });
});
