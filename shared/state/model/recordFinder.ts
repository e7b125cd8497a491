/**
 * Finds where one resource record starts in the text without reading the records before it, so
 * that placing a diagnostic in record 29,000 of a 100 MB file does not scan 29,000 records bracket
 * by bracket. A record begins `{ "urn": "<its urn>"`, as Pulumi and every state serializer write it;
 * a raw `"` cannot occur inside a JSON string, so a native search for the urn's JSON text finds it.
 *
 * The same text also occurs where the record is not: as a resource reference in another record's
 * outputs (`{ "4dabf…": "5cf8f…", "urn": … }`), as a dependency, or as a second copy of the urn.
 * So a candidate counts only when its `"urn"` is the first key of its object and that object, parsed,
 * equals the record; a urn that several records share, or a record written otherwise (escaped
 * differently, its urn not first), is not searched for, and the caller reads the text as before.
 */
import { ContainerEnds } from '../../json/containerEnds';
import { sameJson } from '../../json/sameJson';
import type { RecordFinder } from './locate';
import type { ResourceEntry } from './structure';
import { UrnMap } from './urnMap';

export function recordFinder(text: string, resources: readonly ResourceEntry[]): RecordFinder {
  let copies: UrnMap<number> | undefined;
  const isUnique = (urn: string): boolean => {
    if (!copies) {
      copies = new UrnMap();
      for (const resource of resources) if (resource.urn !== undefined) copies.set(resource.urn, (copies.get(resource.urn) ?? 0) + 1);
    }
    return copies.get(urn) === 1;
  };
  // How this file writes a member: `"urn": "…"` (indented) or `"urn":"…"` (compact), read once.
  let member: string | undefined;
  // A search that finds nothing has read to the end of the text. A file written otherwise (keys sorted,
  // so `urn` is not first) would pay that for every record, so the first miss ends the searching.
  let missed = false;
  return {
    startOf(index, from) {
      const resource = resources[index];
      if (missed || !resource || typeof resource.urn !== 'string' || !isUnique(resource.urn)) return undefined;
      member ??= memberPrefix(text, from);
      if (member === undefined) {
        missed = true;
        return undefined;
      }
      const needle = member + JSON.stringify(resource.urn);
      // The search runs on the needle's end, the urn's name: native string search is fast for a short
      // distinctive pattern and slow for a long one (a urn of nested components runs to 200 characters).
      const tail = needle.slice(-SEARCHED_TAIL_LENGTH);
      for (let hit = text.indexOf(tail, from); hit !== -1; hit = text.indexOf(tail, hit + tail.length)) {
        const at = hit + tail.length - needle.length;
        if (at < from || !text.startsWith(needle, at)) continue;
        const start = openingBraceBefore(text, at);
        if (start >= from && isTheRecord(text, start, resource.value)) return start;
      }
      missed = true;
      return undefined;
    },
  };
}

const URN_KEY = '"urn"';
/** How much of the end of `"urn": "<urn>"` is searched for. */
const SEARCHED_TAIL_LENGTH = 32;

/** `"urn":` and the blanks after it in the file's first urn member at or after `from`. */
function memberPrefix(text: string, from: number): string | undefined {
  const key = text.indexOf(`${URN_KEY}:`, from);
  if (key === -1) return undefined;
  let end = key + URN_KEY.length + 1;
  while (text.charCodeAt(end) === 32) end++;
  return text.slice(key, end);
}

/** The `{` before the `"urn"` key at `key`, with only whitespace between; -1 when the key is not the object's first. */
function openingBraceBefore(text: string, key: number): number {
  const i = skipWhitespaceBack(text, key - 1);
  return text.charCodeAt(i) === 123 /* { */ ? i : -1;
}

function skipWhitespaceBack(text: string, i: number): number {
  for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(i)) i--;
  return i;
}

/** Whether the object starting at `start` parses to a value equal to `record`. */
function isTheRecord(text: string, start: number, record: unknown): boolean {
  const end = new ContainerEnds(text).endOf(start);
  try {
    return sameJson(JSON.parse(text.slice(start, end)), record);
  } catch {
    return false;
  }
}
