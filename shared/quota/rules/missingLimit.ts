/** `missing-limit`: a rule with no limit (a size, or -1 for unlimited). */
import * as l10n from '@vscode/l10n';
import { headSpan, spanOf } from '../../json/jsoncTree';
import { ofReading, type QuotaDiagnosticRule } from './quotaDiagnosticRule';

export const missingLimit: QuotaDiagnosticRule = {
  code: 'missing-limit',
  doc: 'A rule has no limit: Forgejo refuses to create it, and the previews leave it out.',
  check: ofReading((reading) =>
    reading.rules
      .filter((rule) => !rule.limitNode || rule.limitNode.type === 'null')
      .map(({ name, node }) => ({
        code: 'missing-limit',
        message: name ? l10n.t('Rule "{0}" has no limit: give a size such as "1 GiB", or -1 for unlimited', name.value) : l10n.t('Rule has no limit: give a size such as "1 GiB", or -1 for unlimited'),
        at: name ? spanOf(name.node) : headSpan(node),
        data: { name: name?.value },
      })),
  ),
};
