import { strict as assert } from 'node:assert';
import { gzipSync } from 'node:zlib';
import { compressionOf, CorruptCompressedDataError, decodeFile, inflate, InflateLimitError, MAX_FILE_BYTES } from './inflate';

const MIB = 1024 * 1024;
const TEXT = '{"version": 3, "checkpoint": {"stack": "organization/p/s", "latest": {"resources": []}}, "note": "zstd été zstd zstd zstd zstd zstd"}\n';
/** TEXT by `zstd -19`: one frame that declares its size, with a checksum. */
const ZSTD_SIZED = 'KLUv/SSIJQMAooYVFLA9zE2SNoonFNdFI6gwUvsgawlLYH/g3fIelK35Q/llZfwg9j4mlK8r0SvronVZBD+Ir2OOKJ1F2UXEqPxQ/iVk6+tQ3kYn50urpQ+ChPJRukoXfh0DACgE7MI+WJgyAzvq7Y8=';
/** TEXT by `zstd -19 --no-content-size`: streamed block by block, with an 8 MiB window. */
const ZSTD_UNSIZED = 'KLUv/QRoJQMAooYVFLA9zE2SNoonFNdFI6gwUvsgawlLYH/g3fIelK35Q/llZfwg9j4mlK8r0SvronVZBD+Ir2OOKJ1F2UXEqPxQ/iVk6+tQ3kYn50urpQ+ChPJRukoXfh0DACgE7MI+WJgyAzvq7Y8=';

function bytes(...parts: Array<Uint8Array | number[]>): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
const base64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'));
const utf8 = (text: string) => new TextEncoder().encode(text);
const decoded = (input: Uint8Array, maxBytes?: number) => decodeFile(input, { name: 'stack.json.gz', maxBytes }).text;

/** A zstd block header: 3 bytes little-endian, (size << 3) | (type << 1) | last. */
function blockHeader(size: number, type: 0 | 1 | 2 | 3, last: boolean): number[] {
  const header = size * 8 + type * 2 + (last ? 1 : 0);
  return [header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff];
}

/** A zstd frame without a declared size, a 128 KiB window, of raw blocks holding `content`. */
function rawFrame(content: Uint8Array): Uint8Array {
  const parts: Array<Uint8Array | number[]> = [[0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]];
  for (let at = 0; at < content.length || at === 0; at += 128 * 1024) {
    const block = content.subarray(at, at + 128 * 1024);
    parts.push(blockHeader(block.length, 0, at + 128 * 1024 >= content.length), block);
  }
  return bytes(...parts);
}

/** A zstd frame of `count` RLE blocks of 128 KiB of spaces: 4 bytes per 128 KiB. */
function rleFrame(count: number, descriptor: number[] = [0x00, 0x38]): Uint8Array {
  const blocks: number[] = [];
  for (let i = 0; i < count; i++) blocks.push(...blockHeader(128 * 1024, 1, i === count - 1), 0x20);
  return bytes([0x28, 0xb5, 0x2f, 0xfd], descriptor, blocks);
}

function assertRefused(run: () => unknown, type: typeof InflateLimitError | typeof CorruptCompressedDataError, pattern: RegExp): void {
  assert.throws(run, (error: Error) => {
    assert.ok(error instanceof type, `${error.constructor.name}: ${error.message}`);
    assert.match(error.message, pattern);
    return true;
  });
}

