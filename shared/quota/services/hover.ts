/** Hovers in quota files: sizes, subjects, rules, groups and accounts. */
import type { HoverResult, Markdown } from '../../features';
import type { QuotaAnalysis } from '../config';
import { explainAccount } from '../explain';
import { fileForgejoProfile } from '../report';
import { rulesLabel, type ResolvedForgejoProfile } from '../forgejoVersion';
import { versionDocumentation } from './completion';
import { describeSize, formatSize, parseSizeExact } from '../sizes';
import { canonicalSubject, isSubjectAlias, SUBJECT_DESCRIPTIONS, subjectAncestors } from '../subjects';
import { ruleFigure } from './describe';
import { occurrenceAt, quotaContextAt } from './location';
import type { PreviewAccount } from './previews';

function markdown(lines: string[]): Markdown {
  return { kind: 'markdown', value: lines.join('\n') };
}

export function quotaHover(analysis: QuotaAnalysis, offset: number, accounts: PreviewAccount[], forgejo: ResolvedForgejoProfile = fileForgejoProfile(analysis)): HoverResult | null {
  const context = quotaContextAt(analysis, offset);
  if (context.kind === 'forgejoVersion' && context.node) {
    const declared = analysis.forgejoVersion;
    if (!declared?.profile) return declared?.error ? { contents: markdown([declared.error]), range: analysis.lines.rangeOf(context.node) } : null;
    return {
      contents: markdown([
        `**${rulesLabel(declared.profile)}** — the previews, hovers and \`quota-state evaluate\` answer as Forgejo ${declared.text} does.`,
        '',
        versionDocumentation(declared.profile),
      ]),
      range: analysis.lines.rangeOf(context.node),
    };
  }
  if (context.kind === 'size') {
    // From the token as written: a limit beyond 2^53 keeps its digits.
    const node = context.node;
    const parsed = parseSizeExact(node.value, node.type === 'number' ? analysis.parsedText.slice(node.offset, node.offset + node.length) : undefined);
    if (!parsed.ok) return null;
    return {
      contents: markdown([`**${formatSize(parsed.bytes)}** — ${describeSize(parsed.bytes)}`, '', `The ${context.owner}.`]),
      range: analysis.lines.rangeOf(context.node),
    };
  }
  if (context.kind === 'subject' && context.node) {
    const value = context.node.value as string;
    const canonical = canonicalSubject(value);
    if (!canonical) return null;
    const ancestors = subjectAncestors(canonical);
    return {
      contents: markdown([
        `**${canonical}** — ${SUBJECT_DESCRIPTIONS[canonical]}`,
        ...(isSubjectAlias(value) ? ['', `\`${value}\` is the seed's spelling of \`${canonical}\`; real Forgejo servers accept only \`${canonical}\`.`] : []),
        '',
        forgejo.profile.generation === 1
          ? `${rulesLabel(forgejo.profile)}: only rules listing this subject, and rules with limit -1, apply to it; when none does, rules on the subjects below it answer (rules on its parents never do).`
          : ancestors.length
            ? `Ancestors: ${ancestors.map((a) => `\`${a}\``).join(' → ')} (a rule on any of them also applies here)`
            : 'No ancestors: only rules listing this subject apply to it.',
        // Enforcement changed with the generation too: the API's branch creation asks a different subject.
        ...(canonical === forgejo.profile.branchCreationSubject
          ? ['', `${forgejo.profile.label} asks this subject when a branch is created through the API (\`POST /repos/{owner}/{repo}/branches\`).`]
          : []),
      ]),
      range: analysis.lines.rangeOf(context.node),
    };
  }
  const occurrence = occurrenceAt(analysis, offset);
  if (!occurrence) return null;
  const range = analysis.lines.rangeOf(occurrence.span);
  // The first definition of a name is the one that counts, as in evaluation.
  if (occurrence.kind === 'rule') {
    const rule = analysis.model.rules.find((r) => r.name === occurrence.name);
    if (!rule) return { contents: markdown([`Rule **${occurrence.name}** is not defined.`]), range };
    const groups = analysis.model.groups.filter((g) => g.rules.includes(rule.name)).map((g) => g.name);
    const lines = [
      `Rule **${rule.name}**: ${Number.isNaN(rule.limit) ? 'no valid limit' : `limit ${formatSize(rule.limit)}`} on ${rule.subjects.length ? rule.subjects.map((s) => `\`${s}\``).join(' + ') : 'no subject'}`,
      '',
      groups.length ? `Used by ${groups.length === 1 ? 'group' : 'groups'} ${groups.map((g) => `**${g}**`).join(', ')}.` : 'Not used by any group.',
    ];
    for (const account of accounts) {
      const verdict = account.explanation.groups.flatMap((g) => g.rules).find((r) => r.name === rule.name);
      if (verdict) lines.push(`- ${account.explanation.account}${account.source === 'live' ? ' (live)' : ''}: ${ruleFigure(verdict)} — ${verdict.stands ? 'stands' : 'fails'}`);
    }
    return { contents: markdown(lines), range };
  }
  if (occurrence.kind === 'group') {
    const group = analysis.model.groups.find((g) => g.name === occurrence.name);
    if (!group) return { contents: markdown([`Group **${occurrence.name}** is not defined.`]), range };
    const lines = [`Group **${group.name}**: ${group.rules.length ? group.rules.map((r) => `\`${r}\``).join(', ') : 'no rules (an empty group always stands)'}`];
    if (analysis.model.defaultGroups.includes(group.name)) lines.push('', 'A default group: it stands for every account with no assigned group.');
    for (const account of accounts) {
      const verdict = account.explanation.groups.find((g) => g.name === group.name && !g.builtin);
      if (verdict)
        lines.push(
          `- ${account.explanation.account}: ${
            verdict.stands
              ? 'stands'
              : `fails (${verdict.rules
                  .filter((r) => !r.stands)
                  .map((r) => r.name)
                  .join(', ')})`
          }`,
        );
    }
    return { contents: markdown(lines), range };
  }
  if (occurrence.kind === 'account') {
    const name = occurrence.name;
    const preview = accounts.find((a) => a.explanation.account === name);
    // Without preview usage the group list is still worth showing: explained at zero usage.
    const explanation = preview?.explanation ?? explainAccount(name, { model: analysis.model }, { profile: forgejo.profile, subjects: [] });
    const source = explanation.groupList;
    const lines = [
      `Account **${name}**: ${source === 'assigned' ? 'assigned groups' : source === 'default' ? 'default groups' : 'no group: the built-in group'} ${explanation.groups.map((g) => `**${g.name}**`).join(', ')}`,
    ];
    if (!preview) {
      lines.push('', 'No preview usage for this account: add it to `usage`, or give it repositories or assets.');
      return { contents: markdown(lines), range };
    }
    lines.push(
      '',
      `${explanation.within ? 'Within quota' : '**Over quota**'} (${preview.source === 'content' ? 'usage computed from the instance content' : preview.source === 'live' ? 'live usage' : 'usage from the `usage` section'}).`,
      '',
      '| subject | verdict | why |',
      '|---|---|---|',
    );
    for (const subject of explanation.subjects) lines.push(`| \`${subject.subject}\` | ${subject.allowed ? 'within quota' : 'over quota'} | ${subject.reason} |`);
    return { contents: markdown(lines), range };
  }
  return null;
}
