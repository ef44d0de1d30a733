// The files docs/watch.md, docs/mcp.md, docs/reliability.md and docs/embeddings.md send a reader to (the code
// a rule lives in, the test that proves a claim, the bench script) exist: a file renamed or a test folded into
// another leaves no page pointing at nothing.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const PAGES = ['docs/watch.md', 'docs/mcp.md', 'docs/reliability.md', 'docs/embeddings.md'];

/** `test/property/*.property.test.ts`: a name with `*` stands for at least one file of its folder. */
function exists(path: string): boolean {
  if (!path.includes('*')) return existsSync(join(ROOT, path));
  const dir = path.slice(0, path.lastIndexOf('/'));
  const name = new RegExp(`^${path.slice(dir.length + 1).replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);
  return existsSync(join(ROOT, dir)) && readdirSync(join(ROOT, dir)).some((f) => name.test(f));
}

it.each(PAGES)('every source, test and script file %s names exists', (page) => {
  // tsm's own files, not a project's quoted in an example (``Bash `python scripts/migrate.py` ``).
  const text = readFileSync(join(ROOT, page), 'utf8');
  const named = [...new Set([...text.matchAll(/\b((?:src|test|scripts)\/[\w./*-]+\.(?:ts|mjs)|bench\/[\w./*-]+\.(?:py|ts))\b/g)].map((m) => m[1]))];
  expect(named.length).toBeGreaterThan(0);
  expect(named.filter((p) => !exists(p))).toEqual([]);
});
