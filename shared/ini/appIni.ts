/**
 * Forgejo's `app.ini`, quota part: the settings Forgejo reads from `[quota]` and `[quota.default]`
 * (as `modules/setting/quota.go` maps them) and the diagnostics for what it would silently ignore.
 * The rest of the file is left alone, except lines that stop Forgejo from loading the file at all.
 */
import * as l10n from '@vscode/l10n';
import { compareDiagnostics, placeFinding, type Diagnostic, type Finding, type Range, type Span } from '../diagnostics';
import { describeSize } from '../quota/sizes';
import { editDistance } from '../text/editDistance';
import { lazyTable } from '../text/lazyTable';
import { andList, orList } from '../text/lists';
import { LineIndex } from '../text/lineIndex';
import { APP_INI_CODES, type AppIniCode } from './codes';
import type { ForgejoProfile } from '../quota/forgejoVersion';
import { newerServerTotal, olderServerTotal, parseGoIniBool, splitGoIniList, type ListItem } from './goValues';
import { parseIni, type IniDocument, type IniEntry } from './parse';

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

/** One quick fix a diagnostic offers, precomputed so the editor side only converts it. */
export interface FixData {
  title: string;
  range: Range;
  newText: string;
  preferred?: boolean;
}

export interface AppIniAnalysis {
  text: string;
  lines: LineIndex;
  document: IniDocument;
  settings: AppIniSettings;
  /** The DEFAULT_GROUPS items with their spans in the text. */
  defaultGroupItems: Array<{ name: string; span: Span }>;
  /** True when the file names default groups but no group source was available to check them. */
  groupsUnchecked: boolean;
  groupSources: GroupSource[];
  diagnostics: Diagnostic[];
}

function isQuotaSection(name: string): boolean {
  return name === QUOTA_SECTION || name === QUOTA_DEFAULT_SECTION;
}

function closest(value: string, candidates: string[], tolerance = 2): string[] {
  const lowered = value.toLowerCase();
  return candidates
    .map((candidate) => ({ candidate, distance: editDistance(lowered, candidate.toLowerCase()) }))
    .filter(({ distance }) => distance <= tolerance)
    .sort((a, b) => a.distance - b.distance)
    .map(({ candidate }) => candidate);
}

