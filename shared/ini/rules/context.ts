/**
 * What every app.ini rule reads, built once per analysis: the parsed document, the quota settings
 * as Forgejo reads them and the options (known groups, Forgejo version); and the rule's shape.
 */
import type { DiagnosticRule } from '../../diagnosticRule';
import type { Diagnostic, Finding, Span } from '../../diagnostics';
import type { Fix, FixRequest } from '../../edits';
import type { ForgejoProfile } from '../../quota';
import { LineIndex } from '../../text/lineIndex';
import type { AppIniCode } from '../codes';
import { parseIni, type IniDocument } from '../parse';
import { readQuotaSettings, type AppIniOptions, type GroupSource, type QuotaSettingsReading } from '../quotaSettings';

export interface AppIniContext extends QuotaSettingsReading {
  text: string;
  lines: LineIndex;
  document: IniDocument;
  /** The group sources given, empty when none was available (group names are then not checked). */
  groupSources: GroupSource[];
  /** The Forgejo version the file is checked for; undefined: every version's reading is checked. */
  forgejo?: ForgejoProfile;
}

export interface AppIniAnalysis extends AppIniContext {
  /** True when the file names default groups but no group source was available to check them. */
  groupsUnchecked: boolean;
  diagnostics: Diagnostic[];
}

export function buildAppIniContext(text: string, options: AppIniOptions): AppIniContext {
  const document = parseIni(text);
  const groupSources = (options.groups ?? []).filter((source) => source !== undefined);
  return {
    text,
    lines: new LineIndex(text),
    document,
    groupSources,
    ...(options.forgejo ? { forgejo: options.forgejo } : {}),
    ...readQuotaSettings(document, options.forgejo),
  };
}

/** An app.ini rule's finding, located by offsets in the file's text. */
export type AppIniFinding = Finding<Span, AppIniCode>;

/** Reports one code over the whole file. */
type AppIniCheck = (context: AppIniContext) => AppIniFinding[];

/** The quick fixes of one diagnostic: the analysis it was reported in, and its span and `data`. */
export type AppIniFixProvider = (context: AppIniContext, request: FixRequest) => Fix[];

export type AppIniRule = DiagnosticRule<AppIniCode, AppIniCheck, AppIniFixProvider>;

/** 1-based line of an offset, as messages name lines. */
export const lineNumberOf = (context: AppIniContext, span: Span) => context.lines.positionAt(span.offset).line + 1;
