/**
 * Semantic checks of a quota config / instance file over its syntax tree,
 * and the derived results: the quota model, instance content, preview usage and a name index.
 * Works on whatever parsed, so a half-typed file still gets every check it can.
 */
import type { Node } from 'jsonc-parser';
import type { Diagnostic, Range, Span } from '../diagnostics';
import { headSpan, propertyValueNode, spanOf } from '../json/jsoncTree';
import type { InstanceContent, LeafUsage, QuotaGroup, QuotaModel, QuotaRule } from './model';
import { parseSize } from './sizes';
import { canonicalSubject, isLeafSubject, isSubjectAlias, subjectLeaves, suggestSubjects, type Subject } from './subjects';
import { computeUsage, zeroUsage } from './usage';
import { editDistance } from '../text/editDistance';

export type NameKind = 'rule' | 'group' | 'account' | 'repo';

export interface NameOccurrence {
  kind: NameKind;
  name: string;
  /** The string node, quotes included. */
  span: Span;
  role: 'definition' | 'reference';
}

export interface NameIndex {
  occurrences: NameOccurrence[];
}

/** Where each rule and group sits in the file, for inlay hints, code lenses and symbols. */
export interface RuleLayout {
  rule: QuotaRule;
  node: Span;
  nameSpan?: Span;
  limitSpan?: Span;
  /** False when the limit is missing or not a valid size (the rule is then left out of previews). */
  limitValid: boolean;
}

export interface GroupLayout {
  group: QuotaGroup;
  node: Span;
  nameSpan?: Span;
}

export interface SemanticResult {
  model: QuotaModel;
  content: InstanceContent;
  isInstance: boolean;
  accountNames: string[];
  usage: Map<string, LeafUsage>;
  usageSource: Map<string, 'usage' | 'content'>;
  names: NameIndex;
  ruleLayout: RuleLayout[];
  groupLayout: GroupLayout[];
}

type At = (span: Span) => Range;

const INSTANCE_KEYS = ['accounts', 'repos', 'attachments', 'packages', 'artifacts'] as const;

function items(node: Node | undefined): Node[] {
  return node?.type === 'array' ? node.children ?? [] : [];
}

function properties(node: Node | undefined): Array<{ key: Node; value: Node | undefined }> {
  if (node?.type !== 'object') return [];
  return (node.children ?? []).map((p) => ({ key: p.children![0], value: p.children![1] }));
}

function stringAt(node: Node | undefined, key: string): { value: string; node: Node } | undefined {
  const valueNode = propertyValueNode(node, key);
  return valueNode?.type === 'string' ? { value: valueNode.value as string, node: valueNode } : undefined;
}

function stringItems(node: Node | undefined): Array<{ value: string; node: Node }> {
  return items(node)
    .filter((n) => n.type === 'string')
    .map((n) => ({ value: n.value as string, node: n }));
}

