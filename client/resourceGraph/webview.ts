/**
 * The resource graph's page, in the webview: it draws the picture the language server laid out
 * (nodes at their places, edges along their points) as SVG in the theme's colours, and sends the
 * user's choices back to the extension: a node clicked or chosen with the keyboard, the depth, the
 * filters, a search, an export. It decides nothing about the graph itself.
 */
import type { GraphViewNode, GraphViewEdge } from '../../shared/state';
import type { ResourceGraphResult } from '../../shared/protocol';
import type { FromWebview, GraphWords, RenderedGraph, ToWebview } from './messages';

declare function acquireVsCodeApi(): { postMessage(message: FromWebview): void };

const vscode = acquireVsCodeApi();
const SVG = 'http://www.w3.org/2000/svg';
const KINDS = ['parent', 'dependency', 'provider', 'deletedWith', 'replaceWith'] as const;

let view: ResourceGraphResult | null = null;
let words: GraphWords | undefined;
const shownKinds = new Set<string>(KINDS);

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const canvas = byId<HTMLDivElement>('canvas');
const notice = byId<HTMLDivElement>('notice');
const search = byId<HTMLInputElement>('search');
const typeFilter = byId<HTMLSelectElement>('type');
const providerFilter = byId<HTMLSelectElement>('provider');
const groupBy = byId<HTMLSelectElement>('group-by');

function element<K extends keyof SVGElementTagNameMap>(name: K, attributes: Record<string, string | number>, parent?: Element): SVGElementTagNameMap[K] {
  const made = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) made.setAttribute(key, String(value));
  parent?.appendChild(made);
  return made;
}

function format(template: string, ...values: Array<string | number>): string {
  return template.replace(/\{(\d+)\}/g, (whole, index: string) => String(values[Number(index)] ?? whole));
}

function marksOf(node: GraphViewNode): string[] {
  if (!words) return [];
  const marks: string[] = [];
  if (node.missing) marks.push(words.marks.missing);
  if (node.delete) marks.push(words.marks.delete);
  if (node.pending) marks.push(words.marks.pending);
  if (node.protect) marks.push(words.marks.protect);
  if (node.taint) marks.push(words.marks.taint);
  if (node.errors) marks.push(format(words.marks.errors, node.errors));
  if (node.warnings) marks.push(format(words.marks.warnings, node.warnings));
  return marks;
}

/**
 * A short symbol per mark, drawn in the node's corner (characters every UI font has: a missing glyph
 * would say nothing); the words are in its label and tooltip, and the docs list the symbols.
 */
function symbolsOf(node: GraphViewNode): string {
  return [node.missing && '?', node.delete && '✕', node.pending && '…', node.protect && 'P', node.taint && 'T', node.errors && `✖${node.errors}`, node.warnings && `⚠${node.warnings}`]
    .filter(Boolean)
    .join(' ');
}

