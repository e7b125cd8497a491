/**
 * `forgejo-version-mismatch`: a quota file declares a Forgejo version whose quota rules differ from those
 * of the server the editor is connected to. The language server reports it, as only it knows the
 * connected server. The file wins (its previews follow it), so this is information, not an error: the
 * admin may be planning an upgrade. The fix declares the connected server's version instead.
 */
import * as l10n from '@vscode/l10n';
import { placeFinding, type Diagnostic } from '../../diagnostics';
import type { QuotaAnalysis } from '../analysis';
import { QUOTA_CODES } from '../codes';
import { forgejoProfile, profileDifferences, rulesLabel, type ForgejoProfile } from '../forgejoVersion';
import type { QuotaDiagnosticRule, QuotaFinding } from './quotaDiagnosticRule';
import { replaceString } from './suggestions';

/** The server the editor is connected to: its Forgejo version and, for the message, its address. */
export interface ConnectedServer {
  version: string | undefined;
  server: string | undefined;
}

/** Reports the code from the file's analysis and the connected server, not from the file alone. */
type VersionMismatchCheck = (analysis: QuotaAnalysis, connected: ConnectedServer) => QuotaFinding[];

/** What differs between two profiles, in the order a reader cares about. */
function ruleDifferences(file: ForgejoProfile, server: ForgejoProfile): string[] {
  const differences: string[] = [];
  if (file.generation !== server.generation) differences.push(l10n.t('evaluation (generation {0} vs {1})', file.generation, server.generation));
  if (file.sizeAllCountsReposTwice !== server.sizeAllCountsReposTwice) differences.push(l10n.t('what size:all counts'));
  if (file.totalParsing !== server.totalParsing) differences.push(l10n.t('how [quota.default] TOTAL is read'));
  if (file.packageUploadChargedTo !== server.packageUploadChargedTo) differences.push(l10n.t('whose quota package uploads are checked against'));
  if (file.lfsUploadChargedTo !== server.lfsUploadChargedTo) differences.push(l10n.t('whose quota LFS uploads are checked against'));
  return differences;
}

function mismatchMessage(declared: { text: string; profile: ForgejoProfile }, connected: { version: string; server: string | undefined; profile: ForgejoProfile }): string {
  const newer = connected.profile.generation === 2 ? connected.profile : declared.profile;
  const older = newer === connected.profile ? declared.profile : connected.profile;
  return l10n.t(
    'This file declares Forgejo {0} ({1}), but {2} runs {3} ({4}): they differ in {5}. The previews follow the file. On {6}, {7}.',
    declared.text,
    rulesLabel(declared.profile),
    connected.server ?? l10n.t('the connected server'),
    connected.version,
    rulesLabel(connected.profile),
    ruleDifferences(declared.profile, connected.profile).join(', '),
    older.label,
    profileDifferences(older)[0] ?? l10n.t('the rules differ'),
  );
}

const versionMismatch: VersionMismatchCheck = (analysis, { version, server }) => {
  const declared = analysis.forgejoVersion;
  if (!declared?.profile || version === undefined) return [];
  const connected = forgejoProfile(version);
  if (!connected.ok) return [];
  // The contract: a different evaluation generation is what makes previews contradict the server.
  if (declared.profile.generation === connected.profile.generation) return [];
  return [
    {
      code: 'forgejo-version-mismatch',
      message: mismatchMessage({ text: declared.text, profile: declared.profile }, { version, server, profile: connected.profile }),
      at: declared.span,
      data: { fileVersion: declared.text, serverVersion: version, fileGeneration: declared.profile.generation, serverGeneration: connected.profile.generation },
    },
  ];
};

export const forgejoVersionMismatch: QuotaDiagnosticRule<VersionMismatchCheck> = {
  code: 'forgejo-version-mismatch',
  doc: "`forgejoVersion` declares a Forgejo whose quota rules differ from the connected server's, so the previews, which follow the file, may contradict that server.",
  check: versionMismatch,
  fix: (_analysis, request) => {
    const { serverVersion } = request.data as { serverVersion?: string };
    return serverVersion ? [{ title: l10n.t("Use the connected server's version {0}", serverVersion), edits: replaceString(request, serverVersion), preferred: false }] : [];
  },
};

/** The `forgejo-version-mismatch` diagnostic of a file, placed, when the connected server runs other quota rules than the file declares. */
export function versionMismatchDiagnostic(analysis: QuotaAnalysis, serverVersion: string | undefined, server: string | undefined): Diagnostic | undefined {
  const [finding] = versionMismatch(analysis, { version: serverVersion, server });
  return finding && placeFinding(finding, QUOTA_CODES[finding.code].severity, (span) => analysis.lines.rangeOf(span));
}
