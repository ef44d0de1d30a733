// A session note's `### Plan` (plan mode: the plan put to the user and whether they approved it) reaches the
// MCP session tools: session_trace previews it with the prompt, and a file named only in the plan is
// "mentioned" by the session in file_history. sessionPrompts read Actions and Answer only, so the plan — what
// the session decided — was invisible to both.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ok } from './client.js';
import { serveFixture } from './setup.js';

const ID = 'a1b2c3d4-0000-0000-0000-000000000000';
let served: Awaited<ReturnType<typeof serveFixture>>;
beforeAll(async () => {
  served = await serveFixture({
    'sessions/2026-11-20-tracker-a1b2c3d4.md': {
      type: 'session',
      date: '2026-11-20',
      frontmatter: { session_id: ID, project: 'tracker', cwd: '/home/me/tracker' },
      body: [
        '# tracker: plan the LoRa range test',
        '',
        '## 1. plan the LoRa range test',
        '',
        'plan the LoRa range test',
        '',
        '### Actions',
        '',
        '- ExitPlanMode `Plan: LoRa range test`',
        '',
        '### Plan',
        '',
        'Approved by the user.',
        '',
        '\\# Plan: LoRa range test',
        '',
        '1. Flash the SF12 build from firmware/lora_sf12.c',
        '2. Log RSSI every 100 m along the forest road',
        '',
        '### Answer',
        '',
        'Plan approved; starting with the flash.',
        '',
      ].join('\n'),
    },
  });
});
afterAll(() => served.close());

it('session_trace previews the plan, verdict first', async () => {
  const r = await ok(served.client, 'session_trace', { session_id: ID });
  expect(r.prompts).toHaveLength(1);
  expect(r.prompts[0].plan_preview).toMatch(/^Approved by the user\. # Plan: LoRa range test 1\. Flash the SF12 build/);
  expect(r.prompts[0].answer_preview).toBe('Plan approved; starting with the flash.');
});

it('a file named only in the plan is mentioned by the session', async () => {
  const r = await ok(served.client, 'file_history', { file_path: 'lora_sf12.c' });
  expect(r.sessions.map((s: { session_id: string; how: string }) => [s.session_id, s.how])).toEqual([[ID, 'mentioned']]);
  expect(r.sessions[0].touches.map((t: { n: number }) => t.n)).toEqual([1]);
});
