/**
 * Reads a quota config / instance file's syntax tree into what everything else uses: the quota
 * model, the instance content, the usage per account, the name index and the layout of rules and
 * groups. It reports nothing: it records what the checks (./checks) judge, so the model comes
 * without running them. Works on whatever parsed, so a half-typed file still yields what it can.
 */
import * as l10n from '@vscode/l10n';
import type { Node } from 'jsonc-parser';
import type { Span } from '../diagnostics';
import { propertyValueNode, spanOf } from '../json/jsoncTree';
import type { InstanceContent, LeafUsage, QuotaGroup, QuotaModel, QuotaRule } from './model';
import { forgejoProfile, type ForgejoProfile } from './forgejoVersion';
import { parseSize, parseSizeExact } from './sizes';
import { canonicalSubject, isLeafSubject } from './subjects';
import { computeUsage, zeroUsage } from './usage';

export type NameKind = 'rule' | 'group' | 'account' | 'repo';

export interface NameOccurrence {
  kind: NameKind;
  name: string;
  /** The string node, quotes included. */
  span: Span;
  role: 'definition' | 'reference';
}

interface NameIndex {
  occurrences: NameOccurrence[];
}

/** Where each rule and group sits in the file, for inlay hints, code lenses and symbols. */
interface RuleLayout {
  rule: QuotaRule;
  node: Span;
  nameSpan?: Span;
  limitSpan?: Span;
  /** False when the limit is missing or not a valid size (the rule is then left out of previews). */
  limitValid: boolean;
}

interface GroupLayout {
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
  /** The file's `forgejoVersion`: which Forgejo's rules its verdicts follow (a valid one wins over the setting and the server). */
  forgejoVersion?: DeclaredForgejoVersion;
}

interface DeclaredForgejoVersion {
  text: string;
  span: Span;
  /** Undefined when the text is not a Forgejo version with a quota API; `error` says why. */
  profile?: ForgejoProfile;
  error?: string;
}

/** A string value and the node it was read from. */
interface Located {
  value: string;
  node: Node;
}

interface RuleReading {
  node: Node;
  name?: Located;
  /** Undefined when the rule has no `limit` member. */
  limitNode?: Node;
  /** The limit in bytes, when it is a valid size; a bigint beyond 2^53 (int64, as Forgejo stores it). */
  limit?: number | bigint;
  subjectsNode?: Node;
  subjects: Located[];
}

/** A name defined by a rule, group, account or repository; `first` is the earlier definition of a repeated name. */
interface NameDefinition {
  kind: NameKind;
  name: string;
  node: Node;
  first?: Node;
}

export interface QuotaReading {
  result: SemanticResult;
  rules: RuleReading[];
  /** Every name definition, first ones and repeats, in file order per kind. */
  definitions: NameDefinition[];
  /** Every size the file gives, with what it is the size of (words, or the file's key); `error` when it is not a size. */
  sizes: Array<{ node: Node; what: string; error?: string }>;
  /** Every subject spelt in the file: a rule's subjects and the usage section's keys; `where`, in words. */
  subjects: Array<Located & { where: string }>;
  /** Usage keys naming an aggregate subject instead of a leaf. */
  aggregateUsage: Array<{ key: Node; subject: string }>;
  ruleReferences: Array<Located & { group?: string }>;
  /** `where` names the place a name is written: in words (`The assignment of "alice"`), or the file's key (`defaultGroups`). */
  groupReferences: Array<Located & { where: string }>;
  /** Account references; `checked` is false where accounts are only checked when the file declares some. */
  accountReferences: Array<Located & { where: string; checked: boolean }>;
  repoReferences: Array<Located & { where: string }>;
  defaultTotal?: { node: Node; bytes: number | bigint };
}

const INSTANCE_KEYS = ['accounts', 'repos', 'attachments', 'packages', 'artifacts'] as const;

