/**
 * Reads a quota config / instance file's syntax tree into what everything else uses: the quota
 * model, the instance content, the usage per account, the name index and the layout of rules and
 * groups. It reports nothing: it records what the rule modules (./rules) judge, so the model comes
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

/** The JSON value a size node holds, as parseSize reads values: containers as empty ones. */
function sizeValue(node: Node): unknown {
  return node.type === 'string' || node.type === 'number' ? node.value : node.type === 'null' ? null : node.type === 'boolean' ? node.value : node.type === 'array' ? [] : {};
}

/**
 * What the reading steps share: the records the checks judge, the name index, and how a name, a
 * size or a reference is noted. Each step reads one part of the file, in file-key order, so records
 * come out in the same order whatever the steps.
 */
class DocumentReader {
  readonly occurrences: NameOccurrence[] = [];
  readonly records: Omit<QuotaReading, 'result'> = {
    rules: [],
    definitions: [],
    sizes: [],
    subjects: [],
    aggregateUsage: [],
    ruleReferences: [],
    groupReferences: [],
    accountReferences: [],
    repoReferences: [],
  };
  private readonly firstOf: Record<NameKind, Map<string, Node>> = { rule: new Map(), group: new Map(), account: new Map(), repo: new Map() };

  /** `text` is what the tree was parsed from: number tokens are read from it, so limits beyond 2^53 stay exact. */
  constructor(private readonly text: string | undefined) {}

  note(kind: NameKind, role: NameOccurrence['role'], name: string, node: Node): void {
    this.occurrences.push({ kind, role, name, span: spanOf(node) });
  }

  /** Records a definition; true for the first one of its name. */
  define(kind: NameKind, name: string, node: Node): boolean {
    this.note(kind, 'definition', name, node);
    const first = this.firstOf[kind].get(name);
    this.records.definitions.push({ kind, name, node, ...(first ? { first } : {}) });
    if (!first) this.firstOf[kind].set(name, node);
    return !first;
  }

  /** Reads a size node; undefined when it is not a size. */
  sizeAt(node: Node | undefined, what: string): number | undefined {
    if (!node) return undefined;
    const parsed = parseSize(sizeValue(node));
    this.records.sizes.push({ node, what, ...(parsed.ok ? {} : { error: parsed.error }) });
    return parsed.ok ? parsed.bytes : undefined;
  }

  /** Reads a limit: like a size, but exact up to int64 (number tokens are read from the text). */
  limitAt(node: Node, what: string): number | bigint | undefined {
    const raw = node.type === 'number' && this.text !== undefined ? this.text.slice(node.offset, node.offset + node.length) : undefined;
    const parsed = parseSizeExact(sizeValue(node), raw);
    this.records.sizes.push({ node, what, ...(parsed.ok ? {} : { error: parsed.error }) });
    return parsed.ok ? parsed.bytes : undefined;
  }

  groupReference(ref: Located, where: string): void {
    this.note('group', 'reference', ref.value, ref.node);
    this.records.groupReferences.push({ ...ref, where });
  }

  /** `checked` is false where accounts are only checked when the file declares some. */
  accountReference(ref: Located | undefined, where: string, checked = true): void {
    if (!ref) return;
    this.note('account', 'reference', ref.value, ref.node);
    this.records.accountReferences.push({ ...ref, where, checked });
  }

  repoReference(ref: Located | undefined, where: string): void {
    if (!ref) return;
    this.note('repo', 'reference', ref.value, ref.node);
    this.records.repoReferences.push({ ...ref, where });
  }
}

/** One rule: its name, limit and subjects; a named one joins the model and the layout. */
function readRule(reader: DocumentReader, ruleNode: Node, rules: QuotaRule[], ruleLayout: RuleLayout[]): void {
  const name = stringAt(ruleNode, 'name');
  const label = name ? l10n.t('rule "{0}"', name.value) : l10n.t('this rule');
  if (name) reader.define('rule', name.value, name.node);
  const limitNode = propertyValueNode(ruleNode, 'limit');
  const limit = limitNode && limitNode.type !== 'null' ? reader.limitAt(limitNode, name ? l10n.t('the limit of rule "{0}"', name.value) : l10n.t('the limit of this rule')) : undefined;
  const subjectsNode = propertyValueNode(ruleNode, 'subjects');
  const subjectNodes = stringItems(subjectsNode);
  for (const subject of subjectNodes) reader.records.subjects.push({ ...subject, where: label });
  reader.records.rules.push({ node: ruleNode, name, limitNode, limit, subjectsNode, subjects: subjectNodes });
  if (!name) return;
  const rule: QuotaRule = { name: name.value, limit: limit ?? Number.NaN, subjects: subjectNodes.map((s) => s.value) };
  rules.push(rule);
  ruleLayout.push({ rule, node: spanOf(ruleNode), nameSpan: spanOf(name.node), limitSpan: limitNode ? spanOf(limitNode) : undefined, limitValid: limit !== undefined });
}

