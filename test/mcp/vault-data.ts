// The notes of the in-process MCP test vault: knowledge notes with links, three daily notes, session
// notes in both the hand-written style of vault-example/ and the style `tsm ingest-session` writes.
import type { NoteSpec } from './fixture.js';

export const NOW = new Date(2026, 10, 21, 12, 0, 0);

export const SESSION_A_ID = '3f9a2c1e-7b4d-4e21-9c0a-5d8e6f1b2a34';
export const SESSION_B_ID = 'b7c1d2e3-1111-2222-3333-444455556666';
export const SESSION_C_ID = '3f9a2c1e-ffff-0000-0000-000000000000';

const longBody = ['# Long note', '', 'Intro.', ...Array.from({ length: 30 }, (_, i) => [``, `## Part ${i + 1}`, '', `Body of part ${i + 1}.`]).flat(), ''].join('\n');

export function vaultNotes(outside: string): Record<string, NoteSpec> {
  return {
    'knowledge/lora.md': {
      type: 'knowledge',
      date: '2026-09-01',
      body: `# LoRa module guide

Choosing a LoRa module for the dog tracker.

## Antenna

A quarter-wave whip antenna gives the best range. See [[vhf]].

## Power

Sleep current matters more than transmit current.
`,
    },
    'knowledge/vhf.md': {
      type: 'knowledge',
      date: '2026-08-01',
      body: `# VHF notes

VHF collars are heavier. Compare with [[lora]] and [[nowhere]].
`,
    },
    'knowledge/old.md': {
      type: 'knowledge',
      date: '2025-01-01',
      status: 'archived',
      body: `# Old antenna notes

An old dipole antenna design, replaced since.
`,
    },
    'knowledge/mentions.md': {
      type: 'knowledge',
      date: '2026-11-01',
      body: `# Geo maths

The distance code lives in src/geo/geo.c and uses the haversine formula.
`,
    },
    'knowledge/long.md': { type: 'knowledge', date: '2026-07-01', body: longBody },
    'knowledge/escape.md': {
      type: 'knowledge',
      date: '2026-06-01',
      body: `# Secret

Top secret text that lives outside the vault.
`,
      symlinkTo: `${outside}/secret.md`,
    },
    'daily/2026-11-18.md': {
      type: 'daily',
      date: '2026-11-18',
      body: `# 2026-11-18

## Work

Soldered the receiver board.
`,
    },
    'daily/2026-11-19.md': {
      type: 'daily',
      date: '2026-11-19',
      body: `# 2026-11-19

## Morning

Coffee and planning.

## Range test

Range test in the park: 1.2 km with the quarter-wave whip.

## Evening

Wrote up the results.
`,
    },
    'daily/2026-11-20.md': {
      type: 'daily',
      date: '2026-11-20',
      body: `# 2026-11-20

## Work

Fixed the distance display.
`,
    },
    'sessions/2026-11-19-dog-tracker-fw-3f9a2c1e.md': {
      type: 'session',
      date: '2026-11-19',
      frontmatter: {
        session_id: SESSION_A_ID,
        project: 'dog-tracker-fw',
        cwd: '/home/me/src/dog-tracker-fw',
        git_branch: 'fix/receiver-distance',
        started: '2026-11-19T12:04:12.000Z',
        ended: '2026-11-19T12:47:55.000Z',
        files_read: ['src/receiver/display.c', 'src/geo/geo.c', 'src/geo/geo.h', 'test/test_geo/test_geo.c', 'platformio.ini'],
        files_edited: ['src/geo/geo.c', 'test/test_geo/test_geo.c'],
        commands: ['grep -rn "haversine" src', 'pio test -e native -f test_geo', 'pio run -e receiver'],
      },
      body: `# dog-tracker-fw: 受信機の距離表示が実際の60倍くらいになってる

## 1. 受信機の距離表示が実際の60倍くらいになってる

受信機の距離表示が実際の60倍くらいになってる。src/geo あたりを見て原因を探して。

### Actions

- Read src/receiver/display.c
- Bash \`grep -rn "haversine" src\` (exit 0)
- Read src/geo/geo.c
- Read src/geo/geo.h

### Answer

原因は \`src/geo/geo.c\` の \`geo_distance_m()\` です。度のまま渡しています。

## 2. 直して、テストも追加して

直して、テストも追加して。

### Actions

- Edit src/geo/geo.c
- Read test/test_geo/test_geo.c
- Edit test/test_geo/test_geo.c
- Bash \`pio test -e native -f test_geo\` (exit 1)
- Bash \`pio test -e native -f test_geo\` (exit 0)

### Answer

ラジアン変換するよう修正し、テストを 3 件追加しました。

## 3. receiver のビルドが通るかだけ確認して

receiver のビルドが通るかだけ確認して

### Actions

- Read platformio.ini
- Bash \`pio run -e receiver\` (exit 0)

### Answer

ビルドは成功しました。
`,
    },
    'sessions/2026-11-20-tsm-b7c1d2e3.md': {
      type: 'session',
      date: '2026-11-20',
      frontmatter: {
        session_id: SESSION_B_ID,
        project: 'tsm',
        cwd: '/home/me/src/tsm',
        git_branch: 'main',
        started: '2026-11-20T10:00:00.000Z',
        ended: '2026-11-20T11:00:00.000Z',
        files_read: ['src/cli/main.ts', '/home/me/src/dog-tracker-fw/src/geo/geo.c'],
        files_edited: ['src/mcp/server.ts', 'docs/mcp.md'],
        commands: ['npm test'],
      },
      body: `# tsm: Add the MCP server

## 1. Add the MCP server

Add the MCP server with nine tools.

### Actions

- Read \`src/cli/main.ts\`
- Grep \`registerTool\` in \`node_modules/@modelcontextprotocol/sdk\`
- Edit \`src/mcp/server.ts\`
- Edit \`src/missing.ts\` → error
- Bash \`npm test\` → error
- Bash \`npm test\` → ok

### Answer

Added the server; the tests pass.

## 2. Document it

Write the docs, and compare with the geo code.

### Actions

- Write \`docs/mcp.md\`
- Read \`/home/me/src/dog-tracker-fw/src/geo/geo.c\`

### Answer

Done.
`,
    },
    'sessions/2026-10-01-other-3f9a2c1e.md': {
      type: 'session',
      date: '2026-10-01',
      frontmatter: { session_id: SESSION_C_ID, project: 'other', cwd: '/home/me/src/other' },
      body: `# other: an older session

## 1. Look around

Just looking.
`,
    },
  };
}
