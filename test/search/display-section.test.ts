import { describe, expect, it } from 'vitest';
import { bestSectionPerNote, namesEveryTerm } from '../../src/search/display-section.js';
import { queryTerms } from '../../src/search/query-terms.js';

describe('bestSectionPerNote', () => {
  const sections = [
    { id: 1, noteId: 10, ord: 0, heading: '', level: 0, text: '' },
    { id: 2, noteId: 10, ord: 1, heading: '', level: 0, text: '- TODO: measure again' },
    { id: 3, noteId: 10, ord: 2, heading: '', level: 0, text: 'SX1262 の消費電力は送信時 38mA。SX1262 のスリープ電流は 0.6µA。' },
    { id: 4, noteId: 20, ord: 0, heading: '', level: 0, text: 'nothing relevant here' },
  ];
  it('picks the section whose own text covers the query', () => {
    const best = bestSectionPerNote(sections, queryTerms('SX1262 の消費電力'));
    expect(best.get(10)).toBe(3);
  });
  it('reads a section\'s own heading with its text, not a sibling that says a word in passing', () => {
    // vault-example's debugging tips: `current` is in one heading, and in passing in the tools list.
    const tips = [
      { id: 1, noteId: 50, ord: 1, heading: 'Sleep current is too high', level: 2, text: '1. Measure first, with the PPK2. 2. Put every unused GPIO into analog mode before sleeping.' },
      { id: 2, noteId: 50, ord: 2, heading: 'Notes on tools', level: 2, text: '- Saleae Logic 8 for UART/SPI; the PPK2 for current.' },
    ];
    expect(bestSectionPerNote(tips, queryTerms('sleep current bug')).get(50)).toBe(1);
    // A heading alone is enough to be a candidate: the body need not say the word.
    expect(bestSectionPerNote(tips, queryTerms('too high')).get(50)).toBe(1);
    // Not an H1 (the note's title, which heads every section), nor a session note's prompt headings.
    const h1 = [{ ...tips[0], heading: 'Sleep current', level: 1, text: 'Measure first.' }, tips[1]];
    expect(bestSectionPerNote(h1, queryTerms('sleep current')).get(50)).toBe(2);
    expect(bestSectionPerNote(tips, queryTerms('sleep current bug'), new Set(), new Set([50])).get(50)).toBe(2);
  });

  it('leaves notes with no matching section to the ranking', () => {
    expect(bestSectionPerNote(sections, queryTerms('SX1262')).has(20)).toBe(false);
  });
});

describe('a note its title names: its lead section', () => {
  // The LoRa module guide as vault-example/ has it: a short link list repeats `lora` in a file name.
  const guide = [
    { id: 1, noteId: 10, ord: 0, heading: '', level: 0, text: '' },
    { id: 2, noteId: 10, ord: 1, heading: '', level: 0, text: `首輪側に載せる LoRa 通信モジュールの選定基準と、評価した3候補の比較をまとめる。${'前提条件と測定の手順が続く。'.repeat(60)}` },
    { id: 3, noteId: 10, ord: 2, heading: '', level: 0, text: '工事設計認証を取得済みのモジュールであることが最優先。' },
    { id: 4, noteId: 10, ord: 3, heading: '', level: 0, text: '- [[dog-tracker-lora-competitors]]\n- [[lora-spreading-factor|拡散率のメモ]]' },
  ];
  const title = ['LoRa通信モジュール選定ガイド', 'LoRa module guide'];

  it('shows the first section with text when the title holds every term and the lead says one', () => {
    const terms = queryTerms('LoRa');
    expect(bestSectionPerNote(guide, terms).get(10)).toBe(4); // by body score alone: the link list
    expect(namesEveryTerm(title, terms)).toBe(true);
    expect(bestSectionPerNote(guide, terms, new Set([10])).get(10)).toBe(2);
    expect(bestSectionPerNote(guide, queryTerms('LoRa モジュール'), new Set([10])).get(10)).toBe(2);
  });

  it('keeps the best body section when the lead says none of the words', () => {
    const note = [
      { id: 5, noteId: 30, ord: 0, heading: '', level: 0, text: '個人で作って人に使ってもらうときに何が問題になるかの整理。' },
      { id: 6, noteId: 30, ord: 1, heading: '', level: 0, text: '技適のないモジュールを日本国内で送信させると違反。技適マークを確認する。' },
    ];
    expect(bestSectionPerNote(note, queryTerms('技適'), new Set([30])).get(30)).toBe(6);
  });

  it('asks every word of the query, as a whole Latin word', () => {
    expect(namesEveryTerm(title, queryTerms('LoRa 消費電力'))).toBe(false);
    expect(namesEveryTerm(['Finnish Spellcheck'], queryTerms('spellcheck'))).toBe(true);
    expect(namesEveryTerm(['finnish-spellcheck'], queryTerms('spellcheck'))).toBe(true);
    expect(namesEveryTerm(['Start here'], queryTerms('art'))).toBe(false);
    expect(namesEveryTerm(['Backup plugins'], queryTerms('backup plugins'))).toBe(true);
    expect(namesEveryTerm(['Backup plugins'], queryTerms('the'))).toBe(false);
  });
});

describe('the text a reader sees', () => {
  // An Obsidian Hub plugin note: badges before the H1, whose URLs hold the plugin's id, then what it does.
  const plugin = [
    {
      id: 1,
      noteId: 40,
      ord: 0,
      heading: '',
      level: 0,
      text: ['downloads', 'manifest-json/v', 'issues', 'stars'].map((b) => `![GitHub ${b}](https://img.shields.io/github/${b}/chhoumann/quickadd)`).join('\n'),
    },
    { id: 2, noteId: 40, ord: 1, heading: '', level: 0, text: 'Plugin ID: `quickadd`\nLinks: [GitHub repository](https://github.com/chhoumann/quickadd)\n\nQuickly add new pages or content to your vault.' },
  ];

  it('counts no word that only a link or image address holds', () => {
    expect(bestSectionPerNote(plugin, queryTerms('quickadd hotkey capture')).get(40)).toBe(2);
  });

  it('takes a lead only where the reader sees a word of the query', () => {
    expect(bestSectionPerNote(plugin, queryTerms('QuickAdd'), new Set([40])).get(40)).toBe(2);
  });
});
