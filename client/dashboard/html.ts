/**
 * The dashboard's HTML: plain elements styled with VS Code's theme variables (light, dark and
 * high contrast follow the editor), a strict content security policy, no remote content. One
 * inline style sheet and one small script (sorting, the Refresh button, links the extension opens) are allowed by nonce;
 * there are no style attributes, which the policy would refuse (the bars are SVG).
 */
import { formatSize } from '../../shared/quota/sizes';
import type { DashboardListItem, DashboardModel, DashboardSubject } from './model';

export interface PageOptions {
  /** `webview.cspSource`: the only origin the page may load from (it loads nothing today). */
  cspSource: string;
  nonce: string;
  /** Shown instead of figures while loading or after a failure. */
  notice?: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** `12 MiB` with the exact byte count beside it, so both units are on screen. */
/** Human form and exact bytes; an int64 limit beyond 2^53 (a bigint) keeps every digit. */
function size(bytes: number | bigint): string {
  if (bytes === -1 || bytes === -1n) return '<span class="human">unlimited</span>';
  return `<span class="human">${escapeHtml(formatSize(bytes))}</span> <span class="bytes">${bytes.toLocaleString('en-US')} B</span>`;
}

function originText(model: DashboardModel): string {
  if (model.origin.kind === 'file') return `preview from ${model.origin.file}`;
  return `${model.origin.kind === 'admin' ? 'as seen by a site administrator on' : 'signed in to'} ${model.origin.server}`;
}

function usageBar(subject: DashboardSubject): string {
  if (subject.percent === undefined) return '<span class="muted">no limit binds it</span>';
  const shown = Math.min(100, Math.max(0, subject.percent));
  const state = subject.allowed ? (shown >= 90 ? 'near' : 'ok') : 'over';
  const label = `${subject.percent}% of ${formatSize(subject.binding!.limit)} (rule ${subject.binding!.rule})`;
  return `<div class="bar ${state}" role="meter" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${shown}" aria-label="${escapeHtml(label)}"><svg viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true"><rect class="fill" x="0" y="0" height="10" width="${shown}"></rect></svg></div><span class="pct">${escapeHtml(label)}</span>`;
}

function subjectsTable(model: DashboardModel): string {
  const rows = model.subjects.map((s) => {
    const verdict = s.allowed ? '<span class="ok">✓ within</span>' : '<span class="over">✗ refused</span>';
    const headroom = s.headroom === null ? 'unlimited' : size(s.headroom);
    return `<tr class="${s.allowed ? '' : 'is-over'}">
<th scope="row" data-sort="${escapeHtml(s.subject)}"><code>${escapeHtml(s.subject)}</code><div class="muted small">${escapeHtml(s.description)}</div></th>
<td data-sort="${s.used}">${size(s.used)}</td>
<td data-sort="${s.percent ?? -1}">${usageBar(s)}</td>
<td data-sort="${s.headroom ?? Number.MAX_SAFE_INTEGER}">${headroom}</td>
<td data-sort="${s.allowed ? 1 : 0}">${verdict}<div class="small">${escapeHtml(s.explanation)}</div></td>
</tr>`;
  });
  return table('subjects', 'Usage per subject', ['Subject', 'Used', 'Against the binding limit', 'Can still upload', 'Verdict'], rows);
}

function groupsSection(model: DashboardModel): string {
  if (model.noGroups) return `<p>${escapeHtml(`No quota group is listed for ${model.account}: the server's default total limit decides, which the API does not show.`)}</p>`;
  const intro = '<p class="muted">Within quota when any one group stands; a group stands when all its rules stand. Failing first.</p>';
  const groups = model.groups.map((group) => {
    const rules = group.rules.length
      ? group.rules
          .map(
            (rule) =>
              `<li class="${rule.stands ? '' : 'is-over'}">${rule.stands ? '<span class="ok">✓ stands</span>' : '<span class="over">✗ fails</span>'} <strong>${escapeHtml(rule.name)}</strong>: ${size(rule.used)} of ${size(rule.limit)} on ${rule.subjects.map((s) => `<code>${escapeHtml(s)}</code>`).join(' + ') || 'no subject'}</li>`,
          )
          .join('')
      : '<li>No rules: an empty group always stands.</li>';
    return `<section class="group" aria-label="group ${escapeHtml(group.name)}"><h3>${group.stands ? '<span class="ok">✓</span>' : '<span class="over">✗</span>'} ${escapeHtml(group.name)} ${group.stands ? 'stands' : 'fails'}</h3><ul>${rules}</ul></section>`;
  });
  return intro + groups.join('');
}

/**
 * A row's name; with a page on the server, a button that asks the extension to open it (the
 * webview itself navigates nowhere).
 */
function itemName(item: DashboardListItem): string {
  if (!item.url) return escapeHtml(item.name);
  return `<button type="button" class="link" data-url="${escapeHtml(item.url)}" title="${escapeHtml(`Open ${item.url}`)}">${escapeHtml(item.name)}</button>`;
}

function listTable(id: string, title: string, items: DashboardListItem[], headers = ['Name', 'Size', 'Where'], caption = `${title} (${items.length})`): string {
  if (items.length === 0) return `<h3>${escapeHtml(title)}</h3><p class="muted">None.</p>`;
  const rows = items.map(
    (item) =>
      `<tr><th scope="row" data-sort="${escapeHtml(item.name)}">${itemName(item)}</th><td data-sort="${item.size}">${size(item.size)}</td><td data-sort="${escapeHtml(item.detail)}">${escapeHtml(item.detail)}</td></tr>`,
  );
  return table(id, caption, headers, rows);
}

function repositoriesSection(repositories: NonNullable<DashboardModel['repositories']>): string {
  const { items, total } = repositories;
  const caption = items.length < total ? `The ${items.length} largest of ${total}` : `All ${total}, largest first`;
  return `<h2>Largest repositories</h2>${listTable('repositories', 'Repositories', items, ['Repository', 'Size (git and LFS)', 'Visibility'], caption)}`;
}

/** A table whose column headers are buttons: Enter or Space sorts by that column. */
function table(id: string, caption: string, headers: string[], rows: string[]): string {
  const head = headers.map((h, i) => `<th scope="col" aria-sort="none"><button type="button" class="sort" data-table="${id}" data-column="${i}">${escapeHtml(h)}</button></th>`).join('');
  return `<table id="${id}"><caption>${escapeHtml(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

export function renderDashboard(model: DashboardModel | undefined, options: PageOptions): string {
  const title = model ? `Quota of ${model.account}` : 'Quota';
  let body: string;
  if (!model) {
    body = `<p role="status">${escapeHtml(options.notice ?? 'Loading…')}</p>`;
  } else {
    const verdict = model.within ? '<span class="ok">✓ within quota</span>' : '<span class="over">✗ over quota</span>';
    const lists = model.lists
      ? `<h2>Attachments, packages and artifacts</h2>${listTable('attachments', 'Attachments', model.lists.attachments)}${listTable('packages', 'Packages', model.lists.packages)}${listTable('artifacts', 'Artifacts', model.lists.artifacts)}`
      : '';
    body = `<p class="summary">${verdict} · ${escapeHtml(originText(model))} · ${escapeHtml(model.rules)}</p>
${options.notice ? `<p role="status" class="notice">${escapeHtml(options.notice)}</p>` : ''}
<h2>Usage</h2>${subjectsTable(model)}
<h2>Groups and rules</h2>${groupsSection(model)}
${model.repositories ? repositoriesSection(model.repositories) : ''}
${lists}`;
  }
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${options.cspSource}; style-src 'nonce-${options.nonce}'; script-src 'nonce-${options.nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
<style nonce="${options.nonce}">${STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(title)}</h1><button type="button" id="refresh">Refresh</button></header>
<main>${body}</main>
<script nonce="${options.nonce}">${SCRIPT}</script>
</body>
</html>`;
}

const STYLE = `
body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 0 1.5em 2em; }
header { display: flex; align-items: center; gap: 1em; }
h1 { font-size: 1.5em; font-weight: 600; } h2 { font-size: 1.2em; margin-top: 1.5em; } h3 { font-size: 1em; }
code { font-family: var(--vscode-editor-font-family); }
button { font: inherit; color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: 1px solid var(--vscode-button-border, transparent); padding: 0.25em 0.8em; cursor: pointer; }
button:hover { background: var(--vscode-button-hoverBackground); }
button.link { color: var(--vscode-textLink-foreground); background: none; border: none; padding: 0; text-align: left; text-decoration: underline; }
button.link:hover { color: var(--vscode-textLink-activeForeground); background: none; }
button.sort { color: inherit; background: none; border: 1px solid transparent; padding: 0; font-weight: 600; text-align: left; }
button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; margin: 0.5em 0 1em; }
caption { text-align: left; font-weight: 600; padding: 0.3em 0; }
th, td { text-align: left; vertical-align: top; padding: 0.35em 0.6em; border-bottom: 1px solid var(--vscode-editorWidget-border, var(--vscode-contrastBorder, transparent)); }
th[scope=row] { font-weight: normal; }
.muted { color: var(--vscode-descriptionForeground); } .small { font-size: 0.9em; }
.bytes { color: var(--vscode-descriptionForeground); font-size: 0.85em; }
.ok { color: var(--vscode-testing-iconPassed, var(--vscode-foreground)); }
.over { color: var(--vscode-errorForeground); font-weight: 600; }
tr.is-over th, li.is-over { border-left: 3px solid var(--vscode-errorForeground); }
.bar { width: 12em; height: 0.7em; border: 1px solid var(--vscode-contrastBorder, var(--vscode-editorWidget-border, transparent)); background: var(--vscode-editorWidget-background); display: inline-block; vertical-align: middle; }
.bar svg { display: block; width: 100%; height: 100%; }
.bar .fill { fill: var(--vscode-progressBar-background); }
.bar.near .fill { fill: var(--vscode-editorWarning-foreground); }
.bar.over .fill { fill: var(--vscode-errorForeground); }
.pct { margin-left: 0.5em; font-size: 0.9em; }
.notice { color: var(--vscode-errorForeground); }
`;

const SCRIPT = `
(function () {
  const vscode = acquireVsCodeApi();
  document.getElementById('refresh').addEventListener('click', () => vscode.postMessage({ type: 'refresh' }));
  for (const link of document.querySelectorAll('button.link')) {
    link.addEventListener('click', () => vscode.postMessage({ type: 'open', url: link.dataset.url }));
  }
  for (const button of document.querySelectorAll('button.sort')) {
    button.addEventListener('click', () => {
      const table = document.getElementById(button.dataset.table);
      const column = Number(button.dataset.column);
      const header = button.parentElement;
      const ascending = header.getAttribute('aria-sort') !== 'ascending';
      for (const th of table.querySelectorAll('thead th')) th.setAttribute('aria-sort', 'none');
      header.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      const body = table.tBodies[0];
      const rows = Array.from(body.rows);
      const key = (row) => row.cells[column].dataset.sort ?? row.cells[column].textContent;
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        const nx = Number(x), ny = Number(y);
        const order = !Number.isNaN(nx) && !Number.isNaN(ny) ? nx - ny : String(x).localeCompare(String(y));
        return ascending ? order : -order;
      });
      for (const row of rows) body.appendChild(row);
    });
  }
})();
`;
