// A one-line progress bar on stderr, drawn only on a TTY and at most ~10 times a second.

export function progressBar(label: string, stream: NodeJS.WriteStream = process.stderr): {
  update(done: number, total: number): void;
  end(): void;
} {
  if (!stream.isTTY) return { update() {}, end() {} };
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
