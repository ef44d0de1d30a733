// The version of how tsm reads a note. An index keeps what an older tsm read from each note until the file
// changes: a fix to the reading (`%%` inside inline code hid the rest of a note; a property `up: "[[Parent]]"`
// was no link; a timestamp with an offset took the UTC day) reached a note only when it was edited, or at
// `tsm index --full`. The index records the version that wrote each note (src/index/note-reading.ts), and a
// sync that lists the whole vault reads again, once, the notes an older one wrote (src/index/note-writer.ts
// fileStatesOf). Bump it with any change that makes the same file give other rows: text, sections, titles,
// dates, tags or links. A change to how links are resolved against the vault (not read from a note) bumps
// LINK_RULES in src/index/note-reading.ts instead: links are resolved again, and no note is read again.
//
// 1: 2026-11-27 (Obsidian comments and code, property links, offset timestamps, shared names' links).
// 2: 2026-11-27 (search text folds Japanese spelling variants: 関ヶ原/関ケ原, 3ヶ月/3か月, 髙/高, 﨑/崎).
// 3: 2026-11-27 (daily note names dated and typed: 20261127.md, 2026/11/27.md, 2026_11_27.md, 2026.11.27.md, 27.11.2026.md,
// Nov 27, 2026.md: name-date.ts).
// 4: 2026-11-27 (a markdown link's `?query` is no part of its target: /team/?department=x links team.md).
// 5: 2026-11-27 (names and links keyed without the vault's note extensions, not .md and .markdown: `[[page]]`
// is page.mdx where .mdx notes are; an image link to a note of any of them is an embed).
// 6: 2026-11-27 (frontmatter dates in Unix time, as Dendron writes `updated: 1764244800000`).
// 7: 2026-11-27 (Logseq: page properties title::, alias::, tags::; a page name from its file name, Project___Apollo.md).
// 8: 2026-11-27 (Logseq: a name links the page its file name stands for, [[What?]] is What%3F.md. Rows are
// unchanged, but an index's links are re-resolved only at a sync that writes a note, or at a new version).
// 9: 2026-11-27 (Dendron, a dendron.yml in or above the vault: [[Setup guide|project.setup]] links project.setup.md).
// 10: 2026-11-27 (Bear's closed tags of several words, #travel plans# and #nested/tag with space#).
// 11: 2026-11-27 (a Notion export's property lines under its title date it: Created: November 3, 2023 4:12 PM).
// 12: 2026-11-27 (a Notion export's Tags property line under its title tags it: Tags: Work, Product Launch; タグ: 会議).
// 13: 2026-11-28 (weekly, monthly and quarterly note names dated their first day: 2026-W47.md, 2026-11.md, 2026-Q4.md).
// 14: 2026-11-28 (Periodic Notes' weekly, monthly, quarterly and yearly settings date their notes: `gggg-[W]ww` a locale week, Years/2026.md).
// 15: 2026-11-28 (a markdown image to a local file, `![alt](pic.png)`, is an embed as `![[pic.png]]` is: a missing one
// is a broken link, a present one names its attachment; before, only `![x](note.md)` was one).
// 16: 2026-11-28 (a note's headings past the first 10,000 are the text of the section before them: MAX_HEADING_SECTIONS;
// a frontmatter date that is no day, `0000-00-00` or `2024-02-30`, dates nothing: js-yaml rolled it over to 1899-11-30).
// 17: 2026-11-29 (a heading's inline HTML read as the body's: `## Replace <hostname> first` keeps the placeholder).
// 18: 2026-11-29 (frontmatter keys tsm reads in any case: `Tags:`, `Aliases:` as Obsidian reads them, `Title:`, `Description:` as Hugo does).
// 19: 2026-11-29 (emoji in inline tags, as Obsidian reads them: `#🚀` is a tag, `#done✅` is `done✅`, not `done`).
// 20: 2026-11-29 (frontmatter `aliases: Apollo, Moonshot`, one string, is two aliases, as Obsidian reads it).
// 21: 2026-11-29 (frontmatter status and type in their key form, as filters compare them: NFKC and lower case, so
// `status: レビュー済み` written in NFD is the status `--status レビュー済み` typed in NFC names: text/normalize.ts keyForm).
// 22: 2026-11-29 (a session note whose name holds no day, renamed by its user, is dated by its `started`, not its file's mtime).
// 23: 2026-11-29 (a title or heading is cut to 1,000 characters in the section rows that repeat it: sections.ts MAX_HEADING_CHARS).
// 24: 2026-11-29 (an alias or tag over 200 characters is left out, with a warning: metadata.ts MAX_NAME_CHARS;
// frontmatter nested too deep says so in its warning, not "Maximum call stack size exceeded"; frontmatter never
// closed is read as text with a warning; half a surrogate pair a YAML string escapes is read as U+FFFD; UTF-32 notes).
// 25: 2026-11-29 (a title or first H1 of only control characters, `title: "\e[31m\x01"`, falls back as a blank one does;
// a frontmatter date/updated/created that is no date, `created: yesterday`, is a warning: metadata.ts unreadDateWarnings).
// 26: 2026-11-29 (any heading of only control characters, `## \e[31m\a`, is empty as `## ` is: heading-text.ts headingPlainText;
// the warning for a date that is no date names its key as written, `Created`: metadata.ts unreadDateWarnings; a base-60 value,
// `start: 12:30`, and a title in any number form, `title: 007`, keep the text written: frontmatter.ts keepWrittenNumbers;
// a tag, alias, status or type written as a date keeps its day, `tags: [2026-01-01]`, as a title did: frontmatter.ts TEXT_KEYS).
export const PARSE_VERSION = 26;
