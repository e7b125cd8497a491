#!/usr/bin/env node
// `npm run screenshots`: regenerates the pictures of the README and docs/pictures.md (images/screenshot-*.png) from the real
// VS Code of the test harness — VS Code's own server from the `code-server` package with this
// extension installed, its web workbench in Debian's Chromium driven by playwright-core — against
// the demo instance: the reference quota API seeded with examples/demo.quota.jsonc (in memory) and
// a scratch copy of examples/ as the workspace. Everything is driven as a user would: the command
// palette, Quick Open, and the Sign In command's token prompt.
//
// Usage: node scripts/screenshots.mjs [--out DIR] [--only NAME[,NAME…]] [--keep] [--verbose]
// (`--only` takes the named pictures alone; those after `dashboard` need its sign-in, so take them with it.)
// Exit code: 0 when every picture was taken, 1 otherwise. Everything it starts (the API, VS Code's
// server process group, the browser) is stopped on every way out.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { build, demoTokens, prepareDemoWorkspace, repoRoot, startQuotaApi } from './start.mjs';
import { requireSystemPackages, serveVsCode, VSCODE_HOST_PACKAGES, vsCodeHostInstalled } from './vscode-web.mjs';
import { undoAll, undoOnSignals } from './cleanups.mjs';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Small enough for the README, large enough that an editor and a panel are readable. */
const VIEWPORT = { width: 1280, height: 800 };
/** The demo account the pictures show: over quota on one subject, so verdicts of both kinds appear. */
const ACCOUNT = 'bob';
/** How long one step (a prompt, a file, a view) may take to appear; the machine may be busy. */
const STEP_TIMEOUT_MS = 60_000;

const options = parseArguments(process.argv.slice(2));
const cleanups = [];
const cleanup = () => undoAll(cleanups);
undoOnSignals(cleanups, 1);

