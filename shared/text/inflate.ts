/**
 * Compressed files, read within a limit. Compression is known by its magic bytes, as Pulumi sniffs
 * it: gzip (one member or several, concatenated, as Go's reader reads them, each member's CRC-32 and
 * size checked) and zstd. Decoding streams the input in chunks and stops as soon as the output
 * passes the limit, so a small file that would inflate to gigabytes (a compression bomb) costs at
 * most the limit in memory. Pure: bytes in, bytes or text out, in Node and in browsers alike.
 */
import * as l10n from '@vscode/l10n';
import type * as Fflate from 'fflate';
import type * as Fzstd from 'fzstd';

// The decoders load on first use: building their tables costs every start milliseconds, and most
// starts never meet a compressed file. (A bundler keeps a required module lazy; an import it hoists.)
let fflate: typeof Fflate | undefined;
let fzstd: typeof Fzstd | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const gzipDecoder = () => (fflate ??= require('fflate') as typeof Fflate);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const zstdDecoder = () => (fzstd ??= require('fzstd') as typeof Fzstd);

/** The largest file read, on disk and decompressed alike (a string holds at most ~512 MiB). */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

export type Compression = 'gzip' | 'zstd';

/** Deflate's largest expansion: no gzip file inflates to more than 1032 times its size. */
const DEFLATE_MAX_RATIO = 1032;
/** Input fed per step: at most ~8 MiB of output. */
const GZIP_STEP = 8 * 1024;
/** zstd emits block by block (at most 128 KiB each), so its steps can be larger. */
const ZSTD_STEP = 64 * 1024;
const ZSTD_MAX_BLOCK = 128 * 1024;
const ZSTD_MAGIC = 0xfd2fb528;

/** Why a compressed file was not read; the message names the file. */
export class InflateError extends Error {}

/** The file decompresses (or says it will) to more than the limit; reading stopped there. */
export class InflateLimitError extends InflateError {
  constructor(
    readonly file: string,
    readonly limit: number,
    message = l10n.t('{0} decompresses to more than {1}, the limit for a decompressed file; it was not read further', file, formatMiB(limit)),
  ) {
    super(message);
  }
}

/** The bytes start like gzip or zstd but are not a valid stream of it. */
export class CorruptCompressedDataError extends InflateError {
  constructor(file: string, compression: Compression, reason: string) {
    super(l10n.t('{0} looks {1}-compressed but does not decompress: {2}', file, compression, reason));
  }
}

/** The command's decompression work is spent: the file was not read. */
export class InflateBudgetError extends InflateError {
  constructor(
    readonly file: string,
    readonly limit: number,
  ) {
    super(l10n.t('{0} was not read: this command has decompressed {1}, its limit for all the files it reads', file, formatMiB(limit)));
  }
}

/**
 * What one command may decompress across every file it reads: each file is bounded on its own
 * (`maxBytes`), and this bounds their sum, so that many files that each stay under the limit cannot
 * cost minutes and gigabytes. Work is bytes inflated plus the window each zstd frame without a
 * declared size makes the decoder allocate (a tiny frame may declare hundreds of MiB). Create one
 * per command and pass it to every `inflate`/`decodeFile` the command makes.
 */
export class InflateBudget {
  private spent = 0;
  constructor(readonly maxBytes: number) {}

  /** The work charged so far. */
  get used(): number {
    return this.spent;
  }

  /** Charges `bytes` of work for `file`; past the budget, refuses the file. */
  charge(file: string, bytes: number): void {
    this.spent += bytes;
    if (this.spent > this.maxBytes) throw new InflateBudgetError(file, this.maxBytes);
  }
}

export interface InflateOptions {
  /** The file, as messages name it. */
  name: string;
  /** The most bytes the output may hold; default `MAX_FILE_BYTES`. */
  maxBytes?: number;
  /** The command's budget, charged with this file's work. */
  budget?: InflateBudget;
}

/** A file's text and how it was stored. */
export interface DecodedFile {
  text: string;
  compression: Compression | undefined;
}

function formatMiB(bytes: number): string {
  return `${Number((bytes / 1024 / 1024).toFixed(2))} MiB`;
}

