/** `invalid-size`: a size that is neither a whole number of bytes nor a size string such as "1 GiB". */
import * as l10n from '@vscode/l10n';
import { spanOf } from '../../json/jsoncTree';
import { ofReading, type QuotaDiagnosticRule } from './quotaDiagnosticRule';

export const invalidSize: QuotaDiagnosticRule = {
  code: 'invalid-size',
  doc: 'A size is neither a byte count nor a size string such as `1 GiB`, so it cannot be read and the previews leave it out.',
  check: ofReading((reading) =>
    reading.sizes.filter((size) => size.error !== undefined).map(({ node, what, error }) => ({ code: 'invalid-size', message: l10n.t('Invalid size for {0}: {1}', what, error!), at: spanOf(node) })),
  ),
};
