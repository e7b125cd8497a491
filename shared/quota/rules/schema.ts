/** `schema`: a value has the wrong shape for a quota config file (the JSON Schema's verdict), or usage is given for an aggregate subject. */
import * as l10n from '@vscode/l10n';
import { getNodeValue, type Node } from 'jsonc-parser';
import { describeJsonType, headSpan, spanOf } from '../../json/jsoncTree';
// ajv standalone code generated from schemas/ at build time (scripts/generate-validators.mjs); no schema is compiled at run time.
import { config as quotaConfigValidator } from '../../validators/quotaConfigValidator';
import type { QuotaReading } from '../reader';
import { canonicalSubject, subjectLeaves } from '../subjects';
import type { QuotaDiagnosticRule, QuotaFile, QuotaFinding } from './quotaDiagnosticRule';
import { relevantSchemaErrors, schemaError } from './schemaErrors';

/** The JSON Schema's errors of an object root, each in words, except those another code reports. */
function validationFindings(root: Node): QuotaFinding[] {
  const value = getNodeValue(root) as unknown;
  if (quotaConfigValidator(value)) return [];
  return relevantSchemaErrors(quotaConfigValidator.errors ?? []).map((error) => {
    const { message, span } = schemaError(root, error);
    return { code: 'schema', message, at: span };
  });
}

/** Usage is given per leaf subject: an aggregate is the sum of its leaves (none and size:assets:wiki measure nothing and pass). */
function aggregateUsage(reading: QuotaReading): QuotaFinding[] {
  return reading.aggregateUsage.flatMap(({ key, subject }) => {
    const canonical = canonicalSubject(subject)!;
    if (canonical === 'none' || canonical === 'size:assets:wiki') return [];
    return [{ code: 'schema', message: l10n.t('Usage is given per leaf subject: {0} is the sum of {1}; give those instead', subject, subjectLeaves(canonical).join(', ')), at: spanOf(key) }];
  });
}

function schemaFindings({ root, parseErrors, reading }: QuotaFile): QuotaFinding[] {
  if (!root) {
    // Text that parses to nothing without a syntax error is empty (or only comments).
    return parseErrors.length > 0
      ? []
      : [{ code: 'schema', message: l10n.t('The file is empty: a quota config is a JSON object such as {0}', '{ "rules": [], "groups": [] }'), at: { offset: 0, length: 0 } }];
  }
  if (root.type !== 'object') return [{ code: 'schema', message: l10n.t('A quota config must be a JSON object, not {0}', describeJsonType(root)), at: headSpan(root) }];
  return [...validationFindings(root), ...(reading ? aggregateUsage(reading) : [])];
}

export const schema: QuotaDiagnosticRule = {
  code: 'schema',
  doc: 'A value has the wrong shape for a quota config or instance file, or usage is given for an aggregate subject, so the previews cannot read it as written.',
  check: schemaFindings,
};