export function runSemanticChecks(root: Node, at: At): { diagnostics: Diagnostic[]; result: SemanticResult } {
  const diagnostics: Diagnostic[] = [];
  const occurrences: NameOccurrence[] = [];
  const note = (kind: NameKind, role: NameOccurrence['role'], name: string, node: Node) =>
    occurrences.push({ kind, role, name, span: spanOf(node) });

  /** Parses a size node; reports `invalid-size` and returns undefined when it is not one. */
  const sizeAt = (node: Node | undefined, what: string): number | undefined => {
    if (!node) return undefined;
    const parsed = parseSize(node.type === 'string' || node.type === 'number' ? node.value : node.type === 'null' ? null : node.type === 'boolean' ? node.value : node.type === 'array' ? [] : {});
    if (parsed.ok) return parsed.bytes;
    diagnostics.push({ code: 'invalid-size', severity: 'error', message: `Invalid size for ${what}: ${parsed.error}`, range: at(spanOf(node)) });
    return undefined;
  };

  // ---- Rules ----------------------------------------------------------------------------
  const rules: QuotaRule[] = [];
  const ruleLayout: RuleLayout[] = [];
  const firstRule = new Map<string, Node>();
  for (const ruleNode of items(propertyValueNode(root, 'rules'))) {
    if (ruleNode.type !== 'object') continue;
    const name = stringAt(ruleNode, 'name');
    const label = name ? `rule "${name.value}"` : 'this rule';
    if (name) {
      note('rule', 'definition', name.value, name.node);
      checkUnique('rule', name.value, name.node, firstRule, diagnostics, at);
    }

    const limitNode = propertyValueNode(ruleNode, 'limit');
    let limit: number | undefined;
    if (!limitNode || limitNode.type === 'null') {
      diagnostics.push({
        code: 'missing-limit',
        severity: 'error',
        message: `Rule${name ? ` "${name.value}"` : ''} has no limit: give a size such as "1 GiB", or -1 for unlimited`,
        range: at(name ? spanOf(name.node) : headSpan(ruleNode)),
        data: { name: name?.value },
      });
    } else {
      limit = sizeAt(limitNode, `the limit of ${label}`);
      if (limit !== undefined && (limit === 0 || limit < -1)) {
        diagnostics.push({
          code: 'never-stands',
          severity: 'warning',
          message:
            limit === 0
              ? `Rule${name ? ` "${name.value}"` : ''} never stands: a limit of 0 is exceeded even at zero usage (use -1 for unlimited)`
              : `Rule${name ? ` "${name.value}"` : ''} never stands: ${limit} is negative and only -1 means unlimited`,
          range: at(spanOf(limitNode)),
          data: { name: name?.value, limit },
        });
      }
    }

    const subjectsNode = propertyValueNode(ruleNode, 'subjects');
    const subjects: string[] = [];
    for (const subject of stringItems(subjectsNode)) {
      subjects.push(subject.value);
      checkSubject(subject.value, subject.node, diagnostics, at, label);
    }
    if (subjects.length === 0 && (!subjectsNode || subjectsNode.type === 'array')) {
      diagnostics.push({
        code: 'empty-subjects',
        severity: 'warning',
        message: `Rule${name ? ` "${name.value}"` : ''} has no subjects, so it applies to nothing`,
        range: at(subjectsNode ? spanOf(subjectsNode) : name ? spanOf(name.node) : headSpan(ruleNode)),
        data: { name: name?.value },
      });
    }

    if (name) {
      const rule: QuotaRule = { name: name.value, limit: limit ?? Number.NaN, subjects };
      rules.push(rule);
      ruleLayout.push({
        rule,
        node: spanOf(ruleNode),
        nameSpan: spanOf(name.node),
        limitSpan: limitNode ? spanOf(limitNode) : undefined,
        limitValid: limit !== undefined,
      });
    }
  }

  // ---- Groups ---------------------------------------------------------------------------
  const groups: QuotaGroup[] = [];
  const groupLayout: GroupLayout[] = [];
  const firstGroup = new Map<string, Node>();
  const usedRules = new Set<string>();
  for (const groupNode of items(propertyValueNode(root, 'groups'))) {
    if (groupNode.type !== 'object') continue;
    const name = stringAt(groupNode, 'name');
    if (name) {
      note('group', 'definition', name.value, name.node);
      checkUnique('group', name.value, name.node, firstGroup, diagnostics, at);
    }
    const ruleNames: string[] = [];
    for (const ref of stringItems(propertyValueNode(groupNode, 'rules'))) {
      ruleNames.push(ref.value);
      usedRules.add(ref.value);
      note('rule', 'reference', ref.value, ref.node);
      if (!firstRule.has(ref.value) && ref.value !== '') {
        diagnostics.push({
          code: 'unknown-rule',
          severity: 'error',
          message: `Group${name ? ` "${name.value}"` : ''} refers to unknown rule "${ref.value}"${didYouMean(ref.value, [...firstRule.keys()])}`,
          range: at(spanOf(ref.node)),
          data: { name: ref.value, group: name?.value, suggestions: closest(ref.value, [...firstRule.keys()]) },
        });
      }
    }
    if (name) {
      const group: QuotaGroup = { name: name.value, rules: ruleNames };
      groups.push(group);
      groupLayout.push({ group, node: spanOf(groupNode), nameSpan: spanOf(name.node) });
    }
  }

  for (const layout of ruleLayout) {
    if (!usedRules.has(layout.rule.name) && layout.nameSpan && firstRule.get(layout.rule.name)?.offset === layout.nameSpan.offset) {
      diagnostics.push({
        code: 'unused-rule',
        severity: 'hint',
        message: `Rule "${layout.rule.name}" is not used by any group`,
        range: at(layout.nameSpan),
        tags: ['unnecessary'],
        data: { name: layout.rule.name },
      });
    }
  }

  const checkGroupRef = (ref: { value: string; node: Node }, where: string) => {
    note('group', 'reference', ref.value, ref.node);
    if (!firstGroup.has(ref.value) && ref.value !== '') {
      diagnostics.push({
        code: 'unknown-group',
        severity: 'error',
        message: `${where} names unknown group "${ref.value}"${didYouMean(ref.value, [...firstGroup.keys()])}`,
        range: at(spanOf(ref.node)),
        data: { name: ref.value, suggestions: closest(ref.value, [...firstGroup.keys()]) },
      });
    }
  };

  // ---- Default groups, default total ------------------------------------------------------
  const defaultGroups: string[] = [];
  for (const ref of stringItems(propertyValueNode(root, 'defaultGroups'))) {
    defaultGroups.push(ref.value);
    checkGroupRef(ref, 'defaultGroups');
  }
  const defaultTotalNode = propertyValueNode(root, 'defaultTotal');
  const defaultTotal = defaultTotalNode ? sizeAt(defaultTotalNode, 'defaultTotal') ?? -1 : -1;
  if (defaultTotalNode && (defaultTotal === 0 || defaultTotal < -1)) {
    diagnostics.push({
      code: 'never-stands',
      severity: 'warning',
      message: `The built-in default group never stands: defaultTotal ${defaultTotal} ${defaultTotal === 0 ? 'is exceeded even at zero usage' : 'is negative and only -1 means unlimited'}`,
      range: at(spanOf(defaultTotalNode)),
      data: { limit: defaultTotal },
    });
  }
  const enabledNode = propertyValueNode(root, 'enabled');
  const enabled = enabledNode?.type === 'boolean' ? (enabledNode.value as boolean) : true;

  // ---- Instance content -------------------------------------------------------------------
  const isInstance = INSTANCE_KEYS.some((key) => propertyValueNode(root, key) !== undefined);
  const content = readInstanceContent(root, diagnostics, at, sizeAt, note);
  const hasAccounts = propertyValueNode(root, 'accounts') !== undefined;
  const declaredAccounts = new Set(content.accounts.map((a) => a.name));
  const accountNames: string[] = content.accounts.map((a) => a.name);
  const mention = (name: string) => {
    if (!accountNames.includes(name)) accountNames.push(name);
  };

  // ---- Assignments ------------------------------------------------------------------------
  const assignments: Record<string, string[]> = {};
  for (const { key, value } of properties(propertyValueNode(root, 'assignments'))) {
    const account = key.value as string;
    note('account', 'reference', account, key);
    if (hasAccounts && !declaredAccounts.has(account)) unknownAccount(account, key, 'assignments', diagnostics, at, [...declaredAccounts]);
    assignments[account] = [];
    for (const ref of stringItems(value)) {
      assignments[account].push(ref.value);
      checkGroupRef(ref, `The assignment of "${account}"`);
    }
  }

  // ---- Usage scenarios --------------------------------------------------------------------
  const usage = new Map<string, LeafUsage>();
  const usageSource = new Map<string, 'usage' | 'content'>();
  for (const { key, value } of properties(propertyValueNode(root, 'usage'))) {
    const account = key.value as string;
    note('account', 'reference', account, key);
    if (hasAccounts && !declaredAccounts.has(account)) unknownAccount(account, key, 'usage', diagnostics, at, [...declaredAccounts]);
    const leafUsage = zeroUsage();
    for (const entry of properties(value)) {
      const subject = entry.key.value as string;
      const canonical = checkSubject(subject, entry.key, diagnostics, at, `the usage of "${account}"`);
      const bytes = sizeAt(entry.value, `the usage of "${account}" for ${subject}`);
      if (!canonical) continue;
      if (!isLeafSubject(canonical)) {
        if (canonical !== 'none' && canonical !== 'size:assets:wiki') {
          diagnostics.push({
            code: 'schema',
            severity: 'error',
            message: `Usage is given per leaf subject: ${subject} is the sum of ${subjectLeaves(canonical).join(', ')}; give those instead`,
            range: at(spanOf(entry.key)),
          });
        }
        continue;
      }
      if (bytes !== undefined) leafUsage[canonical] += Math.max(0, bytes);
    }
    usage.set(account, leafUsage);
    usageSource.set(account, 'usage');
  }

  for (const name of usage.keys()) mention(name);
  for (const name of Object.keys(assignments)) mention(name);
  const computed = computeUsage(content);
  for (const [name, leafUsage] of computed) {
    mention(name);
    if (!usage.has(name)) {
      usage.set(name, leafUsage);
      usageSource.set(name, 'content');
    }
  }

  const model: QuotaModel = { enabled, defaultGroups, defaultTotal, rules, groups, assignments };
  return {
    diagnostics,
    result: {
      model,
      content,
      isInstance,
      accountNames,
      usage,
      usageSource,
      names: { occurrences },
      ruleLayout,
      groupLayout,
    },
  };
}

