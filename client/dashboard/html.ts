/**
 * The dashboard's HTML: plain elements styled with VS Code's theme variables (light, dark and
 * high contrast follow the editor), a strict content security policy, no remote content. One
 * inline style sheet and one small script (sorting, the Refresh button, links the extension opens) are allowed by nonce;
 * there are no style attributes, which the policy would refuse (the bars are SVG).
 *
 * It renders the account's explanation (shared/quota/explain.ts) and decides nothing. Every string
 * shown goes through `options.l10n.t` (`vscode.l10n` in the extension) and is escaped after
 * translation; markup is put into a translated sentence only through `{N}` placeholders.
 */
import type * as vscode from 'vscode';
import { formatSize, canonicalSubject, SUBJECT_DESCRIPTIONS, type GroupExplanation, type SubjectExplanation } from '../../shared/quota/vocabulary';
import type { DashboardListItem, DashboardModel, L10n } from './model';

export interface PageOptions {
  /** `webview.cspSource`: the only origin the page may load from (it loads nothing today). */
  cspSource: string;
  nonce: string;
  /** Shown instead of figures while loading or after a failure (already translated). */
  notice?: string;
  /** `vscode.l10n` (typed from `vscode`, so `npm run l10n:export` reads this file's `l10n.t` calls), or `@vscode/l10n` in tests. */
  l10n: Pick<typeof vscode.l10n, 't'>;
  /** The language the strings are in (`vscode.env.language`). */
  language?: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * A translated sentence with markup in its placeholders: the translation is escaped, then each
 * `{N}` gets its piece of HTML, so no translation can add markup.
 */
function withMarkup(translated: string, ...html: string[]): string {
  return escapeHtml(translated).replace(/\{(\d+)\}/g, (whole, index: string) => html[Number(index)] ?? whole);
}

/** Human form and exact bytes, so both units are on screen; an int64 limit beyond 2^53 (a bigint) keeps every digit. */
function size(bytes: number | bigint, l10n: L10n): string {
  if (bytes === -1 || bytes === -1n) return `<span class="human">${escapeHtml(l10n.t('unlimited'))}</span>`;
  return `<span class="human">${escapeHtml(formatSize(bytes))}</span> <span class="bytes">${bytes.toLocaleString('en-US')} B</span>`;
}

function originText(model: DashboardModel, l10n: L10n): string {
  if (model.origin.kind === 'file') return l10n.t('preview from {0}', model.origin.file);
  return model.origin.kind === 'admin' ? l10n.t('as seen by a site administrator on {0}', model.origin.server) : l10n.t('signed in to {0}', model.origin.server);
}

function usageBar(subject: SubjectExplanation, l10n: L10n): string {
  const decider = subject.decidedBy;
  if (subject.percent === undefined || !decider) return `<span class="muted">${escapeHtml(l10n.t('no limit binds it'))}</span>`;
  const shown = Math.min(100, Math.max(0, subject.percent));
  const state = subject.allowed ? (shown >= 90 ? 'near' : 'ok') : 'over';
  const label = escapeHtml(l10n.t('{0}% of {1} (rule {2})', subject.percent, formatSize(decider.rule.limit), decider.rule.name));
  return `<div class="bar ${state}" role="meter" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${shown}" aria-label="${label}"><svg viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true"><rect class="fill" x="0" y="0" height="10" width="${shown}"></rect></svg></div><span class="pct">${label}</span>`;
}

function subjectsTable(model: DashboardModel, l10n: L10n): string {
  const rows = model.subjects.map((s) => {
    const verdict = s.allowed ? `<span class="ok">${escapeHtml(l10n.t('✓ within'))}</span>` : `<span class="over">${escapeHtml(l10n.t('✗ refused'))}</span>`;
    const headroom = s.headroom === null ? escapeHtml(l10n.t('unlimited')) : size(s.headroom, l10n);
    const canonical = canonicalSubject(s.subject);
    const description = canonical ? `<div class="muted small">${escapeHtml(SUBJECT_DESCRIPTIONS[canonical])}</div>` : '';
    return `<tr class="${s.allowed ? '' : 'is-over'}">
<th scope="row" data-sort="${escapeHtml(s.subject)}"><code>${escapeHtml(s.subject)}</code>${description}</th>
<td data-sort="${s.used}">${size(s.used, l10n)}</td>
<td data-sort="${s.percent ?? -1}">${usageBar(s, l10n)}</td>
<td data-sort="${s.headroom ?? Number.MAX_SAFE_INTEGER}">${headroom}</td>
<td data-sort="${s.allowed ? 1 : 0}">${verdict}<div class="small">${escapeHtml(s.reason)}</div></td>
</tr>`;
  });
  const headers = [l10n.t('Subject'), l10n.t('Used'), l10n.t('Against the binding limit'), l10n.t('Can still upload'), l10n.t('Verdict')];
  return table('subjects', l10n.t('Usage per subject'), headers, rows);
}

/** Failing first, as the reader looks for what to fix. */
function failingFirst<T extends { stands: boolean }>(items: readonly T[]): T[] {
  return [...items.filter((item) => !item.stands), ...items.filter((item) => item.stands)];
}

function groupSection(group: GroupExplanation, l10n: L10n): string {
  const rules = group.rules.length
    ? failingFirst(group.rules)
        .map((rule) => {
          const verdict = rule.stands ? `<span class="ok">${escapeHtml(l10n.t('✓ stands'))}</span>` : `<span class="over">${escapeHtml(l10n.t('✗ fails'))}</span>`;
          const subjects = rule.subjects.map((s) => `<code>${escapeHtml(s)}</code>`).join(' + ') || escapeHtml(l10n.t('no subject'));
          const figures = withMarkup(
            l10n.t('{0}: {1} of {2} on {3}', '{0}', '{1}', '{2}', '{3}'),
            `<strong>${escapeHtml(rule.name)}</strong>`,
            size(rule.used, l10n),
            size(rule.limit, l10n),
            subjects,
          );
          return `<li class="${rule.stands ? '' : 'is-over'}">${verdict} ${figures}</li>`;
        })
        .join('')
    : `<li>${escapeHtml(l10n.t('No rules: an empty group always stands.'))}</li>`;
  const mark = group.stands ? '<span class="ok">✓</span>' : '<span class="over">✗</span>';
  const heading = escapeHtml(group.stands ? l10n.t('{0} stands', group.name) : l10n.t('{0} fails', group.name));
  return `<section class="group" aria-label="${escapeHtml(l10n.t('group {0}', group.name))}"><h3>${mark} ${heading}</h3><ul>${rules}</ul></section>`;
}

function groupsSection(model: DashboardModel, l10n: L10n): string {
  if (model.groupList === 'unlisted') return `<p>${escapeHtml(model.reason)}</p>`;
  const intro = `<p class="muted">${escapeHtml(l10n.t('Within quota when any one group stands; a group stands when all its rules stand. Failing first.'))}</p>`;
  return (
    intro +
    failingFirst(model.groups)
      .map((group) => groupSection(group, l10n))
      .join('')
  );
}

/**
 * A row's name; with a page on the server, a button that asks the extension to open it (the
 * webview itself navigates nowhere).
 */
function itemName(item: DashboardListItem, l10n: L10n): string {
  if (!item.url) return escapeHtml(item.name);
  return `<button type="button" class="link" data-url="${escapeHtml(item.url)}" title="${escapeHtml(l10n.t('Open {0}', item.url))}">${escapeHtml(item.name)}</button>`;
}

function listTable(id: string, title: string, items: DashboardListItem[], l10n: L10n, headers?: string[], caption?: string): string {
  if (items.length === 0) return `<h3>${escapeHtml(title)}</h3><p class="muted">${escapeHtml(l10n.t('None.'))}</p>`;
  const rows = items.map(
    (item) =>
      `<tr><th scope="row" data-sort="${escapeHtml(item.name)}">${itemName(item, l10n)}</th><td data-sort="${item.size}">${size(item.size, l10n)}</td><td data-sort="${escapeHtml(item.detail)}">${escapeHtml(item.detail)}</td></tr>`,
  );
  return table(id, caption ?? l10n.t('{0} ({1})', title, items.length), headers ?? [l10n.t('Name'), l10n.t('Size'), l10n.t('Where')], rows);
}

function repositoriesSection(repositories: NonNullable<DashboardModel['repositories']>, l10n: L10n): string {
  const { items, total } = repositories;
  const caption = items.length < total ? l10n.t('The {0} largest of {1}', items.length, total) : l10n.t('All {0}, largest first', total);
  const headers = [l10n.t('Repository'), l10n.t('Size (git and LFS)'), l10n.t('Visibility')];
  return `<h2>${escapeHtml(l10n.t('Largest repositories'))}</h2>${listTable('repositories', l10n.t('Repositories'), items, l10n, headers, caption)}`;
}

/** A table whose column headers are buttons: Enter or Space sorts by that column. */
function table(id: string, caption: string, headers: string[], rows: string[]): string {
  const head = headers.map((h, i) => `<th scope="col" aria-sort="none"><button type="button" class="sort" data-table="${id}" data-column="${i}">${escapeHtml(h)}</button></th>`).join('');
  return `<table id="${id}"><caption>${escapeHtml(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function listsSection(lists: NonNullable<DashboardModel['lists']>, l10n: L10n): string {
  const tables = [
    listTable('attachments', l10n.t('Attachments'), lists.attachments, l10n),
    listTable('packages', l10n.t('Packages'), lists.packages, l10n),
    listTable('artifacts', l10n.t('Artifacts'), lists.artifacts, l10n),
  ];
  return `<h2>${escapeHtml(l10n.t('Attachments, packages and artifacts'))}</h2>${tables.join('')}`;
}

export function renderDashboard(model: DashboardModel | undefined, options: PageOptions): string {
  const { l10n } = options;
  const title = model ? l10n.t('Quota of {0}', model.account) : l10n.t('Quota');
  let body: string;
  if (!model) {
    body = `<p role="status">${escapeHtml(options.notice ?? l10n.t('Loading…'))}</p>`;
  } else {
    const verdict = model.within ? `<span class="ok">${escapeHtml(l10n.t('✓ within quota'))}</span>` : `<span class="over">${escapeHtml(l10n.t('✗ over quota'))}</span>`;
    body = `<p class="summary">${verdict} · ${escapeHtml(originText(model, l10n))} · ${escapeHtml(model.forgejo.rules)}</p>
${options.notice ? `<p role="status" class="notice">${escapeHtml(options.notice)}</p>` : ''}
<h2>${escapeHtml(l10n.t('Usage'))}</h2>${subjectsTable(model, l10n)}
<h2>${escapeHtml(l10n.t('Groups and rules'))}</h2>${groupsSection(model, l10n)}
${model.repositories ? repositoriesSection(model.repositories, l10n) : ''}
${model.lists ? listsSection(model.lists, l10n) : ''}`;
  }
  return `<!DOCTYPE html>
<html lang="${escapeHtml(options.language ?? 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${options.cspSource}; style-src 'nonce-${options.nonce}'; script-src 'nonce-${options.nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(title)}</title>
<style nonce="${options.nonce}">${STYLE}</style>
</head>
<body>
<header><h1>${escapeHtml(title)}</h1><button type="button" id="refresh">${escapeHtml(l10n.t('Refresh'))}</button></header>
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