function items(node: Node | undefined): Node[] {
  return node?.type === 'array' ? (node.children ?? []) : [];
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

/** `text` is what `root` was parsed from: number tokens are read from it, so limits beyond 2^53 stay exact. */
export function readQuotaDocument(root: Node, text?: string): QuotaReading {
  const occurrences: NameOccurrence[] = [];
  const note = (kind: NameKind, role: NameOccurrence['role'], name: string, node: Node) => occurrences.push({ kind, role, name, span: spanOf(node) });
  const definitions: NameDefinition[] = [];
  const firstOf: Record<NameKind, Map<string, Node>> = { rule: new Map(), group: new Map(), account: new Map(), repo: new Map() };
  /** Records a definition; true for the first one of its name. */
  const define = (kind: NameKind, name: string, node: Node): boolean => {
    note(kind, 'definition', name, node);
    const first = firstOf[kind].get(name);
    definitions.push({ kind, name, node, ...(first ? { first } : {}) });
    if (!first) firstOf[kind].set(name, node);
    return !first;
  };
  const reading: Omit<QuotaReading, 'result'> = {
    rules: [],
    definitions,
    sizes: [],
    subjects: [],
    aggregateUsage: [],
    ruleReferences: [],
    groupReferences: [],
    accountReferences: [],
    repoReferences: [],
  };

  /** Reads a size node; undefined when it is not a size. */
  const sizeAt = (node: Node | undefined, what: string): number | undefined => {
    if (!node) return undefined;
    const parsed = parseSize(node.type === 'string' || node.type === 'number' ? node.value : node.type === 'null' ? null : node.type === 'boolean' ? node.value : node.type === 'array' ? [] : {});
    reading.sizes.push({ node, what, ...(parsed.ok ? {} : { error: parsed.error }) });
    return parsed.ok ? parsed.bytes : undefined;
  };

  /** Reads a limit: like a size, but exact up to int64 (number tokens are read from the text). */
  const limitAt = (node: Node, what: string): number | bigint | undefined => {
    const value = node.type === 'string' || node.type === 'number' ? node.value : node.type === 'null' ? null : node.type === 'boolean' ? node.value : node.type === 'array' ? [] : {};
    const raw = node.type === 'number' && text !== undefined ? text.slice(node.offset, node.offset + node.length) : undefined;
    const parsed = parseSizeExact(value, raw);
    reading.sizes.push({ node, what, ...(parsed.ok ? {} : { error: parsed.error }) });
    return parsed.ok ? parsed.bytes : undefined;
  };

  // ---- Rules ----------------------------------------------------------------------------
  const rules: QuotaRule[] = [];
  const ruleLayout: RuleLayout[] = [];
  for (const ruleNode of items(propertyValueNode(root, 'rules'))) {
    if (ruleNode.type !== 'object') continue;
    const name = stringAt(ruleNode, 'name');
    const label = name ? l10n.t('rule "{0}"', name.value) : l10n.t('this rule');
    if (name) define('rule', name.value, name.node);
    const limitNode = propertyValueNode(ruleNode, 'limit');
    const limit = limitNode && limitNode.type !== 'null' ? limitAt(limitNode, name ? l10n.t('the limit of rule "{0}"', name.value) : l10n.t('the limit of this rule')) : undefined;
    const subjectsNode = propertyValueNode(ruleNode, 'subjects');
    const subjectNodes = stringItems(subjectsNode);
    for (const subject of subjectNodes) reading.subjects.push({ ...subject, where: label });
    reading.rules.push({ node: ruleNode, name, limitNode, limit, subjectsNode, subjects: subjectNodes });
    if (name) {
      const rule: QuotaRule = { name: name.value, limit: limit ?? Number.NaN, subjects: subjectNodes.map((s) => s.value) };
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
  for (const groupNode of items(propertyValueNode(root, 'groups'))) {
    if (groupNode.type !== 'object') continue;
    const name = stringAt(groupNode, 'name');
    if (name) define('group', name.value, name.node);
    const ruleNames: string[] = [];
    for (const ref of stringItems(propertyValueNode(groupNode, 'rules'))) {
      ruleNames.push(ref.value);
      note('rule', 'reference', ref.value, ref.node);
      reading.ruleReferences.push({ ...ref, group: name?.value });
    }
    if (name) {
      const group: QuotaGroup = { name: name.value, rules: ruleNames };
      groups.push(group);
      groupLayout.push({ group, node: spanOf(groupNode), nameSpan: spanOf(name.node) });
    }
  }
  const groupReference = (ref: Located, where: string) => {
    note('group', 'reference', ref.value, ref.node);
    reading.groupReferences.push({ ...ref, where });
  };

  // ---- Default groups, default total ------------------------------------------------------
  const defaultGroups: string[] = [];
  for (const ref of stringItems(propertyValueNode(root, 'defaultGroups'))) {
    defaultGroups.push(ref.value);
    groupReference(ref, 'defaultGroups');
  }
  const defaultTotalNode = propertyValueNode(root, 'defaultTotal');
  const defaultTotal = defaultTotalNode ? (limitAt(defaultTotalNode, 'defaultTotal') ?? -1) : -1;
  if (defaultTotalNode) reading.defaultTotal = { node: defaultTotalNode, bytes: defaultTotal };
  const versionNode = propertyValueNode(root, 'forgejoVersion');
  let forgejoVersion: DeclaredForgejoVersion | undefined;
  if (versionNode?.type === 'string') {
    const declared = forgejoProfile(versionNode.value as string);
    forgejoVersion = declared.ok
      ? { text: versionNode.value as string, span: spanOf(versionNode), profile: declared.profile }
      : { text: versionNode.value as string, span: spanOf(versionNode), error: declared.message };
  }
  const enabledNode = propertyValueNode(root, 'enabled');
  const enabled = enabledNode?.type === 'boolean' ? (enabledNode.value as boolean) : true;

  // ---- Instance content -------------------------------------------------------------------
  const isInstance = INSTANCE_KEYS.some((key) => propertyValueNode(root, key) !== undefined);
  const content = readInstanceContent(root, reading, sizeAt, note, define);
  const hasAccounts = propertyValueNode(root, 'accounts') !== undefined;
  const accountNames: string[] = content.accounts.map((a) => a.name);
  const mention = (name: string) => {
    if (!accountNames.includes(name)) accountNames.push(name);
  };

  // ---- Assignments ------------------------------------------------------------------------
  const assignments: Record<string, string[]> = {};
  for (const { key, value } of properties(propertyValueNode(root, 'assignments'))) {
    const account = key.value as string;
    note('account', 'reference', account, key);
    reading.accountReferences.push({ value: account, node: key, where: 'assignments', checked: hasAccounts });
    assignments[account] = [];
    for (const ref of stringItems(value)) {
      assignments[account].push(ref.value);
      groupReference(ref, l10n.t('The assignment of "{0}"', account));
    }
  }

  // ---- Usage scenarios --------------------------------------------------------------------
  const usage = new Map<string, LeafUsage>();
  const usageSource = new Map<string, 'usage' | 'content'>();
  for (const { key, value } of properties(propertyValueNode(root, 'usage'))) {
    const account = key.value as string;
    note('account', 'reference', account, key);
    reading.accountReferences.push({ value: account, node: key, where: 'usage', checked: hasAccounts });
    const leafUsage = zeroUsage();
    for (const entry of properties(value)) {
      const subject = entry.key.value as string;
      reading.subjects.push({ value: subject, node: entry.key, where: l10n.t('the usage of "{0}"', account) });
      const canonical = canonicalSubject(subject);
      const bytes = sizeAt(entry.value, l10n.t('the usage of "{0}" for {1}', account, subject));
      if (!canonical) continue;
      if (!isLeafSubject(canonical)) {
        reading.aggregateUsage.push({ key: entry.key, subject });
        continue;
      }
      if (bytes !== undefined) leafUsage[canonical] = Number(leafUsage[canonical]) + Math.max(0, bytes);
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
    ...reading,
    result: { model, content, isInstance, accountNames, usage, usageSource, names: { occurrences }, ruleLayout, groupLayout, ...(forgejoVersion ? { forgejoVersion } : {}) },
  };
}

type SizeAt = (node: Node | undefined, what: string) => number | undefined;
type Note = (kind: NameKind, role: NameOccurrence['role'], name: string, node: Node) => void;
type Define = (kind: NameKind, name: string, node: Node) => boolean;

/** Reads accounts, repos, attachments, packages and artifacts; a repeated account or repository is left out. */
function readInstanceContent(root: Node, reading: Omit<QuotaReading, 'result'>, sizeAt: SizeAt, note: Note, define: Define): InstanceContent {
  const content: InstanceContent = { accounts: [], repos: [], attachments: [], packages: [], artifacts: [] };
  const accountNodes = items(propertyValueNode(root, 'accounts'));
  for (const node of accountNodes) {
    const name = stringAt(node, 'name');
    if (!name) continue;
    if (!define('account', name.value, name.node)) continue;
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
  const accountRef = (ref: Located | undefined, where: string) => {
    if (!ref) return;
    note('account', 'reference', ref.value, ref.node);
    reading.accountReferences.push({ ...ref, where, checked: true });
  };
  for (const node of accountNodes) {
    const name = stringAt(node, 'name')?.value ?? 'account';
    for (const owner of stringItems(propertyValueNode(node, 'owners'))) accountRef(owner, l10n.t('The owners of "{0}"', name));
  }

  for (const node of items(propertyValueNode(root, 'repos'))) {
    const owner = stringAt(node, 'owner');
    const name = stringAt(node, 'name');
    if (!owner || !name) continue;
    accountRef(owner, l10n.t('Repo "{0}"', `${owner.value}/${name.value}`));
    const fullName = `${owner.value}/${name.value}`;
    if (!define('repo', fullName, name.node)) continue;
    const privateNode = propertyValueNode(node, 'private');
    content.repos.push({
      owner: owner.value,
      name: name.value,
      private: privateNode?.type === 'boolean' ? (privateNode.value as boolean) : false,
      gitSize: sizeAt(propertyValueNode(node, 'gitSize'), l10n.t('the git size of repo "{0}"', fullName)) ?? 0,
      lfsSize: sizeAt(propertyValueNode(node, 'lfsSize'), l10n.t('the LFS size of repo "{0}"', fullName)) ?? 0,
    });
  }
  const repoRef = (ref: Located | undefined, where: string) => {
    if (!ref) return;
    note('repo', 'reference', ref.value, ref.node);
    reading.repoReferences.push({ ...ref, where });
  };
  for (const node of items(propertyValueNode(root, 'attachments'))) {
    const repo = stringAt(node, 'repo');
    const name = stringAt(node, 'name')?.value ?? '';
    const label = l10n.t('Attachment "{0}"', name);
    const uploader = stringAt(node, 'uploader');
    repoRef(repo, label);
    accountRef(uploader, label);
    const size = sizeAt(propertyValueNode(node, 'size'), l10n.t('the size of attachment "{0}"', name));
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
    const label = l10n.t('Package "{0}"', name);
    accountRef(owner, label);
    repoRef(repo, label);
    const size = sizeAt(propertyValueNode(node, 'size'), l10n.t('the size of package "{0}"', name));
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
    repoRef(repo, l10n.t('Artifact "{0}"', name));
    const size = sizeAt(propertyValueNode(node, 'size'), l10n.t('the size of artifact "{0}"', name));
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
