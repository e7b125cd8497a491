/**
 * The output formats of `quota-state check`: text for people (and the `$quota-state` problem
 * matcher), JSON for scripts, GitHub workflow commands for annotations on a pull request, and
 * SARIF 2.1.0 for code-scanning dashboards (GitHub, GitLab, Azure DevOps).
 */
import { pathToFileURL } from 'node:url';
import type { Diagnostic, Range, Severity } from '../shared/diagnostics';
import type { DocumentedCode } from '../shared/diagnosticRule';
import type { DocumentKind } from '../shared/documentKind';
import { EMPTY_FILE } from '../shared/emptyFile';
import { FILE_KINDS } from '../shared/fileKinds';

export const FORMATS = ['text', 'json', 'github', 'sarif'] as const;
export type OutputFormat = (typeof FORMATS)[number];

export interface FileReport {
  /** As printed: relative to the working folder when under it. */
  file: string;
  /** Absolute path, for URIs. */
  path: string;
  kind: DocumentKind | undefined;
  diagnostics: Diagnostic[];
}

/** How `check` and `fix` say a file is none of theirs. */
export const skippedLine = (file: string): string => `${file}: skipped: not recognised as a resource-state, quota or app.ini file`;

/** Not checked: no kind claims the file and nothing was said of it (a blank file gets `empty-file`). */
export function isSkipped(report: FileReport): boolean {
  return !report.kind && report.diagnostics.length === 0;
}

/** `file:line:col: severity code: message` with 1-based line and column, as compilers print. */
export function located(file: string, d: Diagnostic): string {
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function summary(reports: FileReport[]): string {
  const checked = reports.filter((r) => !isSkipped(r));
  const skipped = reports.length - checked.length;
  const problems = checked.reduce((sum, r) => sum + r.diagnostics.length, 0);
  return `${plural(checked.length, 'file')} checked${skipped ? `, ${skipped} skipped` : ''}, ${plural(problems, 'problem')}`;
}

export function textReport(reports: FileReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    if (isSkipped(r)) lines.push(skippedLine(r.file));
    for (const d of r.diagnostics) lines.push(located(r.file, d));
  }
  lines.push(summary(reports));
  return lines.join('\n');
}

export function jsonReport(reports: FileReport[]): string {
  return JSON.stringify(
    reports.map((r) => ({
      file: r.file,
      ...(isSkipped(r) ? { skipped: true } : {}),
      diagnostics: r.diagnostics.map(({ code, severity, message, range }) => ({ code, severity, message, range })),
    })),
    null,
    2,
  );
}

const GITHUB_LEVEL: Record<Severity, string> = { error: 'error', warning: 'warning', information: 'notice', hint: 'notice' };

/** Workflow-command escaping: the message may hold newlines; properties also `:` and `,`. */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=<code>::<message>` (1-based, as GitHub reads them). */
export function githubReport(reports: FileReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    const file = r.file.replace(/\\/g, '/');
    if (isSkipped(r)) lines.push(`::notice file=${escapeProperty(file)},title=skipped::${escapeData('Not recognised as a resource-state, quota or app.ini file; not checked.')}`);
    for (const d of r.diagnostics) {
      const { start, end } = d.range;
      const properties = [
        `file=${escapeProperty(file)}`,
        `line=${start.line + 1}`,
        `col=${start.character + 1}`,
        `endLine=${end.line + 1}`,
        `endColumn=${end.character + 1}`,
        `title=${escapeProperty(d.code)}`,
      ];
      lines.push(`::${GITHUB_LEVEL[d.severity]} ${properties.join(',')}::${escapeData(d.message)}`);
    }
  }
  lines.push(summary(reports));
  return lines.join('\n');
}

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

/** A report's rule family: its kind, or `file` for what is said of a file no kind claims (`empty-file`). */
type RuleFamily = DocumentKind | 'file';

/**
 * Rule ids carry the file kind (`state/syntax`, `quota/syntax`): both kinds have a `syntax` and a
 * `schema` code with different meanings, and SARIF rule ids must be unique within a run.
 */
function sarifRuleId(kind: RuleFamily, code: string): string {
  return `${kind}/${code}`;
}

interface SarifRule extends DocumentedCode {
  kind: RuleFamily;
}

/** Every code of every kind, as the table of file kinds documents it, and the codes of files no kind claims. */
function sarifRules(): SarifRule[] {
  const kinds: SarifRule[] = Object.values(FILE_KINDS).flatMap(({ kind, codes }) => codes.map((code) => ({ kind, ...code })));
  return [...kinds, { kind: 'file', ...EMPTY_FILE }];
}

const SARIF_TAGS: Record<RuleFamily, string> = { state: 'resource-state', quota: 'quota', appIni: 'forgejo-app-ini', file: 'file' };

/** A file's URI: a file URL, or a bucket's object's own URL (`s3://…`: `check --backend`). */
const uriOf = (path: string): string => (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) ? path : pathToFileURL(path).href);

/** A relative path as a URI reference (each segment percent-encoded), or a file URL when outside. */
function artifactLocation(report: FileReport): { uri: string; uriBaseId?: string } {
  const file = report.file.replace(/\\/g, '/');
  if (file === report.path.replace(/\\/g, '/')) return { uri: uriOf(report.path) };
  return { uri: file.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}

function region(range: Range) {
  return {
    startLine: range.start.line + 1,
    startColumn: range.start.character + 1,
    endLine: range.end.line + 1,
    endColumn: range.end.character + 1,
  };
}

function sarifLog(reports: FileReport[], options: { cwd: string; version: string }) {
  const rules = sarifRules();
  const ruleIndex = new Map(rules.map((r, i) => [sarifRuleId(r.kind, r.code), i]));
  const results = [];
  const notifications = [];
  for (const report of reports) {
    const artifact = artifactLocation(report);
    if (isSkipped(report)) {
      notifications.push({
        level: 'note',
        message: { text: skippedLine(report.file) },
        locations: [{ physicalLocation: { artifactLocation: artifact } }],
      });
      continue;
    }
    for (const d of report.diagnostics) {
      const ruleId = sarifRuleId(report.kind ?? 'file', d.code);
      const related = (d.relatedInformation ?? []).map((info, id) => ({
        id,
        message: { text: info.message },
        physicalLocation: {
          artifactLocation: info.uri && info.uri !== uriOf(report.path) ? { uri: info.uri } : artifact,
          region: region(info.range),
        },
      }));
      results.push({
        ruleId,
        ...(ruleIndex.has(ruleId) ? { ruleIndex: ruleIndex.get(ruleId) } : {}),
        level: SARIF_LEVEL[d.severity],
        message: { text: d.message },
        locations: [{ physicalLocation: { artifactLocation: artifact, region: region(d.range) } }],
        ...(related.length ? { relatedLocations: related } : {}),
      });
    }
  }
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'quota-state',
            version: options.version,
            rules: rules.map(({ kind, code, doc, severity }) => ({
              id: sarifRuleId(kind, code),
              name: code,
              shortDescription: { text: doc },
              defaultConfiguration: { level: SARIF_LEVEL[severity] },
              properties: { tags: [SARIF_TAGS[kind]] },
            })),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(options.cwd.endsWith('/') ? options.cwd : `${options.cwd}/`).href } },
        invocations: [{ executionSuccessful: true, ...(notifications.length ? { toolExecutionNotifications: notifications } : {}) }],
        results,
      },
    ],
  };
}

export function sarifReport(reports: FileReport[], options: { cwd: string; version: string }): string {
  return JSON.stringify(sarifLog(reports, options), null, 2);
}