/** gzip (1f 8b) or zstd (28 b5 2f fd) by the first bytes; undefined for anything else. */
export function compressionOf(bytes: Uint8Array): Compression | undefined {
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  if (bytes.length >= 4 && readU32(bytes, 0) === ZSTD_MAGIC) return 'zstd';
  return undefined;
}

/** The decompressed bytes of a gzip or zstd file (other bytes are returned as they are). */
export function inflate(bytes: Uint8Array, { name, maxBytes = MAX_FILE_BYTES, budget }: InflateOptions): Uint8Array {
  const compression = compressionOf(bytes);
  if (!compression) return bytes;
  const sink = new Sink(name, maxBytes, true, budget);
  try {
    if (compression === 'gzip') gunzipInto(bytes, sink, name);
    else unzstdInto(bytes, sink, name, maxBytes, budget);
  } catch (error) {
    if (error instanceof InflateError) throw error;
    throw new CorruptCompressedDataError(name, compression, error instanceof Error ? error.message : String(error));
  }
  return sink.bytes();
}

/** A file's text: decompressed first when compressed, then decoded from UTF-8 once (a BOM is kept, as Node's decoder keeps it). */
export function decodeFile(bytes: Uint8Array, options: InflateOptions): DecodedFile {
  const compression = compressionOf(bytes);
  const plain = compression ? inflate(bytes, options) : bytes;
  return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(plain), compression };
}

/**
 * The output so far, refused the moment it passes the limit. It keeps the chunks, or copies them into
 * one buffer when the size is known (`expect`), or keeps nothing (a counting pass).
 */
class Sink {
  private chunks: Uint8Array[] = [];
  private buffer: Uint8Array | undefined;
  total = 0;
  constructor(
    private readonly name: string,
    readonly maxBytes: number,
    private readonly keep = true,
    /** Charged with every chunk; a second pass over the same output is not charged again. */
    public budget?: InflateBudget,
  ) {}

  expect(size: number): void {
    this.buffer = new Uint8Array(size);
  }

  add(chunk: Uint8Array): void {
    this.total += chunk.length;
    if (this.total > this.maxBytes) {
      this.chunks = [];
      this.buffer = undefined;
      throw new InflateLimitError(this.name, this.maxBytes);
    }
    this.budget?.charge(this.name, chunk.length);
    if (!this.keep || chunk.length === 0) return;
    if (!this.buffer) this.chunks.push(chunk);
    else if (this.total <= this.buffer.length) this.buffer.set(chunk, this.total - chunk.length);
    else throw new Error('the output differs from one pass to the next');
  }

