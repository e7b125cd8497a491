/**
 * Language mode for Forgejo `app.ini` files: adapts the quota-settings analysis in shared/ini
 * to LSP. Group names are checked against the workspace's quota file (read from disk, or from
 * its open editor) and the live server's groups the client sent; the server never goes online.
 */
import * as l10n from '@vscode/l10n';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { type AppIniAnalysis, type GroupSource, type LookupIo, createAppIniService } from '../../shared/ini';
import { resolveForgejoProfile, type ResolvedForgejoProfile } from '../../shared/quota';
import { forgejoStatus } from './quotaMode';
import { andList } from '../../shared/text/lists';
import { DIAGNOSTIC_SOURCE, toCodeAction, toLspCompletionItems } from '../convert';
import type { LanguageMode, ModeContext } from './languageMode';

const { analyze: analyzeAppIni, quotaFileGroups, codeActions: appIniCodeActions, completion: appIniCompletion, hover: appIniHover } = createAppIniService();

const couldNotCheckReason = () => l10n.t('could not check DEFAULT_GROUPS: no quota file in the workspace and not signed in to a server as a site admin');

/** A lookup whose answers are still on the way (the browser's client-backed files); the check waits for them. */
export class LookupPending extends Error {}

/**
 * `lookupFor` says where an app.ini's quota file is looked for: the app.ini's path in the lookup's
 * terms and the file access (the disk in Node, the client's `vscode.workspace.fs` in the browser);
 * undefined for documents that have none (untitled).
 */
export function createIniMode(context: ModeContext, lookupFor: (uri: string) => { path: string; io: LookupIo } | undefined): LanguageMode {
  /** Group sources are looked up again on every validation (the quota file or the live groups may have changed). */
  const sourcesOf = (document: TextDocument): GroupSource[] => {
    const sources: GroupSource[] = [];
    const lookup = lookupFor(document.uri);
    if (lookup) {
      try {
        const fromFile = quotaFileGroups(lookup.path, lookup.io, context.settings.appIni?.quotaFile || undefined);
        if (fromFile) sources.push(fromFile);
      } catch (error) {
        if (!(error instanceof LookupPending)) context.log(`Could not read the quota file for ${document.uri}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    const live = context.liveGroups();
    if (live) sources.push({ label: l10n.t('the server {0}', live.server), names: live.groups });
    return sources;
  };

  /**
   * The Forgejo version an app.ini is checked for, when the setting or the connected server says
   * which: then TOTAL is judged as that version reads it. Without either, against every reading.
   */
  const knownForgejo = (): ResolvedForgejoProfile | undefined => {
    const resolved = resolveForgejoProfile([
      { source: 'setting', version: context.settings.forgejoVersion },
      { source: 'server', version: context.liveUsage()?.version },
    ]);
    return resolved.source === 'default' ? undefined : resolved;
  };

  const cache = new Map<string, { version: number; key: string; analysis: AppIniAnalysis }>();
  const analysis = (document: TextDocument, refreshSources = false): AppIniAnalysis => {
    const hit = cache.get(document.uri);
    if (hit && hit.version === document.version && !refreshSources) return hit.analysis;
    const sources = sourcesOf(document);
    const key = `${JSON.stringify(sources)} ${knownForgejo()?.profile.version ?? ''}`;
    if (hit && hit.version === document.version && hit.key === key) return hit.analysis;
    const forgejo = knownForgejo();
    const result = analyzeAppIni(document.getText(), { groups: sources, ...(forgejo ? { forgejo: forgejo.profile } : {}) });
    cache.set(document.uri, { version: document.version, key, analysis: result });
    return result;
  };
  const offset = (document: TextDocument, position: { line: number; character: number }) => analysis(document).lines.offsetAt(position);

  return {
    kind: 'appIni',
    validate: (document) => analysis(document, true).diagnostics,
    status: (document) => {
      const result = analysis(document);
      const checkedAgainst = andList(result.groupSources.map((source) => source.label));
      const forgejo = knownForgejo();
      return {
        ...(forgejo ? { forgejo: forgejoStatus(forgejo) } : {}),
        shape: checkedAgainst ? l10n.t('groups from {0}', checkedAgainst) : l10n.t('quota settings'),
        unavailable: result.groupsUnchecked ? [{ feature: 'group check', reason: couldNotCheckReason() }] : undefined,
      };
    },
    hover: (document, position) => appIniHover(analysis(document), offset(document, position)),
    completion: (document, position) => ({ isIncomplete: false, items: toLspCompletionItems(appIniCompletion(analysis(document), offset(document, position))) }),
    codeActions: (document, _range, codeActionContext) =>
      appIniCodeActions(
        analysis(document),
        codeActionContext.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE),
      ).map((action) => toCodeAction(analysis(document).lines, document.uri, action)),
    forget: (uri) => cache.delete(uri),
  };
}
