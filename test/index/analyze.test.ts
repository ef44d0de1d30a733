import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/text/analyze.js';

describe('analyze', () => {
  it('keeps words that follow backticks, fences and other markup', () => {
    expect(analyze('``` > zqxanchor').words).toContain('zqxanchor');
    expect(analyze('```python\nprint(x)\n```').words).toContain('python');
    expect(analyze('## ``` foo').words).toContain('foo');
    expect(analyze('[[link|**bold**]] `code`').words.split(/\s+/).filter(Boolean)).toEqual(['link', 'bold', 'code']);
  });
  it('cuts every run: single characters, astral Han, runs at both ends', () => {
    expect(analyze('日')).toEqual({ words: ' ', cjk: '日' });
    expect(analyze('a 日 b').cjk).toBe('日');
    expect(analyze('𠀀𠀁x').cjk).toBe('𠀀𠀁');
    expect(analyze('東京and大阪')).toEqual({ words: ' and ', cjk: '東京 大阪' });
    expect(analyze('plain text, no runs')).toEqual({ words: 'plain text, no runs', cjk: '' });
  });
  it('bigrams CJK runs and keeps Latin words apart', () => {
    expect(analyze('LoRaモジュール').cjk).toBe('モジ ジュ ュー ール');
    expect(analyze('LoRaモジュール').words.trim()).toBe('lora');
  });
});