function readRules(reader: DocumentReader, root: Node): { rules: QuotaRule[]; ruleLayout: RuleLayout[] } {
  const rules: QuotaRule[] = [];
  const ruleLayout: RuleLayout[] = [];
  for (const ruleNode of items(propertyValueNode(root, 'rules'))) {
    if (ruleNode.type === 'object') readRule(reader, ruleNode, rules, ruleLayout);
  }
  return { rules, ruleLayout };
}

function readGroups(reader: DocumentReader, root: Node): { groups: QuotaGroup[]; groupLayout: GroupLayout[] } {
  const groups: QuotaGroup[] = [];
  const groupLayout: GroupLayout[] = [];
  for (const groupNode of items(propertyValueNode(root, 'groups'))) {
    if (groupNode.type !== 'object') continue;
    const name = stringAt(groupNode, 'name');
    if (name) reader.define('group', name.value, name.node);
    const ruleNames: string[] = [];
    for (const ref of stringItems(propertyValueNode(groupNode, 'rules'))) {
      ruleNames.push(ref.value);
      reader.note('rule', 'reference', ref.value, ref.node);
      reader.records.ruleReferences.push({ ...ref, group: name?.value });
    }
    if (name) {
      const group: QuotaGroup = { name: name.value, rules: ruleNames };
      groups.push(group);
      groupLayout.push({ group, node: spanOf(groupNode), nameSpan: spanOf(name.node) });
    }
  }
  return { groups, groupLayout };
}

/** The file's `forgejoVersion`, when it is a string: its profile, or why it has none. */
function readForgejoVersion(root: Node): DeclaredForgejoVersion | undefined {
  const versionNode = propertyValueNode(root, 'forgejoVersion');
  if (versionNode?.type !== 'string') return undefined;
  const text = versionNode.value as string;
  const declared = forgejoProfile(text);
  return declared.ok ? { text, span: spanOf(versionNode), profile: declared.profile } : { text, span: spanOf(versionNode), error: declared.message };
}

/** The top-level settings: default groups, the built-in group's total, `enabled`, and the declared Forgejo version. */
function readSettings(reader: DocumentReader, root: Node): { defaultGroups: string[]; defaultTotal: number | bigint; enabled: boolean; forgejoVersion?: DeclaredForgejoVersion } {
  const defaultGroups: string[] = [];
  for (const ref of stringItems(propertyValueNode(root, 'defaultGroups'))) {
    defaultGroups.push(ref.value);
    reader.groupReference(ref, 'defaultGroups');
  }
  const defaultTotalNode = propertyValueNode(root, 'defaultTotal');
  const defaultTotal = defaultTotalNode ? (reader.limitAt(defaultTotalNode, 'defaultTotal') ?? -1) : -1;
  if (defaultTotalNode) reader.records.defaultTotal = { node: defaultTotalNode, bytes: defaultTotal };
  const forgejoVersion = readForgejoVersion(root);
  const enabledNode = propertyValueNode(root, 'enabled');
  const enabled = enabledNode?.type === 'boolean' ? (enabledNode.value as boolean) : true;
  return { defaultGroups, defaultTotal, enabled, ...(forgejoVersion ? { forgejoVersion } : {}) };
}

/** `assignments`: account → the groups assigned to it. Its accounts are checked only when the file defines accounts. */
function readAssignments(reader: DocumentReader, root: Node, hasAccounts: boolean): Record<string, string[]> {
  const assignments: Record<string, string[]> = {};
  for (const { key, value } of properties(propertyValueNode(root, 'assignments'))) {
    const account = key.value as string;
    reader.accountReference({ value: account, node: key }, 'assignments', hasAccounts);
    assignments[account] = [];
    for (const ref of stringItems(value)) {
      assignments[account].push(ref.value);
      reader.groupReference(ref, l10n.t('The assignment of "{0}"', account));
    }
  }
  return assignments;
}

/** One account's usage scenario: bytes per leaf subject (aggregates are recorded for the `schema` rule, not summed). */
function readAccountUsage(reader: DocumentReader, account: string, value: Node | undefined): LeafUsage {
  const leafUsage = zeroUsage();
  for (const entry of properties(value)) {
    const subject = entry.key.value as string;
    reader.records.subjects.push({ value: subject, node: entry.key, where: l10n.t('the usage of "{0}"', account) });
    const canonical = canonicalSubject(subject);
    const bytes = reader.sizeAt(entry.value, l10n.t('the usage of "{0}" for {1}', account, subject));
    if (!canonical) continue;
    if (!isLeafSubject(canonical)) {
      reader.records.aggregateUsage.push({ key: entry.key, subject });
      continue;
    }
    if (bytes !== undefined) leafUsage[canonical] = Number(leafUsage[canonical]) + Math.max(0, bytes);
  }
  return leafUsage;
}