function drawEdges(svg: SVGSVGElement, edges: GraphViewEdge[]): void {
  const defs = element('defs', {}, svg);
  for (const kind of KINDS) {
    const marker = element('marker', { id: `arrow-${kind}`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, defs);
    element('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: `arrow kind-${kind}` }, marker);
  }
  for (const edge of edges) {
    if (edge.points.length < 2) continue;
    const d = edge.points.map((p, i) => `${i ? 'L' : 'M'} ${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(' ');
    const path = element('path', { d, class: `edge kind-${edge.kind}`, 'marker-end': `url(#arrow-${edge.kind})` }, svg);
    const title = element('title', {}, path);
    const counted = edge.count && edge.count > 1 && words ? format(words.edgeCount, edge.count) : '';
    title.textContent = `${words?.kinds[edge.kind] ?? edge.kind}${edge.labels.length ? `: ${edge.labels.join(', ')}` : ''}${counted ? ` (${counted})` : ''}`;
    const text = edge.labels.length ? edge.labels.join(', ') : counted;
    if (text) {
      const middle = edge.points[Math.floor(edge.points.length / 2)];
      const label = element('text', { x: middle.x, y: middle.y - 3, class: 'edge-label', 'text-anchor': 'middle' }, svg);
      label.textContent = text;
    }
  }
}

function drawNodes(svg: SVGSVGElement, nodes: GraphViewNode[], focus: string | null, matches: Set<string>): void {
  for (const node of nodes) {
    const classes = ['node', node.group ? 'group' : node.custom ? 'custom' : 'component'];
    if (node.group?.expanded) classes.push('expanded');
    if (node.id === focus) classes.push('focus');
    if (matches.has(node.id)) classes.push('match');
    if (node.missing) classes.push('missing');
    if (node.delete) classes.push('deleted');
    if (node.errors) classes.push('has-errors');
    else if (node.warnings) classes.push('has-warnings');
    const marks = marksOf(node);
    const group = element(
      'g',
      {
        class: classes.join(' '),
        transform: `translate(${(node.x - node.width / 2).toFixed(1)} ${(node.y - node.height / 2).toFixed(1)})`,
        tabindex: 0,
        role: 'button',
        'data-id': node.id,
        'aria-label': [node.name, node.type, ...marks].filter(Boolean).join(', '),
      },
      svg,
    );
    element('rect', { width: node.width, height: node.height, rx: 4 }, group);
    const name = element('text', { x: 8, y: 16, class: 'name' }, group);
    name.textContent = node.name.length > 48 ? `${node.name.slice(0, 47)}…` : node.name;
    const type = element('text', { x: 8, y: 32, class: 'type' }, group);
    const second = node.group && words ? format(words.groupMembers, node.group.members) : node.type;
    type.textContent = second.length > 48 ? `…${second.slice(-47)}` : second;
    const symbols = symbolsOf(node);
    if (symbols) {
      const corner = element('text', { x: node.width - 6, y: 14, class: 'marks', 'text-anchor': 'end' }, group);
      corner.textContent = symbols;
    }
    const title = element('title', {}, group);
    title.textContent = [node.group ? `${node.name}: ${type.textContent}` : node.urn, ...marks].join('\n');
    // A group box opens (or folds) its resources; a resource box becomes the focus.
    const choose = () => vscode.postMessage(node.group ? { type: 'toggleGroup', id: node.id } : { type: 'select', id: node.id });
    group.addEventListener('click', choose);
    group.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        choose();
      }
    });
  }
}

/** The text alternative: every edge of the focus, each a button that moves the focus along it. */
function edgeList(current: ResourceGraphResult): string[] {
  const list = byId<HTMLUListElement>('edge-list');
  list.replaceChildren();
  const names = new Map(current.nodes.map((n) => [n.id, n.name]));
  const focusName = current.focus ? (names.get(current.focus) ?? current.focus) : '';
  byId('edges-title').textContent = words && current.focus ? format(words.edgesOf, focusName) : '';
  const lines: string[] = [];
  for (const edge of current.edges) {
    if (edge.from !== current.focus && edge.to !== current.focus) continue;
    const outgoing = edge.from === current.focus;
    const other = outgoing ? edge.to : edge.from;
    // Read from the focus: a dependency edge runs from the dependency to its dependent, as Pulumi draws it.
    const relation = words?.relations[edge.kind][outgoing ? 'out' : 'in'] ?? `${edge.kind} {0}`;
    const text = `${format(relation, names.get(other) ?? other)}${edge.labels.length ? ` (${edge.labels.join(', ')})` : ''}`;
    lines.push(text);
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.textContent = text;
    button.title = other;
    button.addEventListener('click', () => vscode.postMessage({ type: 'select', id: other }));
    item.appendChild(button);
    list.appendChild(item);
  }
  if (lines.length === 0 && words) {
    const item = document.createElement('li');
    item.textContent = words.noEdges;
    list.appendChild(item);
  }
  return lines;
}

function fillSelect(select: HTMLSelectElement, all: string, options: Array<{ value: string; label: string }>, chosen: string): void {
  select.replaceChildren();
  for (const option of [{ value: '', label: all }, ...options]) {
    const made = document.createElement('option');
    made.value = option.value;
    made.textContent = option.label;
    made.selected = option.value === chosen;
    select.appendChild(made);
  }
}

function showMatches(current: ResourceGraphResult): string[] | undefined {
  const results = byId<HTMLUListElement>('results');
  results.replaceChildren();
  if (!current.matches) return undefined;
  byId('results-title').textContent = words ? (current.matches.length ? format(words.matches, current.matches.length) : words.noMatches) : '';
  for (const match of current.matches) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.textContent = `${match.name} (${match.type})`;
    button.addEventListener('click', () => vscode.postMessage({ type: 'select', id: match.id }));
    item.appendChild(button);
    results.appendChild(item);
  }
  return current.matches.map((m) => m.id);
}

