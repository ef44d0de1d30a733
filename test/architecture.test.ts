// The layer table, checked: what Cargo's crate graph gives ripgrep. Every import between folders of src/
// (static, `export … from` and dynamic `import()`) must follow ALLOWED, and no two files may import each other
// through any chain (a cycle means two modules are really one, or a third is missing).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../src');

/**
 * Which folders each folder of src/ may import from (besides itself). One direction:
 * vault → parse → index → search → format → surfaces (hooks, mcp, watch) → cli, the composition root that
 * starts every command. core (domain types) and text (normalisation shared by index and query) sit below
 * everything; sessions turns transcripts into session notes and has them indexed, for the hooks and the CLI alike.
 */
const ALLOWED: Record<string, readonly string[]> = {
  core: [],
  text: ['core'],
  vault: ['core', 'text'],
  embed: ['core', 'text', 'vault'],
  parse: ['core', 'text', 'vault'],
  sessions: ['core', 'text', 'vault', 'index'],
  index: ['core', 'text', 'vault', 'parse', 'embed'],
  search: ['core', 'text', 'vault', 'index', 'embed'],
  format: ['core', 'text', 'search'],
  watch: ['core', 'text', 'vault', 'parse', 'index', 'embed'],
  hooks: ['core', 'text', 'vault', 'parse', 'index', 'search', 'format', 'sessions', 'embed'],
  // mcp → hooks: hook_context answers Claude Code's prompt hook from `tsm serve` with the hook's own code.
  mcp: ['core', 'text', 'vault', 'parse', 'index', 'search', 'format', 'sessions', 'embed', 'hooks'],
  cli: ['core', 'text', 'vault', 'parse', 'index', 'search', 'format', 'sessions', 'watch', 'hooks', 'mcp', 'embed'],
  eval: ['core', 'text', 'vault', 'parse', 'index', 'search', 'format', 'embed'],
};

type Graph = Map<string, string[]>;

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** File → the src files it imports (relative specifiers only; `.js` in a specifier names the `.ts` source). */
function importGraph(root: string): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec?.startsWith('.')) continue;
      targets.push(relative(root, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))));
    }
    graph.set(relative(root, file), targets);
  }
  return graph;
}

const layerOf = (file: string): string => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '(src root)');

function layerViolations(graph: Graph, allowed: Record<string, readonly string[]>): string[] {
  const out: string[] = [];
  for (const [file, targets] of graph) {
    const from = layerOf(file);
    for (const target of targets) {
      const to = layerOf(target);
      if (to === from) continue;
      if (!(from in allowed)) out.push(`${file}: folder ${from} is not in the layer table`);
      else if (!allowed[from]!.includes(to)) out.push(`${file} → ${target} (${from} may not import ${to})`);
    }
  }
  return out;
}

/** Every import cycle, each reported once as the chain of files that closes it (Tarjan's SCCs). */
function cycles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

describe('architecture', () => {
  const graph = importGraph(SRC);

  it('reads the imports of every source file', () => {
    expect(graph.size).toBeGreaterThan(100);
    // A known edge in each form the reader must see: static, dynamic.
    expect(graph.get('cli/command-modules.ts')).toContain('cli/cmd-search.ts');
    expect(graph.get('index/db.ts')?.length).toBeGreaterThan(0);
  });

  it('every folder of src/ is in the layer table', () => {
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => !(f in ALLOWED))).toEqual([]);
  });

  it('imports follow the layer table', () => {
    expect(layerViolations(graph, ALLOWED)).toEqual([]);
  });

  it('has no import cycles', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('catches a planted violation and a planted cycle', () => {
    const planted: Graph = new Map(graph);
    planted.set('search/planted.ts', ['cli/run.ts', 'search/planted-b.ts']);
    planted.set('search/planted-b.ts', ['search/planted.ts']);
    expect(layerViolations(planted, ALLOWED)).toContain('search/planted.ts → cli/run.ts (search may not import cli)');
    expect(cycles(planted)).toContainEqual(['search/planted-b.ts', 'search/planted.ts']);
  });
});