/** The `usage` section: the scenarios given per account. Its accounts are checked only when the file defines accounts. */
function readUsageScenarios(reader: DocumentReader, root: Node, hasAccounts: boolean): Map<string, LeafUsage> {
  const usage = new Map<string, LeafUsage>();
  for (const { key, value } of properties(propertyValueNode(root, 'usage'))) {
    const account = key.value as string;
    reader.accountReference({ value: account, node: key }, 'usage', hasAccounts);
    usage.set(account, readAccountUsage(reader, account, value));
  }
  return usage;
}

/** Every account the file mentions, in the order it meets them, and the usage of each: the scenario given, else the one computed from the content. */
function accountUsage(content: InstanceContent, scenarios: Map<string, LeafUsage>, assignments: Record<string, string[]>) {
  const accountNames: string[] = content.accounts.map((a) => a.name);
  const mention = (name: string) => {
    if (!accountNames.includes(name)) accountNames.push(name);
  };
  const usage = new Map(scenarios);
  const usageSource = new Map<string, 'usage' | 'content'>([...scenarios.keys()].map((name) => [name, 'usage']));
  for (const name of scenarios.keys()) mention(name);
  for (const name of Object.keys(assignments)) mention(name);
  for (const [name, leafUsage] of computeUsage(content)) {
    mention(name);
    if (!usage.has(name)) {
      usage.set(name, leafUsage);
      usageSource.set(name, 'content');
    }
  }
  return { accountNames, usage, usageSource };
}

/** `text` is what `root` was parsed from: number tokens are read from it, so limits beyond 2^53 stay exact. */
export function readQuotaDocument(root: Node, text?: string): QuotaReading {
  const reader = new DocumentReader(text);
  const { rules, ruleLayout } = readRules(reader, root);
  const { groups, groupLayout } = readGroups(reader, root);
  const { defaultGroups, defaultTotal, enabled, forgejoVersion } = readSettings(reader, root);
  const isInstance = INSTANCE_KEYS.some((key) => propertyValueNode(root, key) !== undefined);
  const content = readInstanceContent(reader, root);
  const hasAccounts = propertyValueNode(root, 'accounts') !== undefined;
  const assignments = readAssignments(reader, root, hasAccounts);
  const scenarios = readUsageScenarios(reader, root, hasAccounts);
  const { accountNames, usage, usageSource } = accountUsage(content, scenarios, assignments);
  const model: QuotaModel = { enabled, defaultGroups, defaultTotal, rules, groups, assignments };
  return {
    ...reader.records,
    result: { model, content, isInstance, accountNames, usage, usageSource, names: { occurrences: reader.occurrences }, ruleLayout, groupLayout, ...(forgejoVersion ? { forgejoVersion } : {}) },
  };
}

/** Accounts, each name defined once (a repeat is left out); then their owners, as account references. */
function readAccounts(reader: DocumentReader, root: Node): InstanceContent['accounts'] {
  const accounts: InstanceContent['accounts'] = [];
  const accountNodes = items(propertyValueNode(root, 'accounts'));
  for (const node of accountNodes) {
    const name = stringAt(node, 'name');
    if (!name || !reader.define('account', name.value, name.node)) continue;
    const admin = propertyValueNode(node, 'admin');
    const token = stringAt(node, 'token');
    accounts.push({
      name: name.value,
      type: stringAt(node, 'type')?.value === 'org' ? 'org' : 'user',
      ...(admin?.type === 'boolean' ? { admin: admin.value as boolean } : {}),
      ...(token ? { token: token.value } : {}),
      owners: stringItems(propertyValueNode(node, 'owners')).map((o) => o.value),
      ...(stringAt(node, 'email') ? { email: stringAt(node, 'email')!.value } : {}),
      ...(stringAt(node, 'fullName') ? { fullName: stringAt(node, 'fullName')!.value } : {}),
    });
  }
  for (const node of accountNodes) {
    const name = stringAt(node, 'name')?.value ?? 'account';
    for (const owner of stringItems(propertyValueNode(node, 'owners'))) reader.accountReference(owner, l10n.t('The owners of "{0}"', name));
  }
  return accounts;
}