function render(): void {
  const svg = byId<SVGSVGElement & HTMLElement>('graph');
  svg.replaceChildren();
  if (!view || !words) {
    notice.textContent = words?.empty ?? '';
    vscode.postMessage({ type: 'rendered', rendered: { focus: null, nodes: [], edges: [], edgeList: [], notice: notice.textContent } });
    return;
  }
  const current = view;
  // A picture that fits at half size or more is scaled to fit; a larger one keeps its size and scrolls to the focus.
  const fit = Math.min(1, canvas.clientWidth / Math.max(1, current.width), canvas.clientHeight / Math.max(1, current.height));
  const scale = fit >= 0.5 ? fit : 1;
  svg.setAttribute('width', String(Math.ceil(current.width * scale)));
  svg.setAttribute('height', String(Math.ceil(current.height * scale)));
  svg.setAttribute('viewBox', `0 0 ${Math.ceil(current.width)} ${Math.ceil(current.height)}`);
  const matches = new Set((current.matches ?? []).map((m) => m.id));
  drawEdges(svg, current.edges);
  drawNodes(svg, current.nodes, current.focus, matches);
  byId('depth-value').textContent = current.depth === 'all' ? words.wholeGraph : String(current.depth);
  fillSelect(
    typeFilter,
    words.allTypes,
    current.types.map((t) => ({ value: t, label: t })),
    typeFilter.value,
  );
  fillSelect(
    providerFilter,
    words.allProviders,
    current.providers.map((p) => ({ value: p.urn, label: p.name })),
    providerFilter.value,
  );
  const lines = [current.stale, format(words.total, current.total.nodes, current.total.edges)];
  if (current.overview) lines.push(format(words.overview, current.overview.groups, current.overview.resources, words.groupBy[current.overview.by]));
  if (current.truncated) lines.push(format(words.truncated, current.truncated.shown, current.truncated.within));
  if (current.edgesLeftOut) lines.push(format(words.edgesLeftOut, current.edgesLeftOut.shown, current.edgesLeftOut.within));
  if (current.layout === 'grid') lines.push(words.grid);
  groupBy.hidden = !current.overview;
  if (current.overview) groupBy.value = current.overview.by;
  notice.textContent = lines.filter(Boolean).join(' · ');
  notice.classList.toggle('stale', current.stale !== undefined);
  const edgesListed = edgeList(current);
  const matched = showMatches(current);
  const focusNode = current.nodes.find((n) => n.id === current.focus);
  if (focusNode && scale === 1) canvas.scrollTo({ left: focusNode.x - canvas.clientWidth / 2, top: focusNode.y - canvas.clientHeight / 2 });
  const rendered: RenderedGraph = {
    focus: current.focus,
    nodes: current.nodes.map((n) => n.id),
    edges: current.edges.map((e) => ({ from: e.from, to: e.to, kind: e.kind, labels: e.labels })),
    edgeList: edgesListed,
    notice: notice.textContent,
  };
  if (matched) rendered.matches = matched;
  if (current.overview) rendered.groups = current.nodes.filter((n) => n.group).map((n) => n.id);
  vscode.postMessage({ type: 'rendered', rendered });
}

