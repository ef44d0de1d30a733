// A model.onnx that holds its weights inline is read whole into memory by the ONNX runtime, and its weights
// are then copied into tensors: loading multilingual-e5-small's shape (470 MB) peaked at 916 MB resident and
// stayed at 614 MB. The same graph with its weights in a separate file ("external data") is memory-mapped:
// 196 MB peak, 171 MB after load, load in 0.26 s instead of 1.5 s, the same speed (measured with
// bench/make-embed-model.py's models on our shared 2-core machine, docs/embeddings.md).
//
// So the first load of a large inline model writes that layout once into <model folder>/.tsm-mmap/: the
// graph with every large initializer moved to weights.bin (page-aligned), keyed by the sha256 of the
// original. The original stays as it is (it is what the fingerprint and `tsm model pull` check); a folder
// tsm cannot write to is loaded as it is.
//
// ONNX's ModelProto is protobuf. Only initializers' raw_data is moved; every other field is copied byte for byte.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Models smaller than this load fast enough as they are (ruri-v3-30m's 155 MB is above it). */
export const EXTERNAL_MIN_BYTES = 32 * 1024 * 1024;
/** Initializers smaller than this stay inline: moving them saves nothing. */
const MIN_TENSOR_BYTES = 1024;
const ALIGN = 4096;
export const MMAP_DIR = '.tsm-mmap';
const WEIGHTS = 'weights.bin';

// onnx.proto field numbers.
const MODEL_GRAPH = 7;
const GRAPH_INITIALIZER = 5;
const TENSOR_RAW_DATA = 9;
const TENSOR_EXTERNAL_DATA = 13;
const TENSOR_DATA_LOCATION = 14;
const LOCATION_EXTERNAL = 1;

/**
 * The path to give the runtime for `onnxPath`: the external-data copy in .tsm-mmap/ (written now when
 * missing or stale), or `onnxPath` itself when the model is small, already external, or the folder is
 * read-only. Never throws for a layout it does not understand: it then loads the original.
 */
export function mappableModel(onnxPath: string, sha256: string, size: number, minBytes = EXTERNAL_MIN_BYTES): string {
  if (size < minBytes) return onnxPath;
  const dir = join(onnxPath, '..', MMAP_DIR);
  const model = join(dir, 'model.onnx');
  const source = join(dir, 'source.json');
  try {
    if (existsSync(model) && JSON.parse(readFileSync(source, 'utf8')).sha256 === sha256) return model;
  } catch {
    // unreadable: write it again
  }
  try {
    return writeExternal(onnxPath, dir, sha256) ? model : onnxPath;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return onnxPath;
  }
}

/** Writes dir/model.onnx + dir/weights.bin; false when the model has nothing to move (or is external already). */
function writeExternal(onnxPath: string, dir: string, sha256: string): boolean {
  const buf = readFileSync(onnxPath);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const weightsTmp = join(dir, `${WEIGHTS}.${process.pid}.tmp`);
  const fd = openSync(weightsTmp, 'w');
  let offset = 0;
  let moved = 0;
  let external = false;
  const writeWeights = (data: Uint8Array): number => {
    const at = Math.ceil(offset / ALIGN) * ALIGN;
    if (at > offset) writeSync(fd, Buffer.alloc(at - offset));
    writeSync(fd, data);
    offset = at + data.length;
    moved++;
    return at;
  };

  const tensor = (t: Uint8Array): Uint8Array => {
    const fields = parse(t);
    if (fields.some((f) => f.field === TENSOR_DATA_LOCATION && f.value === LOCATION_EXTERNAL)) external = true;
    const raw = fields.find((f) => f.field === TENSOR_RAW_DATA && f.wire === 2);
    if (external || !raw || raw.data!.length < MIN_TENSOR_BYTES) return t;
    const at = writeWeights(raw.data!);
    const entry = (k: string, v: string): Uint8Array => lengthDelimited(TENSOR_EXTERNAL_DATA, concat([lengthDelimited(1, utf8(k)), lengthDelimited(2, utf8(v))]));
    return concat([
      ...fields.filter((f) => f !== raw).map((f) => f.bytes),
      entry('location', WEIGHTS),
      entry('offset', String(at)),
      entry('length', String(raw.data!.length)),
      Uint8Array.from([...varint((TENSOR_DATA_LOCATION << 3) | 0), ...varint(LOCATION_EXTERNAL)]),
    ]);
  };
  const graph = (g: Uint8Array): Uint8Array => concat(parse(g).map((f) => (f.field === GRAPH_INITIALIZER && f.wire === 2 ? lengthDelimited(f.field, tensor(f.data!)) : f.bytes)));
  let out: Uint8Array;
  try {
    out = concat(parse(buf).map((f) => (f.field === MODEL_GRAPH && f.wire === 2 ? lengthDelimited(f.field, graph(f.data!)) : f.bytes)));
  } finally {
    closeSync(fd);
  }
  if (external || moved === 0) {
    rmSync(dir, { recursive: true, force: true });
    return false;
  }
  renameSync(weightsTmp, join(dir, WEIGHTS));
  const modelTmp = join(dir, `model.onnx.${process.pid}.tmp`);
  writeFileSync(modelTmp, out);
  renameSync(modelTmp, join(dir, 'model.onnx'));
  writeFileSync(join(dir, 'source.json'), JSON.stringify({ sha256, tensors: moved, bytes: offset }) + '\n');
  return true;
}

// --- protobuf wire format ----------------------------------------------------------------------------------

interface Field {
  field: number;
  wire: number;
  /** The whole field, key included, as it was. */
  bytes: Uint8Array;
  /** Payload of a length-delimited field. */
  data?: Uint8Array;
  /** Value of a varint field (up to 2^53). */
  value?: number;
}

function readVarint(b: Uint8Array, pos: number): [number, number] {
  let v = 0;
  let mul = 1;
  for (;;) {
    if (pos >= b.length) throw new Error('truncated varint');
    const byte = b[pos++]!;
    v += (byte & 0x7f) * mul;
    if (byte < 0x80) return [v, pos];
    mul *= 128;
    if (mul > 2 ** 63) throw new Error('varint too long');
  }
}

function parse(b: Uint8Array): Field[] {
  const out: Field[] = [];
  let pos = 0;
  while (pos < b.length) {
    const start = pos;
    const [key, p1] = readVarint(b, pos);
    pos = p1;
    const field = Math.floor(key / 8);
    const wire = key & 7;
    let data: Uint8Array | undefined;
    let value: number | undefined;
    if (wire === 0) [value, pos] = readVarint(b, pos);
    else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else if (wire === 2) {
      const [len, p2] = readVarint(b, pos);
      data = b.subarray(p2, p2 + len);
      pos = p2 + len;
    } else throw new Error(`unsupported wire type ${wire}`);
    if (pos > b.length) throw new Error('truncated field');
    out.push({ field, wire, bytes: b.subarray(start, pos), data, value });
  }
  return out;
}

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

function lengthDelimited(field: number, data: Uint8Array): Uint8Array {
  return concat([Uint8Array.from([...varint((field << 3) | 2), ...varint(data.length)]), data]);
}

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

function concat(parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}
