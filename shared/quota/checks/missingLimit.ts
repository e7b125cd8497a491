/** Every rule has a limit (a size, or -1 for unlimited). */
import * as l10n from '@vscode/l10n';
import { headSpan, spanOf } from '../../json/jsoncTree';
import type { QuotaCheck } from './finding';

export const missingLimit: QuotaCheck = (reading) =>
  reading.rules
    .filter((rule) => !rule.limitNode || rule.limitNode.type === 'null')
    .map(({ name, node }) => ({
      code: 'missing-limit',
      message: name ? l10n.t('Rule "{0}" has no limit: give a size such as "1 GiB", or -1 for unlimited', name.value) : l10n.t('Rule has no limit: give a size such as "1 GiB", or -1 for unlimited'),
      at: name ? spanOf(name.node) : headSpan(node),
      data: { name: name?.value },
    }));