function drawLegend(): void {
  if (!words) return;
  const legend = byId('legend');
  legend.replaceChildren();
  const title = document.createElement('span');
  title.textContent = words.legend;
  legend.appendChild(title);
  for (const kind of KINDS) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = shownKinds.has(kind);
    box.addEventListener('change', () => {
      if (box.checked) shownKinds.add(kind);
      else shownKinds.delete(kind);
      sendFilters();
    });
    const sample = element('svg', { width: 28, height: 10, 'aria-hidden': 'true' });
    element('line', { x1: 0, y1: 5, x2: 28, y2: 5, class: `edge kind-${kind}` }, sample);
    label.append(box, sample, document.createTextNode(words.kinds[kind]));
    legend.appendChild(label);
  }
}

function sendFilters(): void {
  vscode.postMessage({
    type: 'filters',
    edgeKinds: KINDS.filter((k) => shownKinds.has(k)),
    ...(typeFilter.value ? { resourceType: typeFilter.value } : {}),
    ...(providerFilter.value ? { provider: providerFilter.value } : {}),
  });
}

/** The picture as a standalone SVG file: the theme's colours written into each element, as computed now. */
function exportSvg(): void {
  const original = byId<SVGSVGElement & HTMLElement>('graph');
  const copy = original.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', SVG);
  const from = [original, ...original.querySelectorAll('*')];
  const to = [copy, ...copy.querySelectorAll('*')];
  from.forEach((source, index) => {
    const computed = getComputedStyle(source);
    const target = to[index] as SVGElement;
    for (const property of ['fill', 'stroke', 'stroke-width', 'stroke-dasharray', 'font-family', 'font-size', 'font-weight', 'opacity']) {
      target.style.setProperty(property, computed.getPropertyValue(property));
    }
    target.removeAttribute('tabindex');
  });
  const background = getComputedStyle(document.body).backgroundColor;
  copy.style.setProperty('background', background);
  vscode.postMessage({ type: 'exportSvg', svg: new XMLSerializer().serializeToString(copy) });
}

let searchTimer: ReturnType<typeof setTimeout> | undefined;
search.addEventListener('input', () => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => vscode.postMessage({ type: 'search', query: search.value }), 200);
});
typeFilter.addEventListener('change', sendFilters);
providerFilter.addEventListener('change', sendFilters);
groupBy.addEventListener('change', () => vscode.postMessage({ type: 'groupBy', by: groupBy.value as 'parent' | 'type' | 'provider' }));
byId('less').addEventListener('click', () => {
  const depth = view?.depth;
  vscode.postMessage({ type: 'depth', depth: depth === 'all' ? 3 : Math.max(0, (depth ?? 1) - 1) });
});
byId('more').addEventListener('click', () => {
  const depth = view?.depth;
  vscode.postMessage({ type: 'depth', depth: depth === 'all' ? 'all' : (depth ?? 1) + 1 });
});
byId('whole').addEventListener('click', () => vscode.postMessage({ type: 'depth', depth: 'all' }));
byId('export-svg').addEventListener('click', exportSvg);
byId('export-dot').addEventListener('click', () => vscode.postMessage({ type: 'exportDot' }));

window.addEventListener('message', (event: MessageEvent<ToWebview>) => {
  const message = event.data;
  if (message.type === 'view') {
    const first = !words;
    view = message.view;
    words = message.words;
    if (first) drawLegend();
    render();
  } else if (message.type === 'simulate' && message.action === 'click') {
    const node = [...document.querySelectorAll<SVGGElement>('g.node')].find((g) => g.dataset.id === message.id);
    node?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  } else if (message.type === 'simulate' && message.action === 'depth') {
    vscode.postMessage({ type: 'depth', depth: message.depth });
  } else if (message.type === 'simulate' && message.action === 'search') {
    search.value = message.query;
    search.dispatchEvent(new Event('input'));
  }
});

vscode.postMessage({ type: 'ready' });
