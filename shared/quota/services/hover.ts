/** Hovers in quota files: sizes, subjects, rules, groups and accounts. */
import * as l10n from '@vscode/l10n';
import type { Node } from 'jsonc-parser';
import { markdownLines, type HoverResult } from '../../features';
import type { QuotaAnalysis } from '../config';
import { explainAccount } from '../explain';
import { fileForgejoProfile } from '../report';
import { rulesLabel, type ResolvedForgejoProfile } from '../forgejoVersion';
import { versionDocumentation } from './completion';
import { describeSize, formatSize, parseSizeExact } from '../sizes';
import type { NameOccurrence } from '../reader';
import { canonicalSubject, isSubjectAlias, subjectAncestors, subjectDescription, type Subject } from '../subjects';
import { ruleFigure } from './describe';
import { occurrenceAt, quotaContextAt, type QuotaContext } from './location';
import type { PreviewAccount } from './previews';

/** `forgejoVersion`: whose rules the previews follow, or why the version is refused. */
function versionHover(analysis: QuotaAnalysis, node: Node): HoverResult | null {
  const declared = analysis.forgejoVersion;
  if (!declared?.profile) return declared?.error ? { contents: markdownLines([declared.error]), range: analysis.lines.rangeOf(node) } : null;
  return {
    contents: markdownLines([
      l10n.t('**{0}** — the previews, hovers and `quota-state evaluate` answer as Forgejo {1} does.', rulesLabel(declared.profile), declared.text),
      '',
      versionDocumentation(declared.profile),
    ]),
    range: analysis.lines.rangeOf(node),
  };
}

/** A size: its bytes in words, and what it is the size of. */
function sizeHover(analysis: QuotaAnalysis, node: Node, description: string): HoverResult | null {
  // From the token as written: a limit beyond 2^53 keeps its digits.
  const parsed = parseSizeExact(node.value, node.type === 'number' ? analysis.parsedText.slice(node.offset, node.offset + node.length) : undefined);
  if (!parsed.ok) return null;
  return { contents: markdownLines([`**${formatSize(parsed.bytes)}** — ${describeSize(parsed.bytes)}`, '', description]), range: analysis.lines.rangeOf(node) };
}

/** How a subject is answered under the Forgejo version in force: by its own rules only (generation 1), or by its ancestors' too. */
function subjectScope(canonical: Subject, forgejo: ResolvedForgejoProfile): string {
  if (forgejo.profile.generation === 1) {
    return l10n.t(
      '{0}: only rules listing this subject, and rules with limit -1, apply to it; when none does, rules on the subjects below it answer (rules on its parents never do).',
      rulesLabel(forgejo.profile),
    );
  }
  const ancestors = subjectAncestors(canonical);
  return ancestors.length
    ? l10n.t('Ancestors: {0} (a rule on any of them also applies here)', ancestors.map((a) => `\`${a}\``).join(' → '))
    : l10n.t('No ancestors: only rules listing this subject apply to it.');
}

/** A subject: what it measures, its seed spelling, and how rules apply to it under the Forgejo version in force. */
function subjectHover(analysis: QuotaAnalysis, node: Node, forgejo: ResolvedForgejoProfile): HoverResult | null {
  const value = node.value as string;
  const canonical = canonicalSubject(value);
  if (!canonical) return null;
  return {
    contents: markdownLines([
      `**${canonical}** — ${subjectDescription(canonical)}`,
      ...(isSubjectAlias(value) ? ['', l10n.t("`{0}` is the seed's spelling of `{1}`; real Forgejo servers accept only `{1}`.", value, canonical)] : []),
      '',
      subjectScope(canonical, forgejo),
      // Enforcement changed with the generation too: the API's branch creation asks a different subject.
      ...(canonical === forgejo.profile.branchCreationSubject
        ? ['', l10n.t('{0} asks this subject when a branch is created through the API ({1}).', forgejo.profile.label, '`POST /repos/{owner}/{repo}/branches`')]
        : []),
    ]),
    range: analysis.lines.rangeOf(node),
  };
}

/** A quota rule: its limit and subjects, the groups using it, and each preview account's verdict. */
function ruleHover(analysis: QuotaAnalysis, name: string, accounts: PreviewAccount[]): string[] {
  // The first definition of a name is the one that counts, as in evaluation.
  const rule = analysis.model.rules.find((r) => r.name === name);
  if (!rule) return [l10n.t('Rule **{0}** is not defined.', name)];
  const groups = analysis.model.groups.filter((g) => g.rules.includes(rule.name)).map((g) => `**${g.name}**`);
  const limit = Number.isNaN(rule.limit) ? l10n.t('no valid limit') : l10n.t('limit {0}', formatSize(rule.limit));
  const lines = [
    rule.subjects.length ? l10n.t('Rule **{0}**: {1} on {2}', rule.name, limit, rule.subjects.map((s) => `\`${s}\``).join(' + ')) : l10n.t('Rule **{0}**: {1} on no subject', rule.name, limit),
    '',
    groups.length === 0 ? l10n.t('Not used by any group.') : groups.length === 1 ? l10n.t('Used by group {0}.', groups[0]) : l10n.t('Used by groups {0}.', groups.join(', ')),
  ];
  for (const account of accounts) {
    const verdict = account.explanation.groups.flatMap((g) => g.rules).find((r) => r.name === rule.name);
    if (!verdict) continue;
    const who = account.source === 'live' ? l10n.t('{0} (live)', account.explanation.account) : account.explanation.account;
    lines.push(verdict.stands ? l10n.t('- {0}: {1} — stands', who, ruleFigure(verdict)) : l10n.t('- {0}: {1} — fails', who, ruleFigure(verdict)));
  }
  return lines;
}

