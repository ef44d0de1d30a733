// docs/embeddings.md against the BUILT `tsm model`: the table of models (id, dims, prefixes, licence), the npm
// line `tsm model setup` runs, and the options the page names. A model added, a version bumped or a flag
// renamed without the page fails here.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { KNOWN_MODELS } from '../../src/embed/models.js';
import { ROOT, tsm } from '../helpers/cli.js';

const page = readFileSync(join(ROOT, 'docs/embeddings.md'), 'utf8');
const home = mkdtempSync(join(tmpdir(), 'tsm-docs-embed-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));
// The default cache (~/.cache/tsm), as the page writes it: no TSM_CACHE_DIR or XDG_CACHE_HOME.
const env = { HOME: home, TSM_CACHE_DIR: undefined, XDG_CACHE_HOME: undefined };

it('the table of models is `tsm model list`, with the known prefixes', () => {
  const rows = [...page.matchAll(/^\| `([^`]+)`(?: \(default\))? \| (\d+) \| `([^`]*)` \/ `([^`]*)` \| ([^|]+) \|/gm)].map((m) => ({
    id: m[1],
    dims: Number(m[2]),
    queryPrefix: m[3],
    passagePrefix: m[4],
    license: m[5].trim(),
  }));
  const listed = JSON.parse(tsm(['model', 'list', '--json'], { env, cwd: home }).stdout) as { models: { id: string; dims: number; license: string; selected: boolean }[] };
  expect(rows.map(({ id, dims, license }) => ({ id, dims, license }))).toEqual(listed.models.map(({ id, dims, license }) => ({ id, dims, license })));
  expect(rows.map(({ id, queryPrefix, passagePrefix }) => ({ id, queryPrefix, passagePrefix }))).toEqual(
    KNOWN_MODELS.map(({ id, queryPrefix, passagePrefix }) => ({ id, queryPrefix, passagePrefix })),
  );
  expect(page).toContain(`| \`${listed.models.find((m) => m.selected)?.id}\` (default) |`);
});

it('`tsm model setup` runs the npm line the page quotes', () => {
  const quoted = /`tsm model setup` runs `(npm install [^`]+)` with `([A-Z_]+=\w+)`/.exec(page);
  expect(quoted).not.toBeNull();
  const [, npm, envVar] = quoted as RegExpExecArray;
  const r = tsm(['model', 'setup', '--dry-run'], { env, cwd: home });
  expect(r.code).toBe(0);
  // The page wraps the line: its spaces and line breaks are one space.
  expect(r.stdout).toBe(`${envVar} ${npm.replace(/\s+/g, ' ').replace('~/', `${home}/`)}\n`);
});

it('`tsm model pull`, `path` and `list` take the options the page names', () => {
  const help = tsm(['model', '--help'], { env, cwd: home }).stdout;
  const usage = /`tsm model pull \[NAME\] ([^`]+)`/.exec(page);
  expect(usage).not.toBeNull();
  for (const flag of [...(usage as RegExpExecArray)[1].matchAll(/--[a-z-]+/g)].map((m) => m[0])) expect(help).toContain(flag);
  for (const flag of ['--model', '--model-dir', '--dry-run']) {
    expect(page).toMatch(new RegExp(`${flag}\\b(?!-)`));
    expect(help).toContain(`${flag} `);
  }
});
