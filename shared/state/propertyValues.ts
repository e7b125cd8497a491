/**
 * Pulumi's property-value encoding (secrets, resource references, assets, archives): names the problem of a
 * malformed special value once, by its signature (the "best branch" of the schema's oneOf),
 * and finds resource references for navigation.
 */
import type { JsonPath } from './locate';
import { isObject, ReferenceSite } from './model';

export const SIGNATURE_KEY = '4dabf18193072939515e22adb298388d';
export const SIGNATURES = {
  secret: '1b47061264138c4ac30d75fd1eb44270',
  asset: 'c44067f5952c0a294b673a41bacd8c17',
  archive: '0def7320c3a5731c473e5ecbe6d01bc7',
  resourceReference: '5cf8f73096256a8f31e491e813e4eb8e',
  float: '8ad145fe-0d11-4827-bfd7-1abcbf086f5c',
  byteString: '803fd3297a5875dc03ca845dda5d2a98',
} as const;

export interface MalformedValue {
  path: JsonPath;
  message: string;
}

const SIGNATURE_NAMES = new Map<string, keyof typeof SIGNATURES>(
  Object.entries(SIGNATURES).map(([name, signature]) => [signature, name as keyof typeof SIGNATURES]),
);

function extraKeys(value: Record<string, unknown>, allowed: string[]): string[] {
  return Object.keys(value).filter((key) => key !== SIGNATURE_KEY && !allowed.includes(key));
}

function nonStringFields(value: Record<string, unknown>, fields: string[]): string[] {
  return fields.filter((field) => field in value && typeof value[field] !== 'string');
}

/** The one problem of a special (signature-carrying) object, or undefined when it is well-formed. */
function specialValueProblem(value: Record<string, unknown>): string | undefined {
  const signature = value[SIGNATURE_KEY];
  const kind = typeof signature === 'string' ? SIGNATURE_NAMES.get(signature) : undefined;
  if (!kind) return `unrecognized signature '${typeof signature === 'string' ? signature : JSON.stringify(signature)}' in property map`;
  const describe = (allowed: string[], label: string): string | undefined => {
    const extra = extraKeys(value, allowed);
    if (extra.length) return `${label} has unexpected propert${extra.length > 1 ? 'ies' : 'y'} ${extra.map((k) => `'${k}'`).join(', ')} (allowed: ${allowed.join(', ')})`;
    const wrong = nonStringFields(value, allowed.filter((f) => f !== 'assets'));
    if (wrong.length) return `${label}: '${wrong[0]}' must be a string, not ${jsonType(value[wrong[0]])}`;
    return undefined;
  };
  switch (kind) {
    case 'secret': {
      const hasCipher = 'ciphertext' in value;
      const hasPlain = 'plaintext' in value;
      const lone = hasCipher ? value.ciphertext : value.plaintext;
      if (hasCipher === hasPlain || lone === '') return 'malformed secret value: exactly one of `ciphertext` or `plaintext` must be supplied';
      return describe(['ciphertext', 'plaintext'], 'secret value');
    }
    case 'asset': {
      const contents = ['text', 'path', 'uri'].filter((k) => k in value);
      if (contents.length > 1) return `malformed asset: at most one of \`text\`, \`path\` or \`uri\` may be given (found ${contents.join(' and ')})`;
      return describe(['hash', 'text', 'path', 'uri'], 'asset');
    }
    case 'archive': {
      const contents = ['assets', 'path', 'uri'].filter((k) => k in value);
      if (contents.length > 1) return `malformed archive: at most one of \`assets\`, \`path\` or \`uri\` may be given (found ${contents.join(' and ')})`;
      if ('assets' in value && !isObject(value.assets)) return `malformed archive: 'assets' must be an object, not ${jsonType(value.assets)}`;
      return describe(['hash', 'assets', 'path', 'uri'], 'archive');
    }
    case 'resourceReference':
      if (!('urn' in value)) return 'malformed resource reference: missing urn';
      return describe(['urn', 'id', 'packageVersion'], 'resource reference');
    case 'float':
      if (typeof value.value !== 'string' || !/^[0-9a-fA-F]{16}$/.test(value.value)) {
        return 'malformed float: `value` must be the 16 hex digits of the IEEE-754 bits';
      }
      return describe(['value'], 'float');
    case 'byteString':
      if (typeof value.value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value.value)) return 'malformed byte string: `value` must be base64';
      return describe(['value'], 'byte string');
  }
}

export function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return `a ${typeof value}`;
}

/** Every malformed special value inside one property value (iterative: nesting depth is unbounded). */
export function findMalformedValues(value: unknown, path: JsonPath): MalformedValue[] {
  const problems: MalformedValue[] = [];
  const stack: Array<[unknown, JsonPath]> = [[value, path]];
  while (stack.length) {
    const [current, at] = stack.pop()!;
    if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push([item, [...at, i]]));
    } else if (isObject(current)) {
      if (SIGNATURE_KEY in current) {
        const problem = specialValueProblem(current);
        if (problem) problems.push({ path: at, message: problem });
        else if (current[SIGNATURE_KEY] === SIGNATURES.archive && isObject(current.assets)) {
          for (const [name, asset] of Object.entries(current.assets)) {
            if (!isObject(asset) || !(SIGNATURE_KEY in asset)) {
              problems.push({ path: [...at, 'assets', name], message: `malformed archive: asset '${name}' must be an asset or archive value` });
            } else stack.push([asset, [...at, 'assets', name]]);
          }
        }
      } else {
        for (const [key, item] of Object.entries(current)) stack.push([item, [...at, key]]);
      }
    }
  }
  return problems.reverse();
}

/**
 * Resource references (`{sig: resourceReference, urn}`) anywhere inside the inputs or outputs
 * of a record at `resourcePath`.
 */
export function findResourceReferences(
  properties: unknown,
  resourcePath: JsonPath,
  section: 'inputs' | 'outputs',
  from: number,
  sites: ReferenceSite[],
): void {
  if (!isObject(properties)) return;
  const stack: Array<[unknown, Array<string | number>]> = [];
  for (const key of Object.keys(properties).reverse()) stack.push([properties[key], [key]]);
  while (stack.length) {
    const [current, at] = stack.pop()!;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) if (typeof current[i] === 'object' && current[i] !== null) stack.push([current[i], [...at, i]]);
    } else if (isObject(current)) {
      if (current[SIGNATURE_KEY] === SIGNATURES.resourceReference) {
        if (typeof current.urn === 'string' && current.urn !== '') {
          sites.push(new ReferenceSite('resourceReference', current.urn, from, resourcePath, section, undefined, undefined, undefined, [...at, 'urn']));
        }
        continue;
      }
      const keys = Object.keys(current);
      for (let k = keys.length - 1; k >= 0; k--) {
        const item = current[keys[k]];
        if (typeof item === 'object' && item !== null) stack.push([item, [...at, keys[k]]]);
      }
    }
  }
}
