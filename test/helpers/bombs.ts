/**
 * Compression bombs for the tests, crafted rather than compressed (compressing gigabytes of zeros
 * takes seconds per GiB): gzip as deflate segments of 1 MiB of zeros (each ends on a full flush, so
 * they chain) under a correct trailer; zstd as frames of 128 KiB RLE blocks, 4 bytes each. Both pass
 * `gzip -t` and `zstd -t`.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';

const MIB = 1024 * 1024;

/** A gzip file of `members` members that inflates to `gib` GiB of zeros; valid, CRC-32 and sizes included. */
export function gzipBomb(gib: number, members: number): Buffer {
  const zeros = Buffer.alloc(MIB);
  const segment = deflateRawSync(zeros, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const segments = (gib * 1024) / members;
  let crc = 0;
  for (let i = 0; i < segments; i++) crc = crc32(zeros, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((segments * MIB) % 2 ** 32, 4);
  // Header (deflate, no name, OS unknown); the segments; a final empty fixed-Huffman block (03 00); the trailer.
  const member = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]), ...new Array<Buffer>(segments).fill(segment), Buffer.from([3, 0]), trailer]);
  return Buffer.concat(new Array<Buffer>(members).fill(member));
}

/** A zstd frame (no declared size, 128 KiB window) of RLE blocks of zeros that inflates to `gib` GiB. */
export function zstdBomb(gib: number): Buffer {
  const blocks = gib * 8 * 1024;
  const frame = Buffer.alloc(6 + blocks * 4);
  frame.set([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]);
  for (let i = 0; i < blocks; i++) {
    const header = ((128 * 1024) << 3) | (1 << 1) | (i === blocks - 1 ? 1 : 0);
    frame.set([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff, 0], 6 + i * 4);
  }
  return frame;
}
