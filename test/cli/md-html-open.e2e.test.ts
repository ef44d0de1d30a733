// `tsm search -f md`: a section's text is cut where a long section is chunked, here inside a `<details>` that
// the next chunk closes. The answer was good markdown, but an HTML renderer (GitHub, Obsidian's preview)
// nested every later result inside the open `<details>`, collapsed.
import { describe, expect, it } from 'vitest';
import { tsm, useIndexedVault } from '../helpers/cli.js';
import { htmlOpenAtResults } from '../helpers/html-nesting.js';

const log = Array.from({ length: 600 }, (_, i) => `step ${i}: the walrus config line and some more padding words`).join('\n');
const vault = useIndexedVault({
  '.tsm/config.json': JSON.stringify({ semantic: false }),
  'a.md': `# Walrus log\n\nWalrus intro.\n\n<details>\n<summary>log</summary>\n\n${log}\n\n</details>\n\nAfter the walrus log.\n`,
  'b.md': '# Walrus B\n\nA second walrus note.\n',
});

describe('tsm search -f md: HTML a result leaves open', () => {
  it('is closed after its text: no later result is nested in it', () => {
    const r = tsm(['search', 'walrus', '-f', 'md', '--detail', 'high', '--vault', vault.dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('<details>\n<summary>log</summary>\n</details>\n\n## Result 2');
    const nesting = htmlOpenAtResults(r.stdout);
    expect(nesting.length).toBeGreaterThanOrEqual(2);
    expect(nesting.every((open) => open.length === 0)).toBe(true);
  });
});
