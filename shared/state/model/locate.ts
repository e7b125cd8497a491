/**
 * Finds the text spans of selected JSON nodes without building a syntax tree.
 *
 * The analysis works on the object `JSON.parse` returned; only the few nodes that carry a
 * diagnostic (or that navigation asks for) need offsets. `locatePaths` walks the text once,
 * descending only into containers on a requested path and jumping over everything else from
 * bracket to bracket (../../json/containerEnds.ts), with no allocation per node.
 * It requires text that `JSON.parse` accepted. Documents with syntax errors use `treeLocator`
 * over jsonc-parser's tolerant tree instead.
 */
import type { Node } from 'jsonc-parser';
import type { Span } from '../../diagnostics';
import { closingQuote, ContainerEnds } from '../../json/containerEnds';

export type JsonPath = ReadonlyArray<string | number>;

export interface LocatedNode {
  /** The property name's span (with quotes) when the node is an object member. */
  key?: Span;
  /** The whole value. */
  value: Span;
  /** 'object' | 'array' | 'string' | 'other'. */
  kind: 'object' | 'array' | 'string' | 'other';
}

export interface LocateOptions {
  /**
   * Stop reading the text once every requested node is found, instead of reading on to the end of
   * the outermost array on their paths. The spans are the same unless an object enclosing that array
   * repeats one of its keys further on (JSON.parse keeps the later copy): good enough to place
   * diagnostics, which is what the analysis asks it for; edits never use it.
   */
  stopWhenFound?: boolean;
}

export interface NodeLocator {
  /** Spans of every requested path that exists; missing paths are absent from the map. */
  locateAll(paths: Iterable<JsonPath>, options?: LocateOptions): Map<string, LocatedNode>;
}

