import { strict as assert } from 'node:assert';
import { describeSize, formatSize, formatSizeExact, parseSize, SIZE_STRING_PATTERN } from '../../../shared/quota/sizes';

describe('sizes', () => {
  const accepted: Array<[unknown, number]> = [
    [500, 500],
    ['500', 500],
    ['2k', 2000],
    ['2K', 2000],
    ['2kB', 2000],
    ['3G', 3_000_000_000],
    ['3GiB', 3 * 2 ** 30],
    ['3 gib', 3 * 2 ** 30],
    ['1 GiB', 2 ** 30],
    ['  10 MB ', 10_000_000],
    ['2Ki', 2048],
    ['1.5 GiB', 1.5 * 2 ** 30],
    ['7B', 7],
    [-1, -1],
    ['-1', -1],
    [0, 0],
    ['0', 0],
    [-5, -5],
  ];
  for (const [input, bytes] of accepted) {
    it(`parses ${JSON.stringify(input)} as ${bytes} bytes`, () => {
      assert.deepEqual(parseSize(input), { ok: true, bytes });
      if (typeof input === 'string') assert.match(input, new RegExp(SIZE_STRING_PATTERN));
    });
  }

  const rejected: unknown[] = ['', 'hello', 'unlimited', '1 GB GB', '1.5', 'GiB', '1e3', 1.5, NaN, Infinity, true, null, [], {}, '12,345', '9EiB', 2 ** 60];
  for (const input of rejected) {
    it(`rejects ${typeof input === 'number' ? String(input) : JSON.stringify(input)} with a clear error`, () => {
      const result = parseSize(input);
      assert.equal(result.ok, false);
      if (!result.ok) assert.ok(result.error.length > 10, result.error);
      if (typeof input === 'string' && input !== '1.5' && input !== '9EiB') assert.doesNotMatch(input, new RegExp(SIZE_STRING_PATTERN));
    });
  }

  it('round-trips the exact form for many values', () => {
    const values = [1, 999, 1024, 1536, 2 ** 20, 3 * 2 ** 30, 2 ** 40 + 1, 5 * 2 ** 50, Number.MAX_SAFE_INTEGER, 123456789];
    for (const bytes of values) {
      const written = formatSizeExact(bytes);
      assert.deepEqual(parseSize(written), { ok: true, bytes }, `${bytes} → ${written}`);
    }
    assert.equal(formatSizeExact(3 * 2 ** 30), '3 GiB');
    assert.equal(formatSizeExact(1000), 1000);
  });

  it('formats for people', () => {
    assert.equal(formatSize(-1), 'unlimited');
    assert.equal(formatSize(512), '512 B');
    assert.equal(formatSize(300 * 2 ** 20), '300 MiB');
    assert.equal(formatSize(1.5 * 2 ** 30), '1.5 GiB');
    assert.equal(describeSize(2 ** 30), '1073741824 bytes (1 GiB)');
    assert.equal(describeSize(-1), 'unlimited (-1)');
  });
});
