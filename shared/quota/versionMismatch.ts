/**
 * The `forgejo-version-mismatch` diagnostic: a quota file declares a Forgejo version whose quota
 * rules differ from those of the server the editor is connected to. The file wins (its previews
 * follow it), so this is information, not an error: the admin may be planning an upgrade.
 */
import * as l10n from '@vscode/l10n';
import type { Diagnostic } from '../diagnostics';
import type { QuotaAnalysis } from './config';
import { forgejoProfile, profileDifferences, rulesLabel, type ForgejoProfile } from './forgejoVersion';
import { QUOTA_CODES } from './codes';

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

export function versionMismatchDiagnostic(analysis: QuotaAnalysis, serverVersion: string | undefined, server: string | undefined): Diagnostic | undefined {
  const declared = analysis.forgejoVersion;
  if (!declared?.profile || serverVersion === undefined) return undefined;
  const connected = forgejoProfile(serverVersion);
  if (!connected.ok) return undefined;
  // The contract: a different evaluation generation is what makes previews contradict the server.
  if (declared.profile.generation === connected.profile.generation) return undefined;
  const differences = ruleDifferences(declared.profile, connected.profile);
  const newer = connected.profile.generation === 2 ? connected.profile : declared.profile;
  const older = newer === connected.profile ? declared.profile : connected.profile;
  return {
    code: 'forgejo-version-mismatch',
    severity: QUOTA_CODES['forgejo-version-mismatch'].severity,
    message: l10n.t(
      'This file declares Forgejo {0} ({1}), but {2} runs {3} ({4}): they differ in {5}. The previews follow the file. On {6}, {7}.',
      declared.text,
      rulesLabel(declared.profile),
      server ?? l10n.t('the connected server'),
      serverVersion,
      rulesLabel(connected.profile),
      differences.join(', '),
      older.label,
      profileDifferences(older)[0] ?? l10n.t('the rules differ'),
    ),
    range: analysis.lines.rangeOf(declared.span),
    data: { fileVersion: declared.text, serverVersion, fileGeneration: declared.profile.generation, serverGeneration: connected.profile.generation },
  };
}