/** Whether `path` is `prefix` or lies below it. */
export function isWithin(path: JsonPath, prefix: JsonPath): boolean {
  if (path.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (path[i] !== prefix[i]) return false;
  return true;
}

/** Map key of a path (paths are compared structurally). */
export function pathKey(path: JsonPath): string {
  return JSON.stringify(path);
}

interface TrieNode {
  wanted?: string;
  children?: Map<string | number, TrieNode>;
  /** Set when the caller wants the span of every element of this (array) node. */
  elements?: Span[];
  /** Set on the resources array: jumps to a wanted record instead of reading the records before it. */
  records?: RecordFinder;
}

/** What one scan has found, and whether it may stop. */
interface ScanState {
  found: Map<string, LocatedNode>;
  /** Wanted nodes not found yet. */
  remaining: number;
  stopWhenFound: boolean;
  /** Set once the scan stopped early: every caller up the chain returns at once. */
  halted: boolean;
}

function buildTrie(paths: Iterable<JsonPath>): TrieNode {
  const root: TrieNode = {};
  for (const path of paths) {
    let node = root;
    for (const segment of path) {
      node.children ??= new Map();
      let next = node.children.get(segment);
      if (!next) {
        next = {};
        node.children.set(segment, next);
      }
      node = next;
    }
    node.wanted = pathKey(path);
  }
  return root;
}

const QUOTE = 34;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** How far ahead a wanted record must be for a search by its urn (recordFinder.ts) to pay. */
const RECORDS_WORTH_A_SEARCH = 64;

/** The array indices a trie node's children ask about, ascending. */
function wantedIndices(children: Map<string | number, TrieNode>): number[] {
  const indices: number[] = [];
  for (const key of children.keys()) if (typeof key === 'number') indices.push(key);
  return indices.sort((a, b) => a - b);
}

function countWanted(node: TrieNode): number {
  let count = node.wanted !== undefined ? 1 : 0;
  for (const child of node.children?.values() ?? []) count += countWanted(child);
  return count;
}

/** Finds where a record of the resources array starts without reading the records before it (recordFinder.ts). */
export interface RecordFinder {
  /** The offset of record `index`'s opening brace, searched at or after `from`; undefined when not found for sure. */
  startOf(index: number, from: number): number | undefined;
}

/** Containers whose extent is already known, so a scan can jump over them. */
export interface KnownExtents {
  /** The end (exclusive) of the container starting at `offset`, when known. */
  endOf(offset: number): number | undefined;
}

/** Locator for text that `JSON.parse` accepted. */
export class ScanLocator implements NodeLocator {
  /** The current pass's bracket finder: each pass reads the text forward, once. */
  private ends = new ContainerEnds('');

  constructor(
    private readonly text: string,
    /** Consulted before skipping a container; returns undefined while not (yet) known. */
    private readonly known: () => KnownExtents | undefined = () => undefined,
    /** The resources array's path and the means to find a record in it (recordFinder.ts). */
    private readonly records?: { path: JsonPath; finder: RecordFinder },
  ) {}

  locateAll(paths: Iterable<JsonPath>, options: LocateOptions = {}): Map<string, LocatedNode> {
    const found = new Map<string, LocatedNode>();
    const trie = buildTrie(paths);
    // Nothing asked for: without this, the scan would skip the whole document to find nothing.
    if (!trie.children && trie.wanted === undefined) return found;
    if (this.records) {
      let node: TrieNode | undefined = trie;
      for (const segment of this.records.path) node = node?.children?.get(segment);
      if (node) node.records = this.records.finder;
    }
    const start = this.skipWhitespace(0);
    if (start >= this.text.length) return found;
    this.ends = new ContainerEnds(this.text);
    this.visit(start, trie, undefined, { found, remaining: countWanted(trie), stopWhenFound: options.stopWhenFound === true, halted: false }, false);
    return found;
  }

  /**
   * The span of the array at `path` and of each of its elements, in one scan; undefined when
   * `path` is not an array. With duplicate keys the last occurrence wins, as with JSON.parse.
   */
  elementSpans(path: JsonPath): { array: Span; elements: Span[] } | undefined {
    const trie = buildTrie([path]);
    let node = trie;
    for (const segment of path) node = node.children!.get(segment)!;
    node.elements = [];
    const start = this.skipWhitespace(0);
    if (start >= this.text.length) return undefined;
    const found = new Map<string, LocatedNode>();
    this.ends = new ContainerEnds(this.text);
    this.visit(start, trie, undefined, { found, remaining: countWanted(trie), stopWhenFound: false, halted: false }, false);
    const array = found.get(pathKey(path));
    if (!array || array.kind !== 'array') return undefined;
    return { array: array.value, elements: node.elements };
  }

  /**
   * Records `node` if wanted, descends if it has children; returns the offset after the value.
   * `insideArray`: an array encloses the value, so it is not the outermost array on the path.
   */
  private visit(offset: number, node: TrieNode, key: Span | undefined, scan: ScanState, insideArray: boolean): number {
    const text = this.text;
    const code = text.charCodeAt(offset);
    let end: number;
    if (node.elements && code === OPEN_BRACKET) end = this.collectElements(offset, node);
    else if (node.children && code === OPEN_BRACE) end = this.descendObject(offset, node.children, scan, insideArray);
    else if (node.children && code === OPEN_BRACKET) end = this.descendArray(offset, node.children, scan, insideArray, node.records);
    else end = this.skipValue(offset);
    if (node.wanted !== undefined && !scan.halted) {
      const kind = code === OPEN_BRACE ? 'object' : code === OPEN_BRACKET ? 'array' : code === QUOTE ? 'string' : 'other';
      // A repeated key is found again (the later copy wins) but is still one node: count it once.
      if (!scan.found.has(node.wanted)) scan.remaining--;
      scan.found.set(node.wanted, { key, value: { offset, length: end - offset }, kind });
    }
    return end;
  }

  private descendObject(offset: number, children: Map<string | number, TrieNode>, scan: ScanState, insideArray: boolean): number {
    const text = this.text;
    let i = this.skipWhitespace(offset + 1);
    if (text.charCodeAt(i) === CLOSE_BRACE) return i + 1;
    for (;;) {
      const keyStart = i;
      const keyEnd = this.skipString(i);
      const raw = text.slice(keyStart + 1, keyEnd - 1);
      const name = raw.includes('\\') ? (JSON.parse(text.slice(keyStart, keyEnd)) as string) : raw;
      i = this.skipWhitespace(keyEnd);
      i = this.skipWhitespace(i + 1); // ':'
      const child = children.get(name);
      i = child ? this.visit(i, child, { offset: keyStart, length: keyEnd - keyStart }, scan, insideArray) : this.skipValue(i);
      if (scan.halted) return i;
      i = this.skipWhitespace(i);
      if (text.charCodeAt(i) === CLOSE_BRACE) return i + 1;
      if (i >= text.length) return i; // unterminated: only in text JSON.parse refused
      i = this.skipWhitespace(i + 1); // ','
    }
  }

  private collectElements(offset: number, node: TrieNode): number {
    const text = this.text;
    const elements: Span[] = (node.elements = []);
    let i = this.skipWhitespace(offset + 1);
    if (text.charCodeAt(i) === CLOSE_BRACKET) return i + 1;
    for (;;) {
      const end = this.skipValue(i);
      elements.push({ offset: i, length: end - i });
      i = this.skipWhitespace(end);
      if (text.charCodeAt(i) === CLOSE_BRACKET) return i + 1;
      if (i >= text.length) return i;
      i = this.skipWhitespace(i + 1);
    }
  }

  private descendArray(offset: number, children: Map<string | number, TrieNode>, scan: ScanState, insideArray: boolean, records?: RecordFinder): number {
    const text = this.text;
    let i = this.skipWhitespace(offset + 1);
    if (text.charCodeAt(i) === CLOSE_BRACKET) return i + 1;
    const wanted = records ? wantedIndices(children) : [];
    let nextWanted = 0;
    // The record last searched for: one the finder could not place is read up to, not asked about again.
    let searchedFor = -1;
    for (let index = 0; ; index++) {
      if (records) {
        while (nextWanted < wanted.length && wanted[nextWanted] < index) nextWanted++;
        const target = wanted[nextWanted];
        // A search and its check cost about as much as reading a few dozen records: only a record
        // far ahead is searched for; diagnostics packed close together are reached by reading.
        const far = target !== undefined && target !== searchedFor && target >= index + RECORDS_WORTH_A_SEARCH;
        if (far) searchedFor = target;
        const start = far ? records.startOf(target, i) : undefined;
        if (start !== undefined) {
          i = start;
          index = target;
        }
      }
      const child = children.get(index);
      i = child ? this.visit(i, child, undefined, scan, true) : this.skipValue(i);
      if (scan.halted) return i;
      // Only the outermost array stops early: every element read so far was read whole, so a key
      // repeated inside one (JSON.parse keeps the later copy) was seen.
      if (scan.remaining <= 0 && scan.stopWhenFound && !insideArray) {
        scan.halted = true;
        return i;
      }
      i = this.skipWhitespace(i);
      if (text.charCodeAt(i) === CLOSE_BRACKET) return i + 1;
      if (i >= text.length) return i;
      i = this.skipWhitespace(i + 1);
    }
  }

  private skipWhitespace(i: number): number {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return i;
    }
  }

  /** `i` is at an opening quote; returns the offset after the closing quote. */
  private skipString(i: number): number {
    const quote = closingQuote(this.text, i);
    return quote === this.text.length ? quote : quote + 1;
  }

  private skipValue(i: number): number {
    const text = this.text;
    const code = text.charCodeAt(i);
    if (code === QUOTE) return this.skipString(i);
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      return this.known()?.endOf(i) ?? this.ends.endOf(i);
    }
    // number, true, false, null
    const length = text.length;
    while (i < length) {
      const c = text.charCodeAt(i);
      if (c === 44 || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 32 || c === 10 || c === 13 || c === 9) return i;
      i++;
    }
    return i;
  }
}