/**
 * Records the first definition of a name; reports `duplicate-<kind>` on a later one, with related
 * information pointing at the first. Returns true for a first definition.
 */
function checkUnique(kind: NameKind, name: string, node: Node, first: Map<string, Node>, diagnostics: Diagnostic[], at: At): boolean {
  const earlier = first.get(name);
  if (!earlier) {
    first.set(name, node);
    return true;
  }
  const label = kind[0].toUpperCase() + kind.slice(1);
  diagnostics.push({
    code: `duplicate-${kind}`,
    severity: 'error',
    message: `${label} "${name}" is defined more than once`,
    range: at(spanOf(node)),
    relatedInformation: [{ range: at(spanOf(earlier)), message: `First definition of ${kind} "${name}"` }],
    data: { name },
  });
  return false;
}

/** Reports unknown subjects and aliases; returns the canonical meaning when the subject is accepted. */
function checkSubject(value: string, node: Node, diagnostics: Diagnostic[], at: At, where: string): Subject | undefined {
  const canonical = canonicalSubject(value);
  if (!canonical) {
    const suggestions = suggestSubjects(value);
    diagnostics.push({
      code: 'unknown-subject',
      severity: 'error',
      message: `"${value}" in ${where} is not a quota subject${suggestions.length ? `. Did you mean ${suggestions.map((s) => `"${s}"`).join(' or ')}?` : ''}`,
      range: at(spanOf(node)),
      data: { value, suggestions },
    });
    return undefined;
  }
  if (isSubjectAlias(value)) {
    diagnostics.push({
      code: 'subject-alias',
      severity: 'information',
      message: `"${value}" is the seed's spelling of "${canonical}"; real Forgejo servers accept only "${canonical}"`,
      range: at(spanOf(node)),
      data: { value, canonical },
    });
  }
  return canonical;
}

