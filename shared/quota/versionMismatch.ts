/**
 * The `forgejo-version-mismatch` diagnostic: a quota file declares a Forgejo version whose quota
 * rules differ from those of the server the editor is connected to. The file wins (its previews
 * follow it), so this is information, not an error: the admin may be planning an upgrade.
 */
import type { Diagnostic } from '../diagnostics';
import type { QuotaAnalysis } from './config';
import { forgejoProfile, profileDifferences, type ForgejoProfile } from './forgejoVersion';
import { QUOTA_CODES } from './codes';

/** What differs between two profiles, in the order a reader cares about. */
function ruleDifferences(file: ForgejoProfile, server: ForgejoProfile): string[] {
  const differences: string[] = [];
  if (file.generation !== server.generation) differences.push(`evaluation (generation ${file.generation} vs ${server.generation})`);
  if (file.sizeAllCountsReposTwice !== server.sizeAllCountsReposTwice) differences.push('what size:all counts');
  if (file.totalParsing !== server.totalParsing) differences.push('how [quota.default] TOTAL is read');
  if (file.packageUploadChargedTo !== server.packageUploadChargedTo) differences.push('whose quota package uploads are checked against');
  if (file.lfsUploadChargedTo !== server.lfsUploadChargedTo) differences.push('whose quota LFS uploads are checked against');
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
    message:
      `This file declares Forgejo ${declared.text} (${declared.profile.label} rules), but ${server ?? 'the connected server'} runs ${serverVersion} ` +
      `(${connected.profile.label} rules): they differ in ${differences.join(', ')}. The previews follow the file. On ${older.label}, ${profileDifferences(older)[0] ?? 'the rules differ'}.`,
    range: analysis.lines.rangeOf(declared.span),
    data: { fileVersion: declared.text, serverVersion, fileGeneration: declared.profile.generation, serverGeneration: connected.profile.generation },
  };
}