/** The pictures, in the order they are taken (later ones rely on the sign-in of earlier ones). */
const SHOTS = [
  {
    name: 'state-diagnostics',
    what: 'a state file with its problems: one shown in the editor, all in the Problems view',
    async take(page) {
      // The editor and the Problems view get the whole width: the messages name long URNs.
      await runCommand(page, 'Toggle Primary Side Bar Visibility');
      await openFile(page, 'webshop.state.json');
      await runCommand(page, 'Focus on Problems View');
      await page.locator('.markers-panel .monaco-list-row', { hasText: 'webshop.state.json' }).first().waitFor();
      await runCommand(page, 'Focus Active Editor Group');
      await runCommand(page, 'Go to Next Problem (Error, Warning, Info)');
      await page.locator('.monaco-editor .marker-widget').first().waitFor();
    },
  },
  {
    name: 'resource-graph',
    what: 'the resource graph beside the state file, focused on the record under the cursor',
    async take(page) {
      if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'Hide Panel');
      // The editor and the graph share the width.
      if (await page.locator('.part.sidebar').isVisible()) await runCommand(page, 'Toggle Primary Side Bar Visibility');
      await openFile(page, 'webshop.state.json');
      await goToLine(page, 127); // orders-db: a parent, a provider and a dependent
      await runCommand(page, 'Pulumi State: Show Resource Graph');
      await webviewFrame(page).locator('g.node.focus', { hasText: 'orders-db' }).waitFor();
      await webviewFrame(page).locator('#edge-list li').first().waitFor();
    },
  },
  {
    name: 'backend-history',
    what: "the Pulumi Backends view: the example backend's stack and its history, each update with its result, time and counts",
    async take(page) {
      await runCommand(page, 'Close All Editor Groups');
      if (!(await page.locator('.part.sidebar').isVisible())) await runCommand(page, 'Toggle Primary Side Bar Visibility');
      await runCommand(page, 'Explorer: Focus on Pulumi Backends View');
      // The view gets the side bar's height: the file tree's section folded.
      const files = page.locator('.pane-header[aria-expanded="true"]', { hasText: /^\s*Workspace/i });
      if (await files.count()) await files.first().click();
      await expandRow(page, 'organization/hist/dev');
      await expandRow(page, 'History');
      await page.locator('.monaco-list-row', { hasText: 'destroy' }).first().waitFor();
      await widenSideBar(page, 560);
    },
  },
  {
    name: 'backend-diff',
    what: 'Compare with Previous on version 4: the State Diff view (the rename, the removal, the changed leaves) beside the text diff',
    async take(page) {
      const row = page.locator('.monaco-list-row', { hasText: /(^|\s)4\s+update/ }).first();
      await row.hover();
      await row.locator('.action-label[aria-label="Compare with Previous"]').click();
      await page.locator('.monaco-list-row', { hasText: 'renamed (1)' }).first().waitFor();
      await page.locator('.monaco-diff-editor').first().waitFor();
    },
  },
  {
    name: 'state-surgery-confirm',
    what: 'removing a protected resource with its dependents: the one confirmation, before anything changes',
    async take(page) {
      if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'Hide Panel');
      // One editor only: the graph of the previous picture closed.
      await runCommand(page, 'Close All Editor Groups');
      await openFile(page, 'webshop.state.json');
      await goToLine(page, 127); // orders-db, protected, with a dependent
      await runCommand(page, 'Pulumi State: Remove Resource with Dependents…', { opensPrompt: true });
      // The quick pick offers the record under the cursor first, picked.
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'orders-db' }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.monaco-dialog-box', { hasText: 'orders-db is protected' }).waitFor();
    },
  },
  {
    name: 'state-surgery-applied',
    what: 'the same file once Remove Anyway is clicked: applied in one step and saved',
    async take(page) {
      await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Remove Anyway' }).click();
      await page.locator('.monaco-dialog-box').waitFor({ state: 'hidden' });
      // Saved with the edit: the tab shows no unsaved-changes dot.
      await page.locator('.tabs-container .tab.active:not(.dirty)', { hasText: 'webshop.state.json' }).waitFor();
      await page.locator('.notifications-toasts', { hasText: 'dependents removed' }).waitFor();
    },
    keepsToasts: true,
  },
  {
    name: 'quota-previews',
    what: "a quota file with its code lenses and inlay hints, and an account's hover",
    // The pointer rests on the account: its hover is part of the picture.
    keepsPointer: true,
    async take(page) {
      if (await page.locator('.part.panel').isVisible()) await runCommand(page, 'Hide Panel');
      await openFile(page, 'demo.quota.jsonc');
      await page.locator('.monaco-editor .codelens-decoration').first().waitFor();
      // VS Code draws the hints' spaces as no-break spaces.
      await waitForEditorText(page, /[✓✗]\s+alice/);
      // An account's hover gives its verdict per subject, in words.
      await page
        .locator('.monaco-editor .view-line span', { hasText: /^"bob"$/ })
        .first()
        .hover();
      await page.locator('.monaco-hover .hover-contents', { hasText: 'bob' }).first().waitFor();
    },
  },
  {
    name: 'dashboard',
    what: `the quota dashboard of ${ACCOUNT}`,
    async take(page) {
      await signIn(page, ACCOUNT);
      await runCommand(page, 'Close All Editors');
      await runCommand(page, 'Quota: Show Quota Dashboard');
      const body = webviewFrame(page);
      await body.locator('h1', { hasText: `Quota of ${ACCOUNT}` }).waitFor();
      await body.locator('h2', { hasText: 'Largest repositories' }).waitFor();
    },
  },
  {
    name: 'dashboard-lists',
    what: `the dashboard's groups and rules and largest repositories of ${ACCOUNT}`,
    async take(page) {
      await webviewFrame(page)
        .locator('h2', { hasText: 'Groups and rules' })
        .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    },
  },
  {
    name: 'quota-view',
    what: `the Quota view of ${ACCOUNT}, beside the quota file`,
    async take(page) {
      await runCommand(page, 'Close All Editors');
      await openFile(page, 'demo.quota.jsonc');
      await runCommand(page, 'Focus on Quota View');
      await page.locator('.pane-body .monaco-list-row', { hasText: 'My usage' }).first().waitFor();
      // The file list above would take the room, and the usage labels need the width.
      await page
        .locator('.pane-header', { hasText: /^workspace/i })
        .first()
        .click();
      await widenSideBar(page, 520);
      await runCommand(page, 'Focus Active Editor Group');
    },
  },
];

