/**
 * The resource graph page's frame: the toolbar, the legend, the picture and the text alternative,
 * styled with VS Code's theme variables (edge kinds in the chart colours, each also drawn with its
 * own dash so it is told apart without colour). One style sheet by nonce and one script from the
 * extension (dist/webview/resourceGraph.js); no remote content.
 */
import type * as vscode from 'vscode';

interface FrameOptions {
  cspSource: string;
  nonce: string;
  script: string;
  l10n: Pick<typeof vscode.l10n, 't'>;
}

const STYLE = `
body { padding: 0; margin: 0; color: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); display: grid; grid-template-rows: auto 1fr auto; grid-template-columns: 1fr; height: 100vh; }
@media (min-width: 900px) { body { grid-template-rows: auto 1fr; grid-template-columns: 1fr 18rem; } header { grid-column: 1 / 3; } aside { border-left: 1px solid var(--vscode-panel-border); max-height: none; } }
header { padding: 6px 8px; border-bottom: 1px solid var(--vscode-panel-border); display: flex; flex-direction: column; gap: 4px; }
.toolbar, #legend { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
#legend label { display: inline-flex; gap: 4px; align-items: center; }
button, select, input { font: inherit; color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); padding: 2px 6px; }
button { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); cursor: pointer; }
button:hover { background: var(--vscode-button-secondaryHoverBackground); }
:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
#notice { color: var(--vscode-descriptionForeground); }
#notice.stale { color: var(--vscode-editorWarning-foreground); }
#canvas { overflow: auto; position: relative; }
aside { overflow: auto; border-top: 1px solid var(--vscode-panel-border); padding: 0 8px; max-height: 30vh; }
aside h2 { font-size: 1em; margin: 8px 0 4px; }
aside ul { list-style: none; padding: 0; margin: 0; }
aside li button { width: 100%; text-align: left; margin: 1px 0; background: transparent; color: var(--vscode-textLink-foreground); border: none; }
svg text { fill: var(--vscode-foreground); font-size: 12px; }
.node rect { fill: var(--vscode-editor-background); stroke: var(--vscode-editorWidget-border, var(--vscode-foreground)); stroke-width: 1; }
.node.component rect { stroke-dasharray: 4 2; }
.node.group rect { fill: var(--vscode-editorWidget-background); stroke-width: 2; stroke-dasharray: none; }
.node.group.expanded rect { stroke-dasharray: 6 3; }
.node .type { fill: var(--vscode-descriptionForeground); font-size: 11px; }
.node .name { font-weight: 600; }
.node .marks { font-size: 11px; }
.node.focus rect { stroke: var(--vscode-focusBorder); stroke-width: 3; }
.node.match rect { fill: var(--vscode-editor-findMatchHighlightBackground); }
.node.missing rect { stroke: var(--vscode-disabledForeground); stroke-dasharray: 2 2; fill: transparent; }
.node.deleted .name { text-decoration: line-through; }
.node.has-errors rect { stroke: var(--vscode-editorError-foreground); stroke-width: 2; }
.node.has-warnings rect { stroke: var(--vscode-editorWarning-foreground); stroke-width: 2; }
.node.focus.has-errors rect, .node.focus.has-warnings rect { stroke-width: 3; }
.node { cursor: pointer; }
.node:focus-visible rect { stroke: var(--vscode-focusBorder); stroke-width: 3; }
.edge { fill: none; stroke-width: 1.5; }
.edge-label { font-size: 10px; fill: var(--vscode-charts-green); }
.kind-parent { stroke: var(--vscode-charts-orange); }
.kind-dependency { stroke: var(--vscode-charts-green); }
.kind-provider { stroke: var(--vscode-charts-blue); stroke-dasharray: 6 3; }
.kind-deletedWith { stroke: var(--vscode-charts-red); stroke-dasharray: 2 3; }
.kind-replaceWith { stroke: var(--vscode-charts-purple); stroke-dasharray: 8 3 2 3; }
.arrow { stroke: none; stroke-dasharray: none; }
.arrow.kind-parent { fill: var(--vscode-charts-orange); }
.arrow.kind-dependency { fill: var(--vscode-charts-green); }
.arrow.kind-provider { fill: var(--vscode-charts-blue); }
.arrow.kind-deletedWith { fill: var(--vscode-charts-red); }
.arrow.kind-replaceWith { fill: var(--vscode-charts-purple); }
`;

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function resourceGraphFrame({ cspSource, nonce, script, l10n }: FrameOptions): string {
  const t = (text: string) => escapeHtml(l10n.t(text));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource} data:; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}' ${cspSource};">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">${STYLE}</style>
<title>${t('Resource Graph')}</title>
</head>
<body>
<header>
  <div class="toolbar">
    <span>${t('Depth')}</span>
    <button id="less" aria-label="${t('Less depth')}">−</button><output id="depth-value" aria-live="polite"></output><button id="more" aria-label="${t('More depth')}">+</button>
    <button id="whole">${t('Whole graph')}</button>
    <select id="group-by" aria-label="${t('Group the whole graph by')}" hidden>
      <option value="parent">${t('Group by parent component')}</option>
      <option value="type">${t('Group by type')}</option>
      <option value="provider">${t('Group by provider')}</option>
    </select>
    <select id="type" aria-label="${t('Resource type')}"></select>
    <select id="provider" aria-label="${t('Provider')}"></select>
    <input id="search" type="search" placeholder="${t('Find a resource by name, type or URN')}" aria-label="${t('Find a resource')}">
    <button id="export-svg">${t('Export SVG…')}</button>
    <button id="export-dot">${t('Export DOT…')}</button>
  </div>
  <div id="legend"></div>
  <div id="notice" role="status"></div>
</header>
<div id="canvas"><svg id="graph" role="group" aria-label="${t('Resource graph')}"></svg></div>
<aside>
  <h2 id="results-title" aria-live="polite"></h2>
  <ul id="results"></ul>
  <h2 id="edges-title"></h2>
  <ul id="edge-list"></ul>
</aside>
<script nonce="${nonce}" src="${escapeHtml(script)}"></script>
</body>
</html>`;
}