/** A group: its rules, whether it is a default group, and each preview account's verdict. */
function groupHover(analysis: QuotaAnalysis, name: string, accounts: PreviewAccount[]): string[] {
  const group = analysis.model.groups.find((g) => g.name === name);
  if (!group) return [l10n.t('Group **{0}** is not defined.', name)];
  const lines = [
    group.rules.length ? l10n.t('Group **{0}**: {1}', group.name, group.rules.map((r) => `\`${r}\``).join(', ')) : l10n.t('Group **{0}**: no rules (an empty group always stands)', group.name),
  ];
  if (analysis.model.defaultGroups.includes(group.name)) lines.push('', l10n.t('A default group: it stands for every account with no assigned group.'));
  for (const account of accounts) {
    const verdict = account.explanation.groups.find((g) => g.name === group.name && !g.builtin);
    if (!verdict) continue;
    const failing = verdict.rules
      .filter((r) => !r.stands)
      .map((r) => r.name)
      .join(', ');
    lines.push(verdict.stands ? l10n.t('- {0}: stands', account.explanation.account) : l10n.t('- {0}: fails ({1})', account.explanation.account, failing));
  }
  return lines;
}

/** An account: the groups that decide for it and, with preview usage, its verdict per subject. */
function accountHover(analysis: QuotaAnalysis, name: string, accounts: PreviewAccount[], forgejo: ResolvedForgejoProfile): string[] {
  const preview = accounts.find((a) => a.explanation.account === name);
  // Without preview usage the group list is still worth showing: explained at zero usage.
  const explanation = preview?.explanation ?? explainAccount(name, { model: analysis.model }, { profile: forgejo.profile, subjects: [] });
  const source = explanation.groupList;
  const groups = explanation.groups.map((g) => `**${g.name}**`).join(', ');
  const lines = [
    source === 'assigned'
      ? l10n.t('Account **{0}**: assigned groups {1}', name, groups)
      : source === 'default'
        ? l10n.t('Account **{0}**: default groups {1}', name, groups)
        : l10n.t('Account **{0}**: no group: the built-in group {1}', name, groups),
  ];
  if (!preview) return [...lines, '', l10n.t('No preview usage for this account: add it to `usage`, or give it repositories or assets.')];
  const usage = preview.source === 'content' ? l10n.t('usage computed from the instance content') : preview.source === 'live' ? l10n.t('live usage') : l10n.t('usage from the `usage` section');
  lines.push('', explanation.within ? l10n.t('Within quota ({0}).', usage) : l10n.t('**Over quota** ({0}).', usage), '', l10n.t('| subject | verdict | why |'), '|---|---|---|');
  for (const subject of explanation.subjects) lines.push(`| \`${subject.subject}\` | ${subject.allowed ? l10n.t('within quota') : l10n.t('over quota')} | ${subject.reason} |`);
  return lines;
}

/** A rule, group or account name, defined or referenced. */
function nameHover(analysis: QuotaAnalysis, occurrence: NameOccurrence, accounts: PreviewAccount[], forgejo: ResolvedForgejoProfile): HoverResult | null {
  const range = analysis.lines.rangeOf(occurrence.span);
  switch (occurrence.kind) {
    case 'rule':
      return { contents: markdownLines(ruleHover(analysis, occurrence.name, accounts)), range };
    case 'group':
      return { contents: markdownLines(groupHover(analysis, occurrence.name, accounts)), range };
    case 'account':
      return { contents: markdownLines(accountHover(analysis, occurrence.name, accounts, forgejo)), range };
    default:
      return null;
  }
}

/** The hover of a context that is not a name, when it has one: undefined lets the name index answer. */
function valueHover(analysis: QuotaAnalysis, context: QuotaContext, forgejo: ResolvedForgejoProfile): HoverResult | null | undefined {
  if (context.kind === 'forgejoVersion' && context.node) return versionHover(analysis, context.node);
  if (context.kind === 'size') return sizeHover(analysis, context.node, context.description);
  if (context.kind === 'subject' && context.node) return subjectHover(analysis, context.node, forgejo);
  return undefined;
}

export function quotaHover(analysis: QuotaAnalysis, offset: number, accounts: PreviewAccount[], forgejo: ResolvedForgejoProfile = fileForgejoProfile(analysis)): HoverResult | null {
  const value = valueHover(analysis, quotaContextAt(analysis, offset), forgejo);
  if (value !== undefined) return value;
  const occurrence = occurrenceAt(analysis, offset);
  return occurrence ? nameHover(analysis, occurrence, accounts, forgejo) : null;
}