main().then(
  async (code) => {
    await cleanup();
    process.exit(code);
  },
  async (error) => {
    console.error(`screenshots: ${error instanceof Error ? (error.stack ?? error.message) : error}`);
    await cleanup();
    process.exit(1);
  },
);

async function main() {
  requireSystemPackages(['chromium', ...(vsCodeHostInstalled() ? [] : VSCODE_HOST_PACKAGES)], { for: 'npm run screenshots' });
  build();
  const scratch = mkdtempSync(join(tmpdir(), 'quota-state-screenshots-'));
  cleanups.push(() => (options.keep ? console.error(`kept ${scratch}`) : rmSync(scratch, { recursive: true, force: true })));

  const api = await startQuotaApi({ port: 0, db: ':memory:' });
  cleanups.push(() => api.stop());
  const workspace = prepareDemoWorkspace(join(scratch, 'workspace'));
  const vscode = await serveVsCode({
    folder: workspace,
    dataDir: join(scratch, 'vscode'),
    settings: {
      'quotaState.api.baseUrl': api.baseUrl,
      'security.workspace.trust.enabled': false,
      'git.enabled': false,
      'workbench.tips.enabled': false,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'chat.commandCenter.enabled': false,
      'update.mode': 'none',
      'window.commandCenter': false,
      'editor.minimap.enabled': false,
      'files.autoSave': 'off',
    },
  });
  cleanups.push(() => vscode.stop());

  const { chromium } = createRequire(join(repoRoot, 'test', 'vscode-host', 'package.json'))('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    chromiumSandbox: false,
    args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    env: { ...process.env, TMPDIR: scratch, XDG_CONFIG_HOME: join(scratch, 'xdg-config'), XDG_CACHE_HOME: join(scratch, 'xdg-cache') },
  });
  cleanups.push(() => Promise.race([browser.close(), new Promise((done) => setTimeout(done, 5_000))]));
  const page = await browser.newPage({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  if (options.verbose) page.on('console', (message) => console.error(`[workbench] ${message.text()}`));

  await page.goto(vscode.url);
  await page.locator('.monaco-workbench .explorer-folders-view').waitFor({ timeout: 120_000 });
  // Notifications from start-up (e.g. about the remote) would cover the pictures.
  await dismissNotifications(page);

  mkdirSync(options.out, { recursive: true });
  let failed = 0;
  for (const shot of SHOTS) {
    if (options.only && !options.only.includes(shot.name)) continue;
    const file = join(options.out, `screenshot-${shot.name}.png`);
    try {
      await shot.take(page);
      if (!shot.keepsToasts) await dismissNotifications(page);
      // A pointer left on the palette's row or a breadcrumb would raise a tooltip: rest it on the status bar's empty middle.
      if (!shot.keepsPointer) await page.mouse.move(VIEWPORT.width / 2, VIEWPORT.height - 12);
      // Let the last layout and fade-in settle: the picture is not an assertion.
      await page.waitForTimeout(1_500);
      await page.screenshot({ path: file });
      console.log(`${relative(repoRoot, file)}  ${Math.round(statSync(file).size / 1024)} KiB  (${shot.what})`);
    } catch (error) {
      failed++;
      // Leave no prompt open for the next picture.
      await page.keyboard.press('Escape');
      await page.keyboard.press('Escape');
      const debug = join(options.out, `screenshot-${shot.name}.failed.png`);
      await page.screenshot({ path: debug }).catch(() => undefined);
      console.error(`${shot.name}: ${error instanceof Error ? error.message : error}\n  (what the page showed: ${relative(repoRoot, debug)})`);
    }
  }
  return failed === 0 ? 0 : 1;
}

/** Runs a command from the palette by its title (with or without its category, e.g. "View: "). */
async function runCommand(page, title, { opensPrompt = false } = {}) {
  const input = await openQuickInput(page, `>${title}`);
  const label = new RegExp(`^(?:[\\w ]+: )?${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  const row = page.locator('.quick-input-list .monaco-list-row', { has: page.locator('.label-name', { hasText: label }) }).first();
  await row.waitFor();
  await row.click();
  // A command that prompts reuses the same input box for its question.
  if (opensPrompt) await page.waitForFunction(() => !document.querySelector('.quick-input-widget .quick-input-box input')?.value.startsWith('>'));
  else await input.waitFor({ state: 'hidden' });
}

/** Expands a tree row by its twistie (a click on the label would run the row's command instead). */
async function expandRow(page, text) {
  const row = page.locator('.monaco-list-row', { hasText: text }).first();
  await row.waitFor();
  if ((await row.getAttribute('aria-expanded')) !== 'true') await row.locator('.monaco-tl-twistie').click();
  await page.locator('.monaco-list-row[aria-expanded="true"]', { hasText: text }).first().waitFor();
}

/** Moves the cursor to a line through Go to Line (`:N` in Quick Open), as a user would. */
async function goToLine(page, line) {
  const input = await openQuickInput(page, `:${line}`);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
}

/** Opens a workspace file through Quick Open, as a user would. */
async function openFile(page, name) {
  const input = await openQuickInput(page, name);
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
  await row.waitFor();
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden' });
  await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
}

async function openQuickInput(page, text) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  if (!(await input.isVisible())) await page.keyboard.press('F1');
  await input.waitFor();
  await input.fill(text);
  return input;
}

/** Signs in through "Quota: Sign In" and its token prompt, and waits for the account in the status bar. */
async function signIn(page, account) {
  const token = demoTokens().find((entry) => entry.account === account)?.token;
  if (!token) throw new Error(`the demo instance has no token for ${account}`);
  await runCommand(page, 'Quota: Sign In', { opensPrompt: true });
  const input = page.locator('.quick-input-widget .quick-input-box input[type="password"]');
  await input.waitFor();
  await input.fill(token);
  await page.keyboard.press('Enter');
  await page.locator('.statusbar-item', { hasText: account }).first().waitFor();
}

/** A webview's page (the dashboard, the resource graph): VS Code nests its content in an inner frame. */
function webviewFrame(page) {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame').locator('body');
}

/** Waits for `pattern` in the editor's lines, including injected text (inlay hints), which VS Code draws as CSS content. */
async function waitForEditorText(page, pattern) {
  await page.waitForFunction(
    (source) =>
      [...document.querySelectorAll('.monaco-editor .view-lines span')].some((element) => {
        const shown = `${getComputedStyle(element, '::before').content}${element.textContent}${getComputedStyle(element, '::after').content}`;
        return new RegExp(source).test(shown);
      }),
    pattern.source,
    { timeout: STEP_TIMEOUT_MS },
  );
}

async function dismissNotifications(page) {
  const toasts = page.locator('.notifications-toasts .notification-toast');
  if ((await toasts.count()) === 0) return;
  await runCommand(page, 'Clear All Notifications').catch(() => undefined);
}

/** Drags the sash between the side bar and the editor so the side bar is `width` pixels wide. */
async function widenSideBar(page, width) {
  const box = await page.locator('.part.sidebar').boundingBox();
  if (!box) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 1, y);
  await page.mouse.down();
  await page.mouse.move(box.x + width, y, { steps: 5 });
  await page.mouse.up();
}

function parseArguments(args) {
  const parsed = { out: join(repoRoot, 'images'), only: undefined, keep: false, verbose: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--out') parsed.out = resolve(args[++i]);
    else if (arg === '--only') parsed.only = args[++i].split(',');
    else if (arg === '--keep') parsed.keep = true;
    else if (arg === '--verbose') parsed.verbose = true;
    else {
      console.error(`unknown argument ${arg}\nusage: node scripts/screenshots.mjs [--out DIR] [--only NAME[,NAME…]] [--keep] [--verbose]`);
      process.exit(1);
    }
  }
  if (!existsSync(chromiumPath)) {
    console.error(`no browser at ${chromiumPath}; install the Debian package "chromium" (or set CHROMIUM_PATH)`);
    process.exit(1);
  }
  return parsed;
}