/** Repositories, each `owner/name` defined once (a repeat is left out); the owner is an account reference. */
function readRepos(reader: DocumentReader, root: Node): InstanceContent['repos'] {
  const repos: InstanceContent['repos'] = [];
  for (const node of items(propertyValueNode(root, 'repos'))) {
    const owner = stringAt(node, 'owner');
    const name = stringAt(node, 'name');
    if (!owner || !name) continue;
    const fullName = `${owner.value}/${name.value}`;
    reader.accountReference(owner, l10n.t('Repo "{0}"', fullName));
    if (!reader.define('repo', fullName, name.node)) continue;
    const privateNode = propertyValueNode(node, 'private');
    repos.push({
      owner: owner.value,
      name: name.value,
      private: privateNode?.type === 'boolean' ? (privateNode.value as boolean) : false,
      gitSize: reader.sizeAt(propertyValueNode(node, 'gitSize'), l10n.t('the git size of repo "{0}"', fullName)) ?? 0,
      lfsSize: reader.sizeAt(propertyValueNode(node, 'lfsSize'), l10n.t('the LFS size of repo "{0}"', fullName)) ?? 0,
    });
  }
  return repos;
}

/** Attachments; one with a repository and a valid size is content. */
function readAttachments(reader: DocumentReader, root: Node): InstanceContent['attachments'] {
  const attachments: InstanceContent['attachments'] = [];
  for (const node of items(propertyValueNode(root, 'attachments'))) {
    const repo = stringAt(node, 'repo');
    const name = stringAt(node, 'name')?.value ?? '';
    const label = l10n.t('Attachment "{0}"', name);
    const uploader = stringAt(node, 'uploader');
    reader.repoReference(repo, label);
    reader.accountReference(uploader, label);
    const size = reader.sizeAt(propertyValueNode(node, 'size'), l10n.t('the size of attachment "{0}"', name));
    if (!repo || size === undefined) continue;
    const release = stringAt(node, 'release');
    const issue = propertyValueNode(node, 'issue');
    const comment = propertyValueNode(node, 'comment');
    attachments.push({
      repo: repo.value,
      name,
      size,
      ...(release ? { release: release.value } : {}),
      ...(issue?.type === 'number' ? { issue: issue.value as number } : {}),
      ...(comment?.type === 'number' ? { comment: comment.value as number } : {}),
      ...(uploader ? { uploader: uploader.value } : {}),
    });
  }
  return attachments;
}

/** Packages; one with an owner and a valid size is content. */
function readPackages(reader: DocumentReader, root: Node): InstanceContent['packages'] {
  const packages: InstanceContent['packages'] = [];
  for (const node of items(propertyValueNode(root, 'packages'))) {
    const owner = stringAt(node, 'owner');
    const repo = stringAt(node, 'repo');
    const name = stringAt(node, 'name')?.value ?? '';
    const label = l10n.t('Package "{0}"', name);
    reader.accountReference(owner, label);
    reader.repoReference(repo, label);
    const size = reader.sizeAt(propertyValueNode(node, 'size'), l10n.t('the size of package "{0}"', name));
    if (!owner || size === undefined) continue;
    packages.push({ owner: owner.value, ...(repo ? { repo: repo.value } : {}), type: stringAt(node, 'type')?.value ?? 'generic', name, version: stringAt(node, 'version')?.value ?? '', size });
  }
  return packages;
}

/** Action artifacts; one with a repository and a valid size is content. */
function readArtifacts(reader: DocumentReader, root: Node): InstanceContent['artifacts'] {
  const artifacts: InstanceContent['artifacts'] = [];
  for (const node of items(propertyValueNode(root, 'artifacts'))) {
    const repo = stringAt(node, 'repo');
    const name = stringAt(node, 'name')?.value ?? '';
    reader.repoReference(repo, l10n.t('Artifact "{0}"', name));
    const size = reader.sizeAt(propertyValueNode(node, 'size'), l10n.t('the size of artifact "{0}"', name));
    if (!repo || size === undefined) continue;
    const runId = propertyValueNode(node, 'runId');
    const expired = propertyValueNode(node, 'expired');
    artifacts.push({
      repo: repo.value,
      name,
      size,
      runId: runId?.type === 'number' ? (runId.value as number) : 0,
      expired: expired?.type === 'boolean' ? (expired.value as boolean) : false,
    });
  }
  return artifacts;
}

/** Reads accounts, repos, attachments, packages and artifacts, in that order; a repeated account or repository is left out. */
function readInstanceContent(reader: DocumentReader, root: Node): InstanceContent {
  const accounts = readAccounts(reader, root);
  const repos = readRepos(reader, root);
  return { accounts, repos, attachments: readAttachments(reader, root), packages: readPackages(reader, root), artifacts: readArtifacts(reader, root) };
}