function unknownAccount(name: string, node: Node, where: string, diagnostics: Diagnostic[], at: At, known: string[]) {
  diagnostics.push({
    code: 'unknown-account',
    severity: 'error',
    message: `${where} names unknown account "${name}"${didYouMean(name, known)}`,
    range: at(spanOf(node)),
    data: { name, suggestions: closest(name, known) },
  });
}

function closest(value: string, candidates: string[]): string[] {
  const lowered = value.toLowerCase();
  return candidates
    .map((c) => ({ c, d: editDistance(lowered, c.toLowerCase()) }))
    .filter(({ d, c }) => d <= Math.max(2, Math.floor(c.length / 3)))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map(({ c }) => c);
}

function didYouMean(value: string, candidates: string[]): string {
  const best = closest(value, candidates);
  return best.length ? `. Did you mean "${best[0]}"?` : '';
}

type SizeAt = (node: Node | undefined, what: string) => number | undefined;
type Note = (kind: NameKind, role: NameOccurrence['role'], name: string, node: Node) => void;

/** Reads accounts, repos, attachments, packages and artifacts, reporting unknown owners, repos and duplicates. */
function readInstanceContent(root: Node, diagnostics: Diagnostic[], at: At, sizeAt: SizeAt, note: Note): InstanceContent {
  const content: InstanceContent = { accounts: [], repos: [], attachments: [], packages: [], artifacts: [] };
  const accountNodes = items(propertyValueNode(root, 'accounts'));
  const firstAccount = new Map<string, Node>();
  for (const node of accountNodes) {
    const name = stringAt(node, 'name');
    if (!name) continue;
    note('account', 'definition', name.value, name.node);
    if (!checkUnique('account', name.value, name.node, firstAccount, diagnostics, at)) continue;
    const type = stringAt(node, 'type')?.value === 'org' ? 'org' : 'user';
    const admin = propertyValueNode(node, 'admin');
    const token = stringAt(node, 'token');
    content.accounts.push({
      name: name.value,
      type,
      ...(admin?.type === 'boolean' ? { admin: admin.value as boolean } : {}),
      ...(token ? { token: token.value } : {}),
      owners: stringItems(propertyValueNode(node, 'owners')).map((o) => o.value),
      ...(stringAt(node, 'email') ? { email: stringAt(node, 'email')!.value } : {}),
      ...(stringAt(node, 'fullName') ? { fullName: stringAt(node, 'fullName')!.value } : {}),
    });
  }
  const known = [...firstAccount.keys()];
  const accountRef = (ref: { value: string; node: Node } | undefined, where: string) => {
    if (!ref) return;
    note('account', 'reference', ref.value, ref.node);
    if (!firstAccount.has(ref.value)) unknownAccount(ref.value, ref.node, where, diagnostics, at, known);
  };
  for (const node of accountNodes) {
    const name = stringAt(node, 'name')?.value ?? 'account';
    for (const owner of stringItems(propertyValueNode(node, 'owners'))) accountRef(owner, `The owners of "${name}"`);
  }

  const firstRepo = new Map<string, Node>();
  for (const node of items(propertyValueNode(root, 'repos'))) {
    const owner = stringAt(node, 'owner');
    const name = stringAt(node, 'name');
    if (!owner || !name) continue;
    accountRef(owner, `Repo "${owner.value}/${name.value}"`);
    const fullName = `${owner.value}/${name.value}`;
    note('repo', 'definition', fullName, name.node);
    if (!checkUnique('repo', fullName, name.node, firstRepo, diagnostics, at)) continue;
    const privateNode = propertyValueNode(node, 'private');
    content.repos.push({
      owner: owner.value,
      name: name.value,
      private: privateNode?.type === 'boolean' ? (privateNode.value as boolean) : false,
      gitSize: sizeAt(propertyValueNode(node, 'gitSize'), `the git size of repo "${fullName}"`) ?? 0,
      lfsSize: sizeAt(propertyValueNode(node, 'lfsSize'), `the LFS size of repo "${fullName}"`) ?? 0,
    });
  }
  const repoRef = (ref: { value: string; node: Node } | undefined, where: string): boolean => {
    if (!ref) return false;
    note('repo', 'reference', ref.value, ref.node);
    if (firstRepo.has(ref.value)) return true;
    if (ref.value.includes('/')) {
      diagnostics.push({
        code: 'unknown-repo',
        severity: 'error',
        message: `${where} names unknown repo "${ref.value}"${didYouMean(ref.value, [...firstRepo.keys()])}`,
        range: at(spanOf(ref.node)),
        data: { name: ref.value, suggestions: closest(ref.value, [...firstRepo.keys()]) },
      });
    }
    return false;
  };

  for (const node of items(propertyValueNode(root, 'attachments'))) {
    const repo = stringAt(node, 'repo');
    const name = stringAt(node, 'name')?.value ?? '';
    const label = `Attachment "${name}"`;
    const uploader = stringAt(node, 'uploader');
    repoRef(repo, label);
    accountRef(uploader, label);
    const size = sizeAt(propertyValueNode(node, 'size'), `the size of attachment "${name}"`);
    const release = stringAt(node, 'release');
    const issue = propertyValueNode(node, 'issue');
    const comment = propertyValueNode(node, 'comment');
    if (repo && size !== undefined) {
      content.attachments.push({
        repo: repo.value,
        name,
        size,
        ...(release ? { release: release.value } : {}),
        ...(issue?.type === 'number' ? { issue: issue.value as number } : {}),
        ...(comment?.type === 'number' ? { comment: comment.value as number } : {}),
        ...(uploader ? { uploader: uploader.value } : {}),
      });
    }
  }
  for (const node of items(propertyValueNode(root, 'packages'))) {
    const owner = stringAt(node, 'owner');
    const repo = stringAt(node, 'repo');
    const name = stringAt(node, 'name')?.value ?? '';
    const label = `Package "${name}"`;
    accountRef(owner, label);
    repoRef(repo, label);
    const size = sizeAt(propertyValueNode(node, 'size'), `the size of package "${name}"`);
    if (owner && size !== undefined) {
      content.packages.push({
        owner: owner.value,
        ...(repo ? { repo: repo.value } : {}),
        type: stringAt(node, 'type')?.value ?? 'generic',
        name,
        version: stringAt(node, 'version')?.value ?? '',
        size,
      });
    }
  }
  for (const node of items(propertyValueNode(root, 'artifacts'))) {
    const repo = stringAt(node, 'repo');
    const name = stringAt(node, 'name')?.value ?? '';
    repoRef(repo, `Artifact "${name}"`);
    const size = sizeAt(propertyValueNode(node, 'size'), `the size of artifact "${name}"`);
    const runId = propertyValueNode(node, 'runId');
    const expired = propertyValueNode(node, 'expired');
    if (repo && size !== undefined) {
      content.artifacts.push({
        repo: repo.value,
        name,
        size,
        runId: runId?.type === 'number' ? (runId.value as number) : 0,
        expired: expired?.type === 'boolean' ? (expired.value as boolean) : false,
      });
    }
  }
  return content;
}