describe('shared/text/inflate', () => {
  it('knows gzip and zstd by their magic bytes, and nothing else', () => {
    assert.equal(compressionOf(gzipSync('x')), 'gzip');
    assert.equal(compressionOf(base64(ZSTD_SIZED)), 'zstd');
    assert.equal(compressionOf(utf8('{"version": 3}')), undefined);
    assert.equal(compressionOf(bytes([0x1f])), undefined);
    assert.equal(compressionOf(bytes([0x28, 0xb5, 0x2f])), undefined);
    assert.deepEqual(decodeFile(utf8('\uFEFF{}'), { name: 'plain.json' }), { text: '\uFEFF{}', compression: undefined });
  });

  it('reads gzip, decoding UTF-8 once (a BOM kept)', () => {
    assert.deepEqual(decodeFile(gzipSync(`\uFEFF${TEXT}`), { name: 'a.json.gz' }), { text: `\uFEFF${TEXT}`, compression: 'gzip' });
    assert.equal(decoded(gzipSync('')), '');
  });

  it('reads every member of a multi-member gzip file, as Go does', () => {
    const members = bytes(gzipSync('{"a": '), gzipSync(''), gzipSync('"é"}'));
    assert.equal(decoded(members), '{"a": "é"}');
    // Members split across input steps and a UTF-8 sequence split across members.
    const e = utf8('é');
    const big = 'x'.repeat(20_000);
    assert.equal(decoded(bytes(gzipSync(bytes(utf8(big), [e[0]])), gzipSync(bytes([e[1]], utf8(big))))), `${big}é${big}`);
  });

  it('reads zstd: a sized frame, a streamed one, several frames and skippable frames', () => {
    assert.deepEqual(decodeFile(base64(ZSTD_SIZED), { name: 'a.json.zst' }), { text: TEXT, compression: 'zstd' });
    assert.equal(decoded(base64(ZSTD_UNSIZED)), TEXT);
    const skippable = bytes([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);
    assert.equal(decoded(bytes(base64(ZSTD_SIZED), skippable, base64(ZSTD_UNSIZED), rawFrame(utf8('end')))), `${TEXT}${TEXT}end`);
    const long = 'é'.repeat(200_000);
    assert.equal(decoded(rawFrame(utf8(long))), long);
  });

  it('refuses corrupt gzip: damaged data, a damaged or missing trailer, trailing garbage', () => {
    const good = gzipSync(TEXT.repeat(50));
    const damaged = Uint8Array.from(good);
    damaged.fill(0xff, 12, 40);
    assertRefused(() => decoded(damaged), CorruptCompressedDataError, /^stack\.json\.gz looks gzip-compressed but does not decompress: /);
    assertRefused(() => decoded(good.subarray(0, 40)), CorruptCompressedDataError, /looks gzip-compressed but does not decompress: unexpected EOF/);
    const badCrc = Uint8Array.from(good);
    badCrc[badCrc.length - 6] ^= 1;
    assertRefused(() => decoded(badCrc), CorruptCompressedDataError, /the checksum or the length .* does not match/);
    assertRefused(() => decoded(good.subarray(0, good.length - 3)), CorruptCompressedDataError, /does not match/);
    assertRefused(() => decoded(bytes(good, [0, 0])), CorruptCompressedDataError, /does not match/);
    assertRefused(() => decoded(bytes(good, utf8('garbage!'))), CorruptCompressedDataError, /does not decompress/);
    assertRefused(() => decoded(bytes([0x1f, 0x8b])), CorruptCompressedDataError, /does not decompress/);
  });

  it('refuses corrupt zstd: truncated, a reserved block type, an oversized block, garbage after a frame', () => {
    const good = base64(ZSTD_SIZED);
    assertRefused(() => decoded(good.subarray(0, good.length - 10)), CorruptCompressedDataError, /^stack\.json\.gz looks zstd-compressed but does not decompress: the data ends/);
    assertRefused(() => decoded(bytes([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38], blockHeader(4, 3, true), [1, 2, 3, 4])), CorruptCompressedDataError, /reserved type/);
    assertRefused(() => decoded(bytes([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38], blockHeader(128 * 1024 + 1, 1, true), [0x20])), CorruptCompressedDataError, /larger than 128 KiB/);
    assertRefused(() => decoded(bytes(good, utf8('garbage after the frame'))), CorruptCompressedDataError, new RegExp(`no zstd frame starts at byte ${good.length}`));
    const damaged = Uint8Array.from(good);
    damaged.fill(0xff, 12, 30);
    assertRefused(() => decoded(damaged), CorruptCompressedDataError, /looks zstd-compressed but does not decompress/);
  });

  it('refuses gzip past a configured limit, naming the file and the limit', () => {
    const zeros = new Uint8Array(MIB);
    assert.equal(inflate(gzipSync(zeros), { name: 'at.json.gz', maxBytes: MIB }).length, MIB);
    assertRefused(() => inflate(gzipSync(new Uint8Array(MIB + 1)), { name: 'over.json.gz', maxBytes: MIB }), InflateLimitError, /^over\.json\.gz decompresses to more than 1 MiB, the limit/);
    // Past the limit over several members, each under it.
    assertRefused(() => inflate(bytes(gzipSync(zeros), gzipSync(bytes([1]))), { name: 'members.json.gz', maxBytes: MIB }), InflateLimitError, /members\.json\.gz .* 1 MiB/);
    const error = (() => {
      try {
        inflate(gzipSync(new Uint8Array(3 * MIB)), { name: 'x', maxBytes: 2 * MIB });
      } catch (caught) {
        return caught as InflateLimitError;
      }
    })();
    assert.deepEqual([error?.file, error?.limit], ['x', 2 * MIB]);
  });

  it('refuses zstd past a configured limit: as it streams, or at once when a frame declares more or needs a larger window', () => {
    assert.equal(inflate(rleFrame(8), { name: 'at.json.zst', maxBytes: MIB }).length, MIB);
    assertRefused(() => inflate(rleFrame(9), { name: 'over.json.zst', maxBytes: MIB }), InflateLimitError, /^over\.json\.zst decompresses to more than 1 MiB, the limit/);
    // 1 GiB of spaces in 32 KiB: refused after the first MiB.
    assertRefused(() => inflate(rleFrame(8192), { name: 'bomb.json.zst', maxBytes: MIB }), InflateLimitError, /bomb\.json\.zst decompresses to more than 1 MiB/);
    // A frame that declares 4 GiB (8-byte content size) is refused before any block is decoded.
    const declared = bytes([0x28, 0xb5, 0x2f, 0xfd, 0xc0], [0, 0, 0, 0, 1, 0, 0, 0], blockHeader(0, 0, true));
    assertRefused(() => inflate(declared, { name: 'declared.json.zst' }), InflateLimitError, /declared\.json\.zst decompresses to more than 256 MiB/);
    // A 2 GiB window (exponent 21) would be allocated before the first block.
    assertRefused(
      () => inflate(rleFrame(1, [0x00, 21 << 3]), { name: 'window.json.zst', maxBytes: MIB }),
      InflateLimitError,
      /window\.json\.zst needs a 2048 MiB window to decompress, over the 1 MiB limit/,
    );
    assert.equal(MAX_FILE_BYTES, 256 * MIB);
  });
});
