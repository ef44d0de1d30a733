// A transcript is folded in time linear in its lines: a session of many prompts, or one prompt of many tool
// uses (a long agent run), is ingested by a Stop hook with a 20 s deadline. 200,000 lines of 50,000
// prompts took 32 s (each prompt numbered by counting the prompts before it), and 200,000 lines of one
// prompt's 100,000 tool uses 27 s (each tool use checked against every action of its prompt). The inputs
// below took 4 s and 6 s that way. A synchronous call cannot be stopped by a test timeout, so the time is
// measured; the bound tells linear from quadratic, never a fast machine from a slow one.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestTranscript } from '../../src/sessions/ingest.js';
import { applyTranscriptLines } from '../../src/sessions/transcript.js';
import { timed } from '../helpers/timed.js';

const SID = '7f3c2a91-5b1e-4c8d-9a0f-2e6b8d4c1a37';
const line = (o: object) => JSON.stringify({ sessionId: SID, cwd: '/home/dev/p', timestamp: '2026-11-01T06:46:47.000Z', ...o });
const user = (content: unknown) => line({ type: 'user', message: { role: 'user', content } });
const toolUse = (i: number) =>
  line({ type: 'assistant', message: { role: 'assistant', id: `m${i}`, content: [{ type: 'tool_use', id: `tu${i}`, name: 'Bash', input: { command: `echo ${i}` } }] } });
const toolResult = (i: number) => user([{ type: 'tool_result', tool_use_id: `tu${i}`, content: `out ${i}` }]);

describe('folding a huge transcript', () => {
  it('numbers 30,000 prompts in linear time', () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => user(`prompt ${i} about the antenna`));
    const { value: model, ms } = timed(() => applyTranscriptLines(null, lines, SID), 3);
    expect(model.prompts.map((p) => p.n)).toEqual(Array.from({ length: 30_000 }, (_, i) => i + 1));
    expect(ms).toBeLessThan(1500);
  });

  it('keeps 30,000 tool uses of one prompt, each once, in linear time', () => {
    const lines = [user('run the whole test matrix')];
    for (let i = 0; i < 30_000; i++) lines.push(toolUse(i), toolUse(i), toolResult(i)); // each block written twice
    const { value: model, ms } = timed(() => applyTranscriptLines(null, lines, SID), 3);
    expect(model.prompts).toHaveLength(1);
    expect(model.prompts[0].actions).toHaveLength(30_000);
    expect(model.prompts[0].actions.every((a) => a.exitStatus === 'ok')).toBe(true);
    expect(ms).toBeLessThan(1500);
  });

  it("places 50,000 subagents' file reads with their Task calls in linear time", () => {
    // Each agent_progress line names its Task call (parentToolUseID); the prompt holding that call was found
    // by checking every action of every prompt (Array.some): 30,000 Task calls, each with a subagent that
    // read a file, took 2.2 s here, 10,000 / 20,000 / 40,000 now 0.34 / 0.62 / 1.25 s. At 50,000 that was
    // about 5 s (the quadratic part alone ~3.3 s) against ~1.6 s now: the bound tells them apart.
    const lines = [user('review every module with a subagent each')];
    for (let i = 0; i < 50_000; i++) {
      lines.push(line({ type: 'assistant', message: { role: 'assistant', id: `t${i}`, content: [{ type: 'tool_use', id: `task${i}`, name: 'Task', input: { description: `module ${i}`, prompt: 'review it' } }] } }));
      lines.push(
        line({
          type: 'progress',
          parentToolUseID: `task${i}`,
          data: { type: 'agent_progress', message: { type: 'assistant', message: { role: 'assistant', content: [{ type: 'tool_use', id: `r${i}`, name: 'Read', input: { file_path: `/home/dev/p/src/m${i}.ts` } }] } } },
        }),
      );
    }
    const { value: model, ms } = timed(() => applyTranscriptLines(null, lines, SID), 3);
    expect(model.prompts).toHaveLength(1);
    expect(model.prompts[0].agentFiles).toHaveLength(50_000);
    expect(ms).toBeLessThan(3500);
  });

  // Past what a call's arguments hold (about 125,000): 150,000 prompts, or one prompt's 150,000 tool uses,
  // failed `tsm ingest-session` with 'Maximum call stack size exceeded' (Math.max(...) over the prompts'
  // numbers, push(...) of the rendered action lines).
  it('writes the note of 150,000 prompts, and of one prompt with 150,000 tool uses', () => {
    const root = mkdtempSync(join(tmpdir(), 'tsm-huge-session-'));
    try {
      const vault = join(root, 'vault');
      mkdirSync(vault);
      const opts = { vault, sessionsDir: join(vault, 'sessions'), stateDir: join(vault, '.tsm', 'sessions') };
      const ingest = (name: string, lines: string[]) => {
        const file = join(root, name);
        writeFileSync(file, lines.join('\n') + '\n');
        return ingestTranscript(file, opts);
      };
      const prompts = ingest('prompts.jsonl', Array.from({ length: 150_000 }, (_, i) => user(`prompt ${i} about the antenna`)));
      expect(prompts.prompts).toBe(150_000);
      const tools = [user('run the whole test matrix')];
      for (let i = 0; i < 150_000; i++) tools.push(toolUse(i), toolResult(i));
      const run = ingest('tools.jsonl', tools);
      expect(run.prompts).toBe(1);
      expect(readFileSync(run.notePath, 'utf8')).toContain('echo 149999');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
