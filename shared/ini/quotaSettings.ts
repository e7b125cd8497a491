/**
 * The quota part of a Forgejo `app.ini` as Forgejo reads it (`modules/setting/quota.go`): the two
 * sections, the keys each one holds, and the readings of ENABLED, DEFAULT_GROUPS and TOTAL.
 */
import * as l10n from '@vscode/l10n';
import type { Span } from '../diagnostics';
import type { ForgejoProfile } from '../quota';
import { lazyTable } from '../text/lazyTable';
import { newerServerTotal, olderServerTotal, parseGoIniBool, splitGoIniList } from './goValues';
import type { IniDocument, IniEntry } from './parse';

export const QUOTA_SECTION = 'quota';
export const QUOTA_DEFAULT_SECTION = 'quota.default';

/** The keys Forgejo reads in each quota section, with what they mean. */
export const QUOTA_KEYS: Record<string, Readonly<Record<string, string>>> = {
  [QUOTA_SECTION]: lazyTable({
    ENABLED: () => l10n.t('Turns the quota engine on. Default `false`: every quota API route answers 404 and nothing is enforced.'),
    DEFAULT_GROUPS: () => l10n.t('Comma-separated quota groups for users and organizations without a group of their own. Names that match no group are silently skipped. Default: none.'),
  }),
  [QUOTA_DEFAULT_SECTION]: lazyTable({
    TOTAL: () =>
      l10n.t(
        'Limit of the built-in `size:all` rule used when an account has no group at all (not even a default one). `-1` (the default) is unlimited. Newer servers accept sizes such as `10G` or `500MiB`; older ones only a plain number of bytes.',
      ),
  }),
};

export function isQuotaSection(name: string): boolean {
  return name === QUOTA_SECTION || name === QUOTA_DEFAULT_SECTION;
}

/** A list of group names that exist somewhere: the workspace's quota file, or a live server. */
export interface GroupSource {
  /** Shown in messages: a file name, or "the server https://…". */
  label: string;
  names: string[];
}

export interface AppIniOptions {
  /** Where group names are known to exist. Empty: group names are not checked ("could not check"). */
  groups?: GroupSource[];
  /**
   * The Forgejo version the file is for, when something says so (the setting, the connected
   * server). Then TOTAL is checked as that version reads it; without it, against both readings.
   */
  forgejo?: ForgejoProfile;
}

/** A setting as Forgejo reads it, and the line it comes from. */
export interface SettingReading<T> {
  value: T;
  entry: IniEntry;
}

interface AppIniSettings {
  enabled?: SettingReading<boolean>;
  defaultGroups?: SettingReading<string[]>;
  /** Newer servers' reading (byte sizes); `older` is how servers that read a plain integer see it. */
  defaultTotal?: SettingReading<number> & { older: number };
}

/** The TOTAL Forgejo reads ([quota.default] inherits it from [quota] in go-ini), as each server generation reads it. */
export interface TotalReading {
  entry: IniEntry;
  /** How servers from 12.0.4 on read it (byte sizes); `reason` says why it became -1. */
  newer: { bytes: bigint; reason?: string };
  /** How older servers read it (a plain integer); undefined when they ignore it. */
  older?: bigint;
}

/** The quota sections as Forgejo reads them. */
export interface QuotaSettingsReading {
  /** Entries of [quota] and [quota.default], in file order. */
  quotaEntries: IniEntry[];
  /** The entry Forgejo reads for a key of a quota section: the last one (go-ini overwrites repeated keys). */
  readEntry(section: string, key: string): IniEntry | undefined;
  /** Where the first header of each quota section present is, as an index in `document.headers`. */
  firstHeaders: ReadonlyMap<string, number>;
  settings: AppIniSettings;
  /** The DEFAULT_GROUPS items with their spans in the text. */
  defaultGroupItems: Array<{ name: string; span: Span }>;
  total?: TotalReading;
}

function firstQuotaHeaders(document: IniDocument): Map<string, number> {
  const first = new Map<string, number>();
  document.headers.forEach((header, index) => {
    if (isQuotaSection(header.name) && !first.has(header.name)) first.set(header.name, index);
  });
  return first;
}

function readEnabled(entry: IniEntry | undefined): AppIniSettings['enabled'] {
  return entry ? { value: parseGoIniBool(entry.value) ?? false, entry } : undefined;
}

function readDefaultGroupItems(entry: IniEntry | undefined): Array<{ name: string; span: Span }> {
  if (!entry) return [];
  return splitGoIniList(entry.value)
    .filter((item) => item.value.length > 0)
    .map((item) => ({ name: item.value, span: { offset: entry.valueSpan.offset + item.offset, length: item.value.length } }));
}

function readTotal(entry: IniEntry | undefined, defaultSectionExists: boolean): TotalReading | undefined {
  if (!entry) return undefined;
  // Older servers map the [quota.default] section only when it exists.
  return { entry, newer: newerServerTotal(entry.value), older: defaultSectionExists ? olderServerTotal(entry.value) : undefined };
}

/** TOTAL as a setting: newer servers' reading, or older servers' when the Forgejo version in use reads a plain integer. */
function totalSetting(total: TotalReading | undefined, forgejo: ForgejoProfile | undefined): AppIniSettings['defaultTotal'] {
  if (!total) return undefined;
  const older = total.older === undefined ? -1 : Number(total.older);
  return { value: forgejo?.totalParsing === 'integer' ? older : Number(total.newer.bytes), older, entry: total.entry };
}

export function readQuotaSettings(document: IniDocument, forgejo: ForgejoProfile | undefined): QuotaSettingsReading {
  const quotaEntries = document.entries.filter((entry) => isQuotaSection(entry.section));
  const last = new Map<string, IniEntry>();
  for (const entry of quotaEntries) last.set(`${entry.section}\u0000${entry.key}`, entry);
  const readEntry = (section: string, key: string) => last.get(`${section}\u0000${key}`);
  const firstHeaders = firstQuotaHeaders(document);
  const groupsEntry = readEntry(QUOTA_SECTION, 'DEFAULT_GROUPS');
  const defaultGroupItems = readDefaultGroupItems(groupsEntry);
  const total = readTotal(readEntry(QUOTA_DEFAULT_SECTION, 'TOTAL') ?? readEntry(QUOTA_SECTION, 'TOTAL'), firstHeaders.has(QUOTA_DEFAULT_SECTION));
  const settings: AppIniSettings = {};
  const enabled = readEnabled(readEntry(QUOTA_SECTION, 'ENABLED'));
  if (enabled) settings.enabled = enabled;
  if (groupsEntry)
    settings.defaultGroups = {
      value: splitGoIniList(groupsEntry.value)
        .map((item) => item.value)
        .filter((name) => name.length > 0),
      entry: groupsEntry,
    };
  const defaultTotal = totalSetting(total, forgejo);
  if (defaultTotal) settings.defaultTotal = defaultTotal;
  return { quotaEntries, readEntry, firstHeaders, settings, defaultGroupItems, total };
}
