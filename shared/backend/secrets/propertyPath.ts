/**
 * Property paths as Pulumi writes and reads them (sdk/go/common/resource/properties_path.go,
 * v3.274.1, `parsePropertyPath` in its lenient form and `PropertyPath.String`): `outputs.dbPassword`,
 * `inputs.tags["a.b"]`, `outputs.list[0]`. Keys are strings, array indexes numbers.
 */

type PathElement = string | number;

/** A path Pulumi's parser refuses, with its message. */
export class PropertyPathError extends Error {}

/** `[ … ]` at the start of `path`: a quoted key, `*`, or an index; answers the element and the rest after `]`. */
function bracketed(path: string): [PathElement, string] {
  if (path.length > 1 && path[1] === '"') {
    let key = '';
    let i = 2;
    for (;;) {
      if (i >= path.length) throw new PropertyPathError('missing closing quote in property name');
      if (path[i] === '"') {
        i++;
        break;
      }
      if (path[i] === '\\' && i + 1 < path.length && path[i + 1] === '"') {
        key += '"';
        i += 2;
      } else key += path[i++];
    }
    if (i >= path.length || path[i] !== ']') throw new PropertyPathError('missing closing bracket in property access');
    return [key, path.slice(i + 1)];
  }
  const close = path.indexOf(']');
  if (close === -1) throw new PropertyPathError('missing closing bracket in array index');
  const segment = path.slice(1, close);
  if (segment === '*') return ['*', path.slice(close + 1)];
  // strconv.ParseInt(segment, 10, 0): an optional sign, decimal digits, within 64 bits (here: what a number holds exactly).
  if (!/^[+-]?[0-9]+$/.test(segment)) throw new PropertyPathError(`invalid array index: strconv.ParseInt: parsing "${segment}": invalid syntax`);
  const index = Number(segment);
  if (!Number.isSafeInteger(index)) throw new PropertyPathError(`invalid array index: strconv.ParseInt: parsing "${segment}": value out of range`);
  return [index, path.slice(close + 1)];
}

/** `ParsePropertyPath`: a name runs to the next `.` or `[`; `.` before `[` is tolerated; `[*]` is the key "*". */
export function parsePropertyPath(text: string): PathElement[] {
  const elements: PathElement[] = [];
  let path = text;
  if (path.startsWith('.')) throw new PropertyPathError('expected property path to start with a name or index');
  while (path.length > 0) {
    if (path[0] === '.') {
      path = path.slice(1);
      if (path.length === 0) throw new PropertyPathError('expected property path to end with a name or index');
    } else if (path[0] === '[') {
      let element: PathElement;
      [element, path] = bracketed(path);
      elements.push(element);
    } else {
      const end = path.search(/[.[]/);
      elements.push(end === -1 ? path : path.slice(0, end));
      path = end === -1 ? '' : path.slice(end);
    }
  }
  return elements;
}

/**
 * `PropertyPath.String`: a key of letters, digits and `_` after a `.` (bare when first), any other
 * key `["…"]` with `"` escaped; an index `[n]`. One difference: an empty key is written `[""]`, which
 * parses back (Pulumi writes nothing for it).
 */
export function formatPropertyPath(path: readonly PathElement[]): string {
  return path
    .map((element, index) => {
      if (typeof element === 'number') return `[${element}]`;
      if (element !== '' && /^[A-Za-z0-9_]+$/.test(element)) return index === 0 ? element : `.${element}`;
      return `["${element.replace(/"/g, '\\"')}"]`;
    })
    .join('');
}