/**
 * Like jsonc-parser's findNodeAtLocation, but a duplicated key resolves to its last occurrence,
 * the one whose value JSON.parse and getNodeValue keep (findNodeAtLocation takes the first).
 */
function nodeAtPath(root: Node, path: JsonPath): Node | undefined {
  let node: Node | undefined = root;
  for (const segment of path) {
    if (!node?.children) return undefined;
    if (typeof segment === 'string') {
      if (node.type !== 'object') return undefined;
      let match: Node | undefined;
      for (const property of node.children) {
        const [key, value] = property.children ?? [];
        if (key?.value === segment && value) match = value;
      }
      node = match;
    } else {
      if (node.type !== 'array' || segment < 0 || segment >= node.children.length) return undefined;
      node = node.children[segment];
    }
  }
  return node;
}

/** Locator over jsonc-parser's tolerant tree (documents with syntax errors). */
export class TreeLocator implements NodeLocator {
  constructor(private readonly root: Node | undefined) {}

  locateAll(paths: Iterable<JsonPath>): Map<string, LocatedNode> {
    const found = new Map<string, LocatedNode>();
    if (!this.root) return found;
    for (const path of paths) {
      const node = nodeAtPath(this.root, path);
      if (!node) continue;
      const keyNode = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
      found.set(pathKey(path), {
        key: keyNode ? { offset: keyNode.offset, length: keyNode.length } : undefined,
        value: { offset: node.offset, length: node.length },
        kind: node.type === 'object' ? 'object' : node.type === 'array' ? 'array' : node.type === 'string' ? 'string' : 'other',
      });
    }
    return found;
  }
}

/**
 * A valid document but for one record with syntax errors: that record's nodes come from its
 * own tolerant tree (offsets shifted into the document), everything else from the scan, which
 * jumps over the broken record using the known record spans.
 */
export class PatchedLocator implements NodeLocator {
  constructor(
    private readonly scan: ScanLocator,
    private readonly recordPath: JsonPath,
    private readonly record: TreeLocator,
    private readonly recordOffset: number,
  ) {}

  locateAll(paths: Iterable<JsonPath>, options?: LocateOptions): Map<string, LocatedNode> {
    const outside: JsonPath[] = [];
    const inside: JsonPath[] = [];
    for (const path of paths) (isWithin(path, this.recordPath) ? inside : outside).push(path);
    // A request about the broken record alone (a hover while typing in it) scans nothing else.
    const found = outside.length ? this.scan.locateAll(outside, options) : new Map<string, LocatedNode>();
    const below = inside.map((path) => path.slice(this.recordPath.length));
    const located = this.record.locateAll(below);
    const shift = (span: Span): Span => ({ offset: span.offset + this.recordOffset, length: span.length });
    inside.forEach((path, i) => {
      const node = located.get(pathKey(below[i]));
      if (node) found.set(pathKey(path), { key: node.key && shift(node.key), value: shift(node.value), kind: node.kind });
    });
    return found;
  }
}
