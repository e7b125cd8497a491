/** Completion in quota files: subjects, rule names, group names and account names. */
import * as l10n from '@vscode/l10n';
import type { Range } from '../../diagnostics';
import { markdown, type CompletionEntry, type CompletionKind } from '../../features';
import type { QuotaAnalysis } from '../config';
import { CANONICAL_SUBJECTS, LEAF_SUBJECTS, subjectAncestors, subjectDescription } from '../subjects';
import { quotaContextAt } from './location';
import { DEFAULT_FORGEJO_VERSION, FORGEJO_RELEASE_VERSIONS, forgejoProfile, profileDifferences, rulesLabel, type ForgejoProfile } from '../forgejoVersion';

/** What a version's rules do differently from the newest, for completion and hover. */
export function versionDocumentation(profile: ForgejoProfile, differences = profileDifferences(profile)): string {
  return differences.length
    ? `${l10n.t('On {0}, unlike the newest Forgejo:', profile.label)}\n\n${differences.map((d) => `- ${d}`).join('\n')}`
    : l10n.t(
        "{0} follows the newest quota rules: a rule stands while usage is below its limit, a rule on a subject also covers the subjects below it, and uploads are checked against the owner's quota.",
        profile.label,
      );
}

function uniqueNames(analysis: QuotaAnalysis, kind: 'rule' | 'group' | 'account'): string[] {
  const names = analysis.names.occurrences.filter((o) => o.kind === kind && o.role === 'definition').map((o) => o.name);
  if (kind === 'account') names.push(...analysis.accountNames);
  return [...new Set(names)].filter((n) => n !== '');
}

export function quotaCompletion(analysis: QuotaAnalysis, offset: number): CompletionEntry[] {
  const context = quotaContextAt(analysis, offset);
  if (context.kind !== 'subject' && context.kind !== 'name' && context.kind !== 'forgejoVersion') return [];
  // Replace the whole string the cursor is in (quotes included), or insert a quoted value.
  const node = context.node;
  const range: Range = node ? analysis.lines.rangeOf(node) : analysis.lines.rangeOf({ offset, length: 0 });
  const item = (label: string, kind: CompletionKind, detail: string, documentation?: string, sortText?: string): CompletionEntry => ({
    label,
    kind,
    detail,
    ...(documentation ? { documentation: markdown(documentation) } : {}),
    ...(sortText ? { sortText } : {}),
    textEdit: { range, newText: JSON.stringify(label) },
    filterText: JSON.stringify(label),
  });
  if (context.kind === 'forgejoVersion') {
    return FORGEJO_RELEASE_VERSIONS.map((version, i) => {
      const profile = (forgejoProfile(version) as { profile: ForgejoProfile }).profile;
      const differences = profileDifferences(profile);
      return item(
        version,
        'constant',
        version === DEFAULT_FORGEJO_VERSION ? l10n.t('{0} (the default)', rulesLabel(profile)) : rulesLabel(profile),
        versionDocumentation(profile, differences),
        String(i).padStart(2, '0'),
      );
    });
  }
  if (context.kind === 'subject') {
    const subjects = context.leafOnly ? LEAF_SUBJECTS : CANONICAL_SUBJECTS;
    return subjects.map((subject, i) => {
      const ancestors = subjectAncestors(subject);
      return item(
        subject,
        'enum-member',
        subjectDescription(subject),
        ancestors.length ? `${subjectDescription(subject)}\n\n${l10n.t('Ancestors: {0}', ancestors.map((a) => `\`${a}\``).join(' → '))}` : subjectDescription(subject),
        String(i).padStart(2, '0'),
      );
    });
  }
  if (context.role !== 'reference') return [];
  if (context.nameKind === 'rule') {
    return analysis.model.rules
      .filter((rule, i, all) => all.findIndex((r) => r.name === rule.name) === i)
      .map((rule) => {
        const subjects = rule.subjects.join(' + ');
        return item(rule.name, 'reference', subjects ? l10n.t('rule: {0}', subjects) : l10n.t('rule: no subject'));
      });
  }
  if (context.nameKind === 'group') {
    return uniqueNames(analysis, 'group').map((name) => {
      const group = analysis.model.groups.find((g) => g.name === name);
      const rules = group?.rules.join(', ');
      return item(name, 'module', rules ? l10n.t('group: {0}', rules) : l10n.t('group: no rules'));
    });
  }
  if (context.nameKind === 'account') {
    return uniqueNames(analysis, 'account').map((name) => {
      const account = analysis.content.accounts.find((a) => a.name === name);
      return item(name, 'value', account ? (account.admin ? l10n.t('{0}, site admin', account.type) : account.type) : l10n.t('account'));
    });
  }
  return [];
}
