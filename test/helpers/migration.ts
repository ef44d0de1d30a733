// The steps every in-place migration test takes (src/index/migrate.ts): give an index vectors, downgrade
// it by hand, then check the next writer migrated it — not rebuilt it — keeping every vector.
import { expect } from 'vitest';
import { openWriter } from '../../src/index/db.js';
import { embedPending } from '../../src/index/embed-job.js';
import type { Embedder } from '../../src/embed/types.js';
import { SCHEMA_VERSION } from '../../src/index/schema.js';

/** Embeds every section of the index with `embedder`; returns the stored vectors by section id. */
export async function embedAll(file: string, embedder: Embedder): Promise<Buffer[]> {
  const { db } = openWriter(file);
  try {
    await embedPending(db, embedder);
    const vectors = db.prepare('SELECT vec FROM section_vectors ORDER BY id').pluck().all() as Buffer[];
    expect(vectors.length).toBeGreaterThan(0);
    return vectors;
  } finally {
    db.close();
  }
}

/** Opens the writer on a downgraded index: migrated in place to the current version, its vectors kept. */
export function expectMigratedInPlace(file: string, vectors: Buffer[]): void {
  const opened = openWriter(file);
  try {
    expect(opened.fresh).toBe(false);
    expect(opened.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()).toBe(String(SCHEMA_VERSION));
    expect(opened.db.prepare('SELECT vec FROM section_vectors ORDER BY id').pluck().all()).toEqual(vectors);
  } finally {
    opened.db.close();
  }
}