  bytes(): Uint8Array {
    if (this.buffer) return this.buffer;
    const chunks = this.chunks;
    this.chunks = [];
    if (chunks.length === 1) return chunks[0];
    const out = new Uint8Array(this.total);
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

function readU32(bytes: Uint8Array, at: number): number {
  return (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
}

function feed(bytes: Uint8Array, step: number, push: (chunk: Uint8Array, final: boolean) => void): void {
  for (let at = 0; at < bytes.length; at += step) push(bytes.subarray(at, at + step), at + step >= bytes.length);
}

// gzip ------------------------------------------------------------------------------------------

let crcTables: Int32Array | undefined;

/** CRC-32 (gzip's), eight bytes a step ("slicing by 8"): a plain byte loop costs as much as inflating. */
function crc32(crc: number, data: Uint8Array): number {
  const t = (crcTables ??= crc32Tables());
  let c = ~crc;
  let i = 0;
  for (const last = data.length - 8; i <= last; i += 8) {
    const a = c ^ (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24));
    c =
      t[1792 + (a & 0xff)] ^ t[1536 + ((a >>> 8) & 0xff)] ^ t[1280 + ((a >>> 16) & 0xff)] ^ t[1024 + (a >>> 24)] ^ t[768 + data[i + 4]] ^ t[512 + data[i + 5]] ^ t[256 + data[i + 6]] ^ t[data[i + 7]];
  }
  for (; i < data.length; i++) c = t[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

function crc32Tables(): Int32Array {
  const t = new Int32Array(256 * 8);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c;
  }
  for (let k = 1; k < 8; k++) for (let n = 0; n < 256; n++) t[k * 256 + n] = (t[(k - 1) * 256 + n] >>> 8) ^ t[t[(k - 1) * 256 + n] & 0xff];
  return t;
}

/**
 * The decoder leaves garbage of about twice its output, which the engine collects only once tens of
 * MiB have piled up: on top of output near the limit, that is too much. So a file that could inflate
 * past the limit is first inflated keeping nothing, to learn its size (a bomb is refused then,
 * holding nothing), and then again into one buffer of that size.
 */
function gunzipInto(bytes: Uint8Array, sink: Sink, name: string): void {
  if (bytes.length * DEFLATE_MAX_RATIO > sink.maxBytes) {
    const counter = new Sink(name, sink.maxBytes, false, sink.budget);
    gunzipMembers(bytes, counter, name, false);
    sink.expect(counter.total);
    sink.budget = undefined;
  }
  gunzipMembers(bytes, sink, name, true);
}

/** Every member, one after another; each member's trailer (CRC-32, size mod 2³²) must match its output, as Go checks it. */
function gunzipMembers(bytes: Uint8Array, sink: Sink, name: string, verify: boolean): void {
  let crc = 0;
  let size = 0;
  const checkTrailer = (end: number) => {
    if (!verify) return;
    if (end < 8 || readU32(bytes, end - 8) !== crc || readU32(bytes, end - 4) !== size % 2 ** 32) {
      throw new CorruptCompressedDataError(name, 'gzip', l10n.t('the checksum or the length at byte {0} does not match the data (truncated or damaged)', end));
    }
    crc = 0;
    size = 0;
  };
  const gunzip = new (gzipDecoder().Gunzip)((chunk) => {
    sink.add(chunk);
    if (verify) crc = crc32(crc, chunk);
    size += chunk.length;
  });
  // The next member starts at `offset`: the previous one's trailer ends there.
  gunzip.onmember = (offset) => checkTrailer(offset);
  feed(bytes, GZIP_STEP, (chunk, final) => gunzip.push(chunk, final));
  checkTrailer(bytes.length);
}

// zstd ------------------------------------------------------------------------------------------

interface ZstdFrameHeader {
  /** Bytes of the header after the magic number. */
  length: number;
  window: number;
  /** The decompressed size the frame declares, if it does. */
  contentSize: number | undefined;
  checksum: boolean;
  dictionary: boolean;
}

function zstdFrameHeader(bytes: Uint8Array, at: number): ZstdFrameHeader {
  const descriptor = bytes[at];
  const sizeFlag = descriptor >> 6;
  const singleSegment = (descriptor >> 5) & 1;
  const dictionaryBytes = [0, 1, 2, 4][descriptor & 3];
  const sizeBytes = [singleSegment, 2, 4, 8][sizeFlag];
  let offset = at + 1 + (singleSegment ? 0 : 1) + dictionaryBytes;
  let contentSize: number | undefined;
  if (sizeBytes > 0) {
    contentSize = 0;
    for (let i = sizeBytes - 1; i >= 0; i--) contentSize = contentSize * 256 + bytes[offset + i];
    if (sizeBytes === 2) contentSize += 256;
  }
  offset += sizeBytes;
  let window = contentSize ?? 0;
  if (!singleSegment) {
    const exponent = bytes[at + 1] >> 3;
    const base = 2 ** (10 + exponent);
    window = base + (base / 8) * (bytes[at + 1] & 7);
  }
  const dictionary = dictionaryBytes > 0 && bytes.subarray(at + 1 + (singleSegment ? 0 : 1), at + 1 + (singleSegment ? 0 : 1) + dictionaryBytes).some((b) => b !== 0);
  return { length: offset - at, window, contentSize, checksum: ((descriptor >> 2) & 1) === 1, dictionary };
}

/** The end of a frame's blocks: each is a 3-byte header and its payload (one byte for an RLE block). */
function zstdBlocksEnd(bytes: Uint8Array, at: number, corrupt: (reason: string) => Error): number {
  for (;;) {
    if (at + 3 > bytes.length) throw corrupt(l10n.t('the data ends in the middle of a block'));
    const header = bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16);
    const type = (header >> 1) & 3;
    const size = header >>> 3;
    if (type === 3) throw corrupt(l10n.t('a block at byte {0} has the reserved type', at));
    if (size > ZSTD_MAX_BLOCK) throw corrupt(l10n.t('a block at byte {0} is larger than 128 KiB', at));
    at += 3 + (type === 1 ? 1 : size);
    if (header & 1) return at;
  }
}

interface ZstdFrame {
  start: number;
  end: number;
  contentSize: number | undefined;
  window: number;
}

/**
 * Walks the frames before decoding any: a frame that declares more than the limit, or needs a
 * window larger than it (the decoder allocates the window up front), is refused at once, and a
 * malformed stream is refused before it costs anything. So is a file whose frames together ask for
 * more than the limit, each its declared size or else its window: a few bytes per frame can ask for
 * 240 MiB each, and allocating them costs a second apiece.
 */
function zstdFrames(bytes: Uint8Array, name: string, maxBytes: number): ZstdFrame[] {
  const corrupt = (reason: string) => new CorruptCompressedDataError(name, 'zstd', reason);
  const frames: ZstdFrame[] = [];
  let at = 0;
  let declared = 0;
  let allocated = 0;
  while (at < bytes.length) {
    if (at + 8 > bytes.length) throw corrupt(l10n.t('the data ends in the middle of a frame'));
    const magic = readU32(bytes, at);
    if (magic >>> 4 === 0x184d2a5) {
      at += 8 + readU32(bytes, at + 4); // a skippable frame
      continue;
    }
    if (magic !== ZSTD_MAGIC) throw corrupt(l10n.t('no zstd frame starts at byte {0}', at));
    const header = zstdFrameHeader(bytes, at + 4);
    if (at + 4 + header.length > bytes.length) throw corrupt(l10n.t('the data ends in the middle of a frame'));
    if ((bytes[at + 4] & 8) !== 0) throw corrupt(l10n.t('the frame at byte {0} sets a reserved bit', at));
    if (header.dictionary) throw corrupt(l10n.t('the frame at byte {0} needs a dictionary', at));
    if (header.window > maxBytes) {
      throw new InflateLimitError(name, maxBytes, l10n.t('{0} needs a {1} window to decompress, over the {2} limit for a decompressed file', name, formatMiB(header.window), formatMiB(maxBytes)));
    }
    declared += header.contentSize ?? 0;
    if (declared > maxBytes) throw new InflateLimitError(name, maxBytes);
    allocated += header.contentSize ?? header.window;
    if (allocated > maxBytes) {
      throw new InflateLimitError(name, maxBytes, l10n.t('{0} has zstd frames whose windows add up to more than {1}, the limit for a decompressed file', name, formatMiB(maxBytes)));
    }
    const end = zstdBlocksEnd(bytes, at + 4 + header.length, corrupt) + (header.checksum ? 4 : 0);
    frames.push({ start: at, end, contentSize: header.contentSize, window: header.window });
    at = end;
  }
  if (at > bytes.length) throw corrupt(l10n.t('the data ends in the middle of a frame'));
  return frames;
}

/**
 * A frame that declares its size is decoded whole into a buffer of that size, which is also its
 * window (a frame that lies cannot write past it). Others stream block by block, the decoder
 * keeping the frame's window (at most the limit); the sink refuses them as they pass the limit.
 */
function unzstdInto(bytes: Uint8Array, sink: Sink, name: string, maxBytes: number, budget: InflateBudget | undefined): void {
  for (const frame of zstdFrames(bytes, name, maxBytes)) {
    const data = bytes.subarray(frame.start, frame.end);
    if (frame.contentSize) {
      budget?.charge(name, frame.contentSize);
      sink.budget = undefined;
      sink.add(zstdDecoder().decompress(data));
      sink.budget = budget;
      continue;
    }
    budget?.charge(name, frame.window);
    const stream = new (zstdDecoder().Decompress)((chunk) => sink.add(chunk));
    feed(data, ZSTD_STEP, (chunk, final) => stream.push(chunk, final));
  }
}