export function analyzeAppIni(text: string, options: AppIniOptions = {}): AppIniAnalysis {
  const document = parseIni(text);
  const lines = new LineIndex(text);
  const at = (span: Span) => lines.rangeOf(span);
  const findings: Array<Finding<Span, AppIniCode>> = [];
  const report = (code: AppIniCode, span: Span, message: string, extra: Pick<Finding<Span>, 'related' | 'tags' | 'data'> = {}) => findings.push({ code, message, at: span, ...extra });
  const lineOf = (span: Span) => lines.positionAt(span.offset).line + 1;
  const fixes = (list: FixData[]) => ({ data: { fixes: list } });

  for (const error of document.errors) {
    report('ini-syntax', error.span, l10n.t('Forgejo cannot load this file: {0}. go-ini refuses the whole file, so the server does not start.', error.message));
  }

  // Section headers: repeats of the quota sections, and names close to them.
  const firstHeader = new Map<string, number>();
  document.headers.forEach((header, index) => {
    if (isQuotaSection(header.name)) {
      const first = firstHeader.get(header.name);
      if (first === undefined) firstHeader.set(header.name, index);
      else {
        const firstSpan = document.headers[first].span;
        report(
          'duplicate-section',
          header.span,
          l10n.t('[{0}] appears again (first on line {1}): Forgejo merges both into one section, and a key set in both keeps the later value.', header.name, lineOf(firstSpan)),
          {
            related: [{ at: firstSpan, message: l10n.t('first [{0}]', header.name) }],
          },
        );
      }
      return;
    }
    const suggestions = closest(header.name.trim(), [QUOTA_SECTION, QUOTA_DEFAULT_SECTION], header.name.trim().toLowerCase().startsWith('quota') ? 2 : 1);
    if (suggestions.length === 0) return;
    report(
      'misspelt-section',
      header.nameSpan,
      l10n.t('[{0}] is not a section Forgejo reads; did you mean [{1}]? Section names are case-sensitive and not trimmed, so its keys are ignored.', header.name, suggestions[0]),
      fixes(suggestions.map((name, i) => ({ title: l10n.t('Rename the section to [{0}]', name), range: at(header.nameSpan), newText: name, preferred: i === 0 }))),
    );
  });

  // The last entry of each key wins (go-ini overwrites repeated keys).
  const quotaEntries = document.entries.filter((entry) => isQuotaSection(entry.section));
  const last = new Map<string, IniEntry>();
  for (const entry of quotaEntries) last.set(`${entry.section}\u0000${entry.key}`, entry);
  for (const entry of quotaEntries) {
    const winner = last.get(`${entry.section}\u0000${entry.key}`)!;
    if (winner === entry) continue;
    const lineSpan = { offset: entry.lineSpan.offset, length: entry.lineSpan.length };
    const lineRange = at(lineSpan);
    report(
      'duplicate-key',
      entry.keySpan,
      l10n.t('{0} is set again on line {1}: Forgejo reads only the last value ({2}), so this one is ignored.', entry.key, lineOf(winner.keySpan), JSON.stringify(winner.value)),
      {
        tags: ['unnecessary'],
        related: [{ at: winner.keySpan, message: l10n.t('the {0} Forgejo reads', entry.key) }],
        ...fixes([
          { title: l10n.t('Remove the ignored {0}', entry.key), range: { start: { line: lineRange.start.line, character: 0 }, end: { line: lineRange.end.line + 1, character: 0 } }, newText: '' },
        ]),
      },
    );
  }

  // Keys Forgejo does not read where they are.
  const headerExists = (name: string) => firstHeader.has(name);
  for (const entry of quotaEntries) {
    const known = QUOTA_KEYS[entry.section];
    if (known[entry.key] !== undefined) continue;
    const otherSection = entry.section === QUOTA_SECTION ? QUOTA_DEFAULT_SECTION : QUOTA_SECTION;
    if (QUOTA_KEYS[otherSection][entry.key] !== undefined) {
      const message =
        entry.key === 'TOTAL'
          ? l10n.t(
              'TOTAL belongs in [{0}]. Forgejo reads it from [{1}] only through section inheritance, when [{0}] sets no TOTAL itself (and older servers only when a [{0}] section exists).',
              QUOTA_DEFAULT_SECTION,
              QUOTA_SECTION,
            )
          : l10n.t('{0} belongs in [{1}]: Forgejo does not read it in [{2}].', entry.key, QUOTA_SECTION, QUOTA_DEFAULT_SECTION);
      report('misplaced-key', entry.keySpan, message, { data: { key: entry.key, section: otherSection } });
      continue;
    }
    const suggestions = closest(entry.key, Object.keys(known));
    report(
      'unknown-key',
      entry.keySpan,
      suggestions.length
        ? l10n.t('Forgejo does not read {0} in [{1}]; did you mean {2}? Key names are case-sensitive.', entry.key, entry.section, suggestions[0])
        : l10n.t('Forgejo does not read {0} in [{1}]; it reads only {2} there.', entry.key, entry.section, andList(Object.keys(known))),
      fixes(suggestions.map((key, i) => ({ title: l10n.t('Rename to {0}', key), range: at(entry.keySpan), newText: key, preferred: i === 0 }))),
    );
  }

  // Values: comment characters and backslashes Forgejo reads differently from how they look.
  for (const entry of quotaEntries) {
    if (entry.comment && entry.valueSpan.length > 0 && !/\s/.test(text[entry.comment.offset - 1] ?? ' ')) {
      const full = text.slice(entry.valueSpan.offset, entry.comment.offset + entry.comment.length);
      report(
        'value-cut-by-comment',
        entry.comment,
        l10n.t(
          '"{0}" starts a comment: Forgejo reads {1} as {2} and ignores {3}. Wrap the value in backticks to keep the character.',
          text[entry.comment.offset],
          entry.key,
          JSON.stringify(entry.value),
          JSON.stringify(text.slice(entry.comment.offset, entry.comment.offset + entry.comment.length)),
        ),
        {
          ...fixes(
            full.includes('`') ? [] : [{ title: l10n.t('Wrap the value in backticks'), range: at({ offset: entry.valueSpan.offset, length: full.length }), newText: `\`${full}\``, preferred: true }],
          ),
        },
      );
    }
    if (!entry.quote && entry.value.endsWith('\\')) {
      report(
        'continuation-ignored',
        { offset: entry.valueSpan.offset + entry.valueSpan.length - 1, length: 1 },
        l10n.t('Forgejo does not join lines ending in a backslash: the "\\" is part of {0}\'s value and the next line is read on its own.', entry.key),
      );
    }
  }

  // The settings as Forgejo maps them.
  const settings: AppIniSettings = {};
  const keyIn = (section: string, key: string) => last.get(`${section}\u0000${key}`);
  const enabledEntry = keyIn(QUOTA_SECTION, 'ENABLED');
  if (enabledEntry) {
    const value = parseGoIniBool(enabledEntry.value);
    settings.enabled = { value: value ?? false, entry: enabledEntry };
    if (value === undefined) {
      const suggestions = /^(?:y|t|on|1|enable)/i.test(enabledEntry.value.trim()) ? ['true', 'false'] : ['false', 'true'];
      report(
        'invalid-boolean',
        enabledEntry.valueSpan.length ? enabledEntry.valueSpan : enabledEntry.keySpan,
        l10n.t(
          'ENABLED = {0} is not a boolean go-ini reads (true/false, yes/no, on/off, 1/0 and their capitalised forms): Forgejo keeps quota disabled, so every quota route answers 404.',
          JSON.stringify(enabledEntry.value),
        ),
        fixes(suggestions.map((word, i) => ({ title: l10n.t('Change to {0}', word), range: at(enabledEntry.valueSpan), newText: word, preferred: i === 0 }))),
      );
    } else if (!value) {
      report('quota-disabled', enabledEntry.valueSpan, l10n.t('Quota is disabled: every quota API route answers 404 and no limit is enforced, whatever the other quota settings say.'));
    }
  } else if (headerExists(QUOTA_SECTION) || headerExists(QUOTA_DEFAULT_SECTION)) {
    const header = document.headers[firstHeader.get(QUOTA_SECTION) ?? firstHeader.get(QUOTA_DEFAULT_SECTION)!];
    report(
      'quota-disabled',
      header.span,
      l10n.t('Quota is disabled: ENABLED is not set and defaults to false, so every quota API route answers 404 and no limit is enforced.'),
      fixes(
        headerExists(QUOTA_SECTION)
          ? [{ title: l10n.t('Add {0}', 'ENABLED = true'), range: at({ offset: header.span.offset + header.span.length, length: 0 }), newText: '\nENABLED = true', preferred: true }]
          : [],
      ),
    );
  }

  const defaultGroupItems: Array<{ name: string; span: Span }> = [];
  const groupsEntry = keyIn(QUOTA_SECTION, 'DEFAULT_GROUPS');
  if (groupsEntry) {
    const items: ListItem[] = splitGoIniList(groupsEntry.value);
    settings.defaultGroups = { value: items.map((item) => item.value).filter((name) => name.length > 0), entry: groupsEntry };
    for (const item of items) {
      if (item.value.length > 0) defaultGroupItems.push({ name: item.value, span: { offset: groupsEntry.valueSpan.offset + item.offset, length: item.value.length } });
    }
  }

  const groupSources = (options.groups ?? []).filter((source) => source !== undefined);
  for (const item of defaultGroupItems) {
    const missingFrom = groupSources.filter((source) => !source.names.includes(item.name));
    if (missingFrom.length === 0) continue;
    const candidates = [...new Set(missingFrom.flatMap((source) => source.names))];
    const suggestions = closest(item.name, candidates).slice(0, 3);
    const where = orList(missingFrom.map((source) => source.label));
    report(
      'unknown-default-group',
      item.span,
      suggestions.length
        ? l10n.t('No group "{0}" in {1}: Forgejo silently skips it. Did you mean "{2}"?', item.name, where, suggestions[0])
        : l10n.t('No group "{0}" in {1}: Forgejo silently skips it.', item.name, where),
      { data: { name: item.name, fixes: suggestions.map((name, i) => ({ title: l10n.t('Change to group "{0}"', name), range: at(item.span), newText: name, preferred: i === 0 })) } },
    );
  }

  // TOTAL: [quota.default] inherits keys from [quota] in go-ini.
  const totalEntry = keyIn(QUOTA_DEFAULT_SECTION, 'TOTAL') ?? keyIn(QUOTA_SECTION, 'TOTAL');
  if (totalEntry) {
    const value = totalEntry.value;
    const newer = newerServerTotal(value);
    // Older servers map the [quota.default] section only when it exists.
    const older = headerExists(QUOTA_DEFAULT_SECTION) ? olderServerTotal(value) : undefined;
    settings.defaultTotal = { value: Number(newer.bytes), older: older === undefined ? -1 : Number(older), entry: totalEntry };
    /** What older servers make of the value: "read it as 1000 bytes". */
    const olderText =
      older === undefined
        ? l10n.t('ignore it (unlimited)')
        : older < 0n && older !== -1n
          ? l10n.t('read it as {0}, a limit no one can meet', String(older))
          : l10n.t('read it as {0} bytes', String(older));
    const span = totalEntry.valueSpan.length ? totalEntry.valueSpan : totalEntry.keySpan;
    const written = JSON.stringify(value);
    const plainFix = (plain: string) => fixes([{ title: l10n.t('Write TOTAL as plain bytes ({0})', plain), range: at(totalEntry.valueSpan), newText: plain, preferred: true }]);
    const forgejo = options.forgejo;
    if (forgejo?.totalParsing === 'integer') {
      // v11 modules/setting/quota.go maps TOTAL into an int64 with go-ini's non-strict MapTo: a
      // value that is not an integer is dropped without a word, and TOTAL stays -1 (unlimited).
      if (value !== '' && older === undefined && headerExists(QUOTA_DEFAULT_SECTION)) {
        const sized = newer.reason ? undefined : newer.bytes.toString();
        report(
          'total-ignored',
          span,
          sized
            ? l10n.t(
                'TOTAL = {0}: {1} (before 12.0.4) reads TOTAL as a plain integer and silently ignores this value, so the built-in limit stays -1 (unlimited). Write {2}.',
                written,
                forgejo.label,
                sized,
              )
            : l10n.t(
                'TOTAL = {0}: {1} (before 12.0.4) reads TOTAL as a plain integer and silently ignores this value, so the built-in limit stays -1 (unlimited). Write a number of bytes, or -1.',
                written,
                forgejo.label,
              ),
          sized ? plainFix(sized) : {},
        );
      }
    } else if (newer.reason) {
      report(
        'invalid-total',
        span,
        forgejo
          ? l10n.t('TOTAL = {0}: {1} reads it as -1 (unlimited) because {2}. Write a number of bytes, a size such as 10G, or -1.', written, forgejo.label, newer.reason)
          : l10n.t(
              'TOTAL = {0}: newer Forgejo servers read it as -1 (unlimited) because {1}; older servers {2}. Write a number of bytes, a size such as 10G, or -1.',
              written,
              newer.reason,
              olderText,
            ),
      );
    } else if (!forgejo && value !== '' && (older === undefined || older !== newer.bytes) && headerExists(QUOTA_DEFAULT_SECTION)) {
      const plain = newer.bytes.toString();
      report(
        'total-older-servers',
        span,
        l10n.t(
          'TOTAL = {0}: newer Forgejo servers read {1}, but older servers (which read TOTAL as a plain integer) {2}. Write {3} to be read the same by every version.',
          written,
          describeSize(Number(newer.bytes)),
          olderText,
          plain,
        ),
        plainFix(plain),
      );
    }
    if (forgejo?.totalParsing === 'integer') settings.defaultTotal = { ...settings.defaultTotal!, value: settings.defaultTotal!.older };
  }

  const diagnostics = findings.map((finding) => placeFinding(finding, APP_INI_CODES[finding.code].severity, at)).sort(compareDiagnostics);
  return {
    text,
    lines,
    document,
    settings,
    defaultGroupItems,
    groupsUnchecked: groupSources.length === 0 && defaultGroupItems.length > 0,
    groupSources,
    diagnostics,
  };
}
