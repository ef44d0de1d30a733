// `claude plugin validate` — the real CLI, oldest supported and newest version — accepts plugin/, the
// marketplace manifest at the repository root, and plugin-warm/ on versions with mcp_tool hooks. Needs no network once the CLIs are in the cache
// ($TSM_CLAUDE_CACHE); without npm it skips, saying why.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasMcpToolHooks } from '../../src/hooks/wiring.js';
import { ROOT } from '../helpers/cli.js';
import { ensureClaude, isolatedEnv, runClaude, versionsUnderTest } from './claude-cli.js';

describe.each(versionsUnderTest())('claude plugin validate, Claude Code %s', (version) => {
  const cases: [string, string, RegExp][] = [
    ['the plugin', join(ROOT, 'plugin'), /plugin manifest/i],
    ['the marketplace', ROOT, /marketplace manifest/i],
    // plugin-warm/ only where mcp_tool hooks exist: 2.1.117's validator refuses its prompt hook
    // ("hooks.UserPromptSubmit.0.hooks.0.type: Invalid input"), as its loader does.
    ...(hasMcpToolHooks(version) ? [['the warm plugin', join(ROOT, 'plugin-warm'), /plugin manifest/i] as [string, string, RegExp]] : []),
  ];
  for (const [what, path, kind] of cases) it(`accepts ${what}`, async (ctx) => {
    const claude = ensureClaude(version);
    if ('skip' in claude) {
      process.stdout.write(`skipped: ${claude.skip}\n`);
      ctx.skip();
      return;
    }
    const root = mkdtempSync(join(tmpdir(), 'tsm-validate-'));
    try {
      const r = await runClaude(claude.bin, ['plugin', 'validate', path], { cwd: root, env: isolatedEnv(root, {}) });
      const out = r.stdout + r.stderr;
      expect(out, out).toMatch(kind);
      expect(out, out).toMatch(/Validation passed/);
      expect(r.code, out).toBe(0);
      // Newer validators also run the plugin directory's checks (a README with an install line): a problem
      // there is marked ✘. Warnings (⚠: no listing icon) and notes do not fail the test. (2.1 suggests
      // declaring "network": {"hosts": []} in plugin.json; 2.0.76 rejects any key it does not know.)
      expect(out, out).not.toMatch(/✘|\berror\b/i);
      expect(out, out).not.toMatch(/has no line that installs|README missing/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 600_000);
});
