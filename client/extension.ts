/**
 * Entry point of the Quota & State extension: wires the language client, the language status,
 * the large-file fallback, the session (SecretStorage), the quota API commands and the view.
 * Each feature lives in its own module; this file only connects them.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { useL10nBundle } from '../shared/l10n';
import type { DocumentStatusParams, LiveUsageParams } from '../shared/protocol';
import { ApiAccess } from './apiAccess';
import { AuthCommands } from './auth';
import type { CommandContext } from './commands/context';
import { GroupCommands } from './commands/groups';
import { MyQuotaCommands } from './commands/myQuota';
import { DependentsCommands } from './commands/dependents';
import { PreviewCommands } from './commands/preview';
import { RuleCommands } from './commands/rules';
import { SyncCommands } from './commands/sync';
import { DashboardCommands } from './dashboard/commands';
import type { DashboardModel } from './dashboard/model';
import { QuotaDashboard } from './dashboard/panel';
import { createLanguageClient } from './languageClient';
import { ResourceGraphPanel } from './resourceGraph/panel';
import { bucketsSupported } from './backends/bucketAccess';
import { registerBucketFileSystem } from './backends/bucketFileSystem';
import { registerBackendDocuments } from './backends/documents';
import { StateDiffView } from './backends/stateDiff';
import { BackendsView } from './backends/view';
import { detectKind } from '../shared/documentKind';
import { LanguageStatus } from './languageStatus';
import { LargeFileWatcher } from './largeFiles';
import { LiveUsage } from './liveUsage';
import { Notifier, type ShownMessage } from './notifier';
import { QuotaTreeProvider, type QuotaNode } from './quotaTree';
import { LargestRepositories } from './repositories';
import { SaltKeys, SecretsCommands } from './secrets';
import { Session } from './session';
import { affectsApiSettings } from './settings';
import { accountExplainer } from './accountExplainer';
import { QuotaStatusBar, type StatusBarState } from './statusBar';
import { registerQuotaView } from './quotaView';
import { WalkthroughCommands } from './walkthrough';
import { registerCompressedState } from './compressedState';
import { StateSurgeryCommands } from './stateSurgery';

/** Exposed only when VS Code runs the extension for tests (`ExtensionMode.Test`). */
export interface TestHooks {
  shownMessages(): readonly ShownMessage[];
  /** The answers the next modal confirmations get (undefined: Cancel), in order. */
  answerConfirmations(...answers: Array<string | undefined>): void;
  documentStatus(uri: string): DocumentStatusParams | undefined;
  onDocumentStatus: vscode.Event<DocumentStatusParams>;
  liveUsage(): LiveUsageParams | null;
  treeChildren(node?: QuotaNode): Promise<QuotaNode[]>;
  /** The Quota view's description (account and server). */
  treeDescription(): string | undefined;
  statusBar(): StatusBarState;
  dashboard(): { model: DashboardModel | undefined; html: string; visible: boolean };
  /** The Pulumi Backends view, and the State Diff view its comparisons fill. */
  backends: BackendsView;
  stateDiff: StateDiffView;
  /** The resource graph's panel: what its webview drew, and a way to click and type in it. */
  resourceGraph: Pick<ResourceGraphPanel, 'current' | 'onDidRender' | 'simulate'>;
  /** What a click on a dashboard row's link asks for: whether that address was opened. */
  dashboardOpen(url: string): Promise<boolean>;
  /** Where the log channel writes its file, to prove secrets never reach it. */
  logUri: vscode.Uri;
  languageClient: LanguageClient;
  /** `typeof process` where the extension runs: "undefined" in the browser's web worker host. */
  processType: string;
  /** When activation began and when the language server was ready (Date.now()), for the bench. */
  startup: { activatedAt: number; serverReadyAt: number };
}

let languageClient: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<TestHooks | undefined> {
  const activatedAt = Date.now();
  // The core's own words (the quota explanations the dashboard, status bar and Quota view show, API
  // errors, sizes, subjects, name rules) come through @vscode/l10n: the same bundle as vscode.l10n's.
  useL10nBundle(vscode.l10n.bundle);
  const testing = context.extensionMode === vscode.ExtensionMode.Test;
  const parts = createParts(context, testing);
  context.subscriptions.push(...subscriptions(parts));
  // Pulumi secrets' passphrases, in the editor's SecretStorage; the server asks for them from its start.
  context.subscriptions.push(...new SecretsCommands(context.secrets, parts.client, parts.notifier).register());
  await startLanguageServer(parts);
  const serverReadyAt = Date.now();
  context.subscriptions.push(new LargeFileWatcher(parts.client, parts.log));
  // Not awaited: an unreachable server must not hold up activation for the request timeout.
  void parts.liveUsage.refresh();
  return testing ? testHooks(context, parts, { activatedAt, serverReadyAt }) : undefined;
}

/** Everything the extension is made of, connected; nothing registered with VS Code yet but the client and the view. */
interface Parts {
  log: vscode.LogOutputChannel;
  notifier: Notifier;
  session: Session;
  client: LanguageClient;
  status: LanguageStatus;
  tree: QuotaTreeProvider;
  repositories: LargestRepositories;
  liveUsage: LiveUsage;
  dashboard: QuotaDashboard;
  resourceGraph: ResourceGraphPanel;
  backends: BackendsView;
  stateDiff: StateDiffView;
  statusBar: QuotaStatusBar;
  quotaView: ReturnType<typeof registerQuotaView>;
  commandContext: CommandContext;
}

