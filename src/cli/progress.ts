// A one-line progress bar on stderr, drawn only on a terminal that takes escapes and at most ~10 times a
// second. Not on TERM=dumb, as npm and cargo draw none there: its `\r\x1b[2K` printed as garbage. NO_COLOR
// does not stop it: it asks for no colour, and the bar has none.
import { takesEscapes } from './stdio.js';

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): {
  update(done: number, total: number): void;
  end(): void;
} {
  if (!takesEscapes(Boolean(stream.isTTY))) return { update() {}, end() {} };
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      const width = 30;
      const filled = total ? Math.round((done / total) * width) : width;
      stream.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`);
      drawn = true;
    },
    end() {
      if (drawn) stream.write('\r\x1b[2K');
    },
  };
}
