/** Every size is a whole number of bytes or a size string such as "1 GiB". */
import { spanOf } from '../../json/jsoncTree';
import type { QuotaCheck } from './finding';

export const invalidSizes: QuotaCheck = (reading) =>
  reading.sizes.filter((size) => size.error !== undefined).map(({ node, what, error }) => ({ code: 'invalid-size', message: `Invalid size for ${what}: ${error}`, at: spanOf(node) }));