function createParts(context: vscode.ExtensionContext, testing: boolean): Parts {
  const log = vscode.window.createOutputChannel('Quota & State', { log: true });
  const notifier = new Notifier(log, testing);
  const session = new Session(context.secrets);
  const api = new ApiAccess(session, notifier, log);
  // Tests cannot have a browser open: in test mode opening a repository only reports its URL.
  const repositories = new LargestRepositories(
    api,
    (node) => tree.redraw(node),
    (uri) => (testing ? Promise.resolve(true) : vscode.env.openExternal(uri)),
  );

  // The status is created after the client it listens to; the symbol filter reads it lazily.
  let status: LanguageStatus | undefined;
  // Before the server's status arrives, decide as the server will: the outline asks as a file opens, and VS Code keeps that answer.
  const isQuotaDocument = (document: vscode.TextDocument) => {
    const known = status?.status(document.uri.toString())?.kind;
    return (known !== undefined ? known : detectKind(document.uri.path, document.getText())) === 'quota';
  };
  const client = createLanguageClient(context, log, isQuotaDocument);
  languageClient = client;
  status = new LanguageStatus(client);
  const liveUsage = new LiveUsage(client, session, log);
  const explainer = accountExplainer(client);
  const tree = new QuotaTreeProvider(api, explainer, repositories);
  const dashboard = new QuotaDashboard(api, notifier, explainer);
  const resourceGraph = new ResourceGraphPanel(context.extensionUri, client, notifier, testing);
  // The passphrases by salt, for what the client decrypts itself (Reveal Secrets, Change Passphrase…).
  const keys = new SaltKeys(context.secrets);
  const stateDiff = new StateDiffView(keys);
  const backends = new BackendsView(context.workspaceState, notifier, stateDiff, client, keys);
  const statusBar = new QuotaStatusBar(liveUsage, explainer, log);
  const quotaView = registerQuotaView(tree);

  const commandContext: CommandContext = {
    api,
    notifier,
    log,
    languageClient: client,
    explainer,
    serverChanged: () => {
      tree.refresh();
      void dashboard.refresh();
      void liveUsage.refresh();
    },
  };
  return { log, notifier, session, client, status, tree, repositories, liveUsage, dashboard, resourceGraph, backends, stateDiff, statusBar, quotaView, commandContext };
}

/** The parts that need disposing, every command, and the listeners that refresh the view. */
function subscriptions(parts: Parts): vscode.Disposable[] {
  const { log, session, status, tree, quotaView, liveUsage, dashboard, statusBar, commandContext } = parts;
  return [
    log,
    session,
    status,
    tree,
    quotaView,
    liveUsage,
    dashboard,
    statusBar,
    vscode.commands.registerCommand('quotaState.refreshView', async () => {
      await liveUsage.refresh();
      tree.refresh();
    }),
    vscode.commands.registerCommand('quotaState.showLog', () => log.show()),
    ...new AuthCommands(commandContext, session, liveUsage).register(),
    ...new RuleCommands(commandContext).register(),
    ...new GroupCommands(commandContext).register(),
    ...new MyQuotaCommands(commandContext).register(),
    ...new SyncCommands(commandContext).register(),
    ...new PreviewCommands(commandContext).register(),
    ...new DependentsCommands(commandContext).register(),
    ...new StateSurgeryCommands(commandContext, (uri) => status.status(uri.toString())?.kind === 'state', status.onDidChange).register(),
    ...registerCompressedState(),
    ...new DashboardCommands(commandContext, dashboard).register(),
    ...parts.resourceGraph.register(),
    ...parts.backends.register(),
    ...parts.stateDiff.register(),
    registerBackendDocuments(),
    ...(bucketsSupported ? [registerBucketFileSystem()] : []),
    ...new WalkthroughCommands().register(),
    ...parts.repositories.register(),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (affectsApiSettings(event)) {
        void liveUsage.refresh();
        tree.refresh();
      }
    }),
    session.onDidChange(() => tree.refresh()),
  ];
}

/** Starts the client; a server that does not start is logged and shown, and the rest of the extension still works. */
async function startLanguageServer({ client, log, notifier }: Parts): Promise<void> {
  try {
    await client.start();
  } catch (error) {
    log.error(`The language server did not start: ${error instanceof Error ? error.message : String(error)}`);
    void notifier.error(vscode.l10n.t('The Quota & State language server did not start; see the "Quota & State" output for details.'));
  }
}

function testHooks(context: vscode.ExtensionContext, parts: Parts, startup: TestHooks['startup']): TestHooks {
  const { notifier, status, liveUsage, tree, quotaView, statusBar, dashboard } = parts;
  return {
    shownMessages: () => notifier.shown,
    answerConfirmations: (...answers) => notifier.answerConfirmations(...answers),
    documentStatus: (uri) => status.status(uri),
    onDocumentStatus: status.onDidChange,
    liveUsage: () => liveUsage.current(),
    treeChildren: (node) => tree.getChildren(node),
    treeDescription: () => quotaView.view.description,
    statusBar: () => statusBar.state(),
    dashboard: () => dashboard.current(),
    dashboardOpen: (url) => dashboard.openOnServer(url),
    resourceGraph: parts.resourceGraph,
    backends: parts.backends,
    stateDiff: parts.stateDiff,
    logUri: context.logUri,
    languageClient: parts.client,
    processType: typeof process,
    startup,
  };
}

export async function deactivate(): Promise<void> {
  await languageClient?.stop();
  languageClient = undefined;
}
