/** Every size is a whole number of bytes or a size string such as "1 GiB". */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import type { QuotaCheck } from './finding';

export const invalidSizes: QuotaCheck = (reading) =>
  reading.sizes.filter((size) => size.error !== undefined).map(({ node, what, error }) => ({ code: 'invalid-size', message: l10n.t('Invalid size for {0}: {1}', what, error!), at: spanOf(node) }));
