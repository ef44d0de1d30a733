// Changes a vault on disk the way a person and their editor do: edits, atomic saves (write a temporary
// file, rename it over the note), new notes, deletions and moves. Seeded, so a run can be replayed.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { paragraph, Picker, rng } from './vault-gen.js';

export class VaultMutator {
  private readonly p: Picker;
  private readonly paths: string[];
  private n = 0;

  constructor(
    private readonly dir: string,
    seed: number,
    notes: readonly string[],
  ) {
    this.p = new Picker(rng(seed));
    this.paths = [...notes];
  }

  /** Makes one change and says what it was. */
  step(): string {
    const p = this.p;
    this.n++;
    const r = p.random();
    const links = () => `[[${basename(p.pick(this.paths), '.md')}]]`;
    if (r < 0.15 || this.paths.length < 20) {
      const path = `live/note-${this.n}.md`;
      this.write(path, `# live note ${this.n}\n\n## 追記 ${this.n}\n\n${paragraph(p, links)}\n`);
      this.paths.push(path);
      return `create ${path}`;
    }
    const index = p.int(0, this.paths.length - 1);
    const path = this.paths[index];
    const abs = join(this.dir, path);
    if (!existsSync(abs)) return `skip ${path}`;
    if (r < 0.25) {
      rmSync(abs);
      this.paths.splice(index, 1);
      return `delete ${path}`;
    }
    if (r < 0.35) {
      const to = `moved/${this.n}-${basename(path)}`;
      mkdirSync(join(this.dir, 'moved'), { recursive: true });
      renameSync(abs, join(this.dir, to));
      this.paths[index] = to;
      return `move ${path} → ${to}`;
    }
    const text = `${readFileSync(abs, 'utf8')}\n\n## 追記 edit ${this.n}\n\n${paragraph(p, links)}\n`;
    if (r < 0.55) {
      // An editor's atomic save: the new text appears under the note's name in one rename.
      const tmp = join(dirname(abs), `.${basename(abs)}.${this.n}.tmp`);
      writeFileSync(tmp, text);
      renameSync(tmp, abs);
      return `atomic save ${path}`;
    }
    writeFileSync(abs, text);
    return `edit ${path}`;
  }

  private write(path: string, text: string): void {
    const abs = join(this.dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
}
