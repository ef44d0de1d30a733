// An attribute of the <knowledge_search> XML reads back as the value it holds: a status written over two lines
// (or with a tab) in YAML was printed raw, which an XML parser reads as spaces (attribute-value normalization),
// so `-f xml` and the prompt hook said another status than `-f json` did, on a <source> element broken over
// two lines. Tab, newline and carriage return are character references there now (escapeXmlAttribute).
import { describe, expect, it } from 'vitest';
import { child, elements, parseXml } from '../format/xml-tree.js';
import { tsm, useIndexedVault } from '../helpers/cli.js';

const STATUS = 'in\nreview\tnow';
const vault = useIndexedVault({
  '.tsm/.keep': '',
  'knowledge/antenna.md': ['---', 'status: "in\\nreview\\tnow"', '---', '# Antenna', '', 'The LoRa antenna reached 3 km on the ridge.', ''].join('\n'),
});

function sourceOf(xml: string) {
  const [result] = elements(parseXml(xml), 'result');
  return child(result, 'source')!;
}

describe('an XML attribute holding a newline or a tab', () => {
  it('reads back as -f json gives it, with <source> on one line', () => {
    const json = tsm(['search', '--vault', vault.dir, '-f', 'json', 'antenna']);
    expect(JSON.parse(json.stdout)[0].status).toBe(STATUS);
    const r = tsm(['search', '--vault', vault.dir, '-f', 'xml', 'antenna']);
    expect(r.code, r.stderr).toBe(0);
    expect(sourceOf(r.stdout).attrs.status).toBe(STATUS);
    expect(r.stdout).toMatch(/^<source type="knowledge" status="in&#x000a;review&#x0009;now">knowledge\/antenna\.md<\/source>$/m);
  });

  it('the prompt hook injects the same', () => {
    const payload = JSON.stringify({ hook_event_name: 'UserPromptSubmit', prompt: 'how far did the LoRa antenna reach', cwd: vault.dir, session_id: 's1' });
    const r = tsm(['hook'], { input: payload, cwd: vault.dir });
    expect(r.code, r.stderr).toBe(0);
    expect(sourceOf(JSON.parse(r.stdout).hookSpecificOutput.additionalContext).attrs.status).toBe(STATUS);
  });
});
