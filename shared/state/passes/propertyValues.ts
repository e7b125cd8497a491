/**
 * Pulumi's property-value encoding (secrets, resource references, assets, archives): names the problem of a
 * malformed special value once, by its signature (the "best branch" of the schema's oneOf),
 * and finds resource references for navigation.
 */
import * as l10n from '@vscode/l10n';
import { MAX_NESTING_DEPTH } from '../../json/nesting';
import { valueTypeName } from '../../json/words';
import type { JsonPath } from '../model/locate';
import { isObject, ReferenceSite } from '../model/structure';

const SIGNATURE_KEY = '4dabf18193072939515e22adb298388d';
const SIGNATURES = {
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

const SIGNATURE_NAMES = new Map<string, keyof typeof SIGNATURES>(Object.entries(SIGNATURES).map(([name, signature]) => [signature, name as keyof typeof SIGNATURES]));

/** Go's base64.StdEncoding: padded, in groups of four. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** strconv.ParseUint(hex, 16, 64): hex digits only, at most 16 once leading zeros are gone. */
const fitsUint64Hex = (hex: string): boolean => /^[0-9a-fA-F]+$/.test(hex) && hex.replace(/^0+/, '').length <= 16;

/** `value` when it is absent or a string, else the name of its JSON type. */
function nonString(value: Record<string, unknown>, field: string): string | undefined {
  return field in value && typeof value[field] !== 'string' ? valueTypeName(value[field]) : undefined;
}

/**
 * The one problem Pulumi's `DeserializePropertyValue` (pkg/resource/stack/deployment.go, with
 * asset.Deserialize and archive.Deserialize of sdk/go/common/resource) finds in a special
 * (signature-carrying) object, or undefined when Pulumi loads it. Pulumi ignores unknown keys, reads
 * an asset's `text`, `path` and `uri` side by side (path wins, then uri), and takes an archive's first
 * non-empty `path` or `uri` before it looks at `assets`.
 */
function specialValueProblem(value: Record<string, unknown>): string | undefined {
  const signature = value[SIGNATURE_KEY];
  const kind = typeof signature === 'string' ? SIGNATURE_NAMES.get(signature) : undefined;
  if (!kind) return l10n.t("unrecognized signature '{0}' in property map", typeof signature === 'string' ? signature : String(JSON.stringify(signature)));
  switch (kind) {
    case 'secret': {
      const cipher = typeof value.ciphertext === 'string' ? value.ciphertext : undefined;
      const plain = typeof value.plaintext === 'string' ? value.plaintext : undefined;
      // Both typed checks (ok flags) and deserializeSecret's emptiness check.
      if ((cipher === undefined) === (plain === undefined) || (cipher ?? plain) === '') {
        return l10n.t('malformed secret value: exactly one of `ciphertext` or `plaintext` must be supplied');
      }
      if (plain !== undefined) {
        try {
          JSON.parse(plain);
        } catch {
          return l10n.t('malformed secret value: `plaintext` must be JSON text (Pulumi parses it as JSON)');
        }
      }
      return undefined;
    }
    case 'asset': {
      for (const field of ['hash', 'text', 'path', 'uri']) {
        const type = nonString(value, field);
        if (type) return l10n.t('unexpected asset {0} of type {1}: it must be a string', field === 'uri' ? 'URI' : field, type);
      }
      return undefined;
    }
    case 'archive': {
      const hashType = nonString(value, 'hash');
      if (hashType) return l10n.t('unexpected archive {0} of type {1}: it must be a string', 'hash', hashType);
      for (const field of ['path', 'uri']) {
        const type = nonString(value, field);
        if (type) return l10n.t('unexpected archive {0} of type {1}: it must be a string', field === 'uri' ? 'URI' : field, type);
        if (value[field] !== undefined && value[field] !== '') return undefined;
      }
      if ('assets' in value && !isObject(value.assets)) return l10n.t('unexpected archive contents of type {0}: `assets` must be an object', valueTypeName(value.assets));
      return undefined;
    }
    case 'resourceReference': {
      if ('packageVersion' in value && typeof value.packageVersion !== 'string') return l10n.t('malformed resource reference: {0} must be a string', 'packageVersion');
      if (typeof value.urn !== 'string') return l10n.t('malformed resource reference: missing {0}', 'urn');
      const id = value.id;
      const idOk = id === undefined || typeof id === 'string' || (isObject(id) && (id.V === undefined || id.V === null || typeof id.V === 'string' || isObject(id.V)));
      return idOk ? undefined : l10n.t('malformed resource reference: {0} must be a string', 'id');
    }
    case 'float':
      if (typeof value.value !== 'string') return l10n.t("malformed float value: missing or non-string '{0}' field", 'value');
      return fitsUint64Hex(value.value) ? undefined : l10n.t("malformed float value: unable to parse '{0}' field: it must be the hex digits of the IEEE-754 bits", 'value');
    case 'byteString':
      if (typeof value.value !== 'string') return l10n.t("malformed byte string: missing or non-string '{0}' field", 'value');
      return BASE64.test(value.value) ? undefined : l10n.t("malformed byte string: unable to parse '{0}' field: it must be padded base64", 'value');
  }
}

/** Pulumi's archive.Deserialize returns at the first non-empty `path` or `uri`, before `assets` is read. */
function archiveTakesPathOrUri(value: Record<string, unknown>): boolean {
  return (typeof value.path === 'string' && value.path !== '') || (typeof value.uri === 'string' && value.uri !== '');
}

const PROPERTY_SECTIONS = ['inputs', 'outputs'] as const;

/**
 * Collects the malformed special values in the property values of the records it is shown. A
 * recursive walk with one path it extends and shortens, copied only for a problem, since it
 * visits every value of every record. The recursion is bounded: by the document's nesting
 * (parseState), and in a secret's plaintext by the same bound, past which it reads nothing.
 */
export class MalformedValueWalk {
  readonly problems: MalformedValue[] = [];
  /** Where the walk is; its length is the depth. */
  private path: Array<string | number> = [];

  constructor(private readonly secretsProvider: boolean | undefined) {}

  /** The property values of one record: its inputs and outputs. */
  visitRecord(record: Record<string, unknown>, recordPath: JsonPath): void {
    this.path = [...recordPath];
    for (const section of PROPERTY_SECTIONS) {
      const properties = record[section];
      if (!isObject(properties)) continue;
      this.path.push(section);
      for (const name in properties) this.visitMember(name, properties[name]);
      this.path.pop();
    }
  }

  private visit(value: object): void {
    if (this.path.length > MAX_NESTING_DEPTH) return;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) this.visitMember(i, value[i]);
      return;
    }
    const object = value as Record<string, unknown>;
    const special = SIGNATURE_KEY in object;
    const problem = special ? this.specialValueProblem(object) : undefined;
    if (problem) this.problems.push({ path: [...this.path], message: problem });
    // Pulumi deserializes every member of the map (an archive's assets included) before it looks at the signature.
    for (const key in object) this.visitMember(key, object[key]);
    if (special && problem === undefined) this.checkContents(object);
  }

  private visitMember(key: string | number, member: unknown): void {
    if (typeof member !== 'object' || member === null) return;
    this.path.push(key);
    this.visit(member);
    this.path.pop();
  }

  private specialValueProblem(value: Record<string, unknown>): string | undefined {
    const problem = specialValueProblem(value);
    // DeserializeDeploymentV3 decrypts every ciphertext; with no secrets_providers there is no manager to ask.
    if (!problem && this.secretsProvider === false && value[SIGNATURE_KEY] === SIGNATURES.secret && typeof value.ciphertext === 'string') {
      return l10n.t('decrypting secret value: failed to decrypt: snapshot contains encrypted secrets but no secrets manager could be found (the deployment has no {0})', 'secrets_providers');
    }
    return problem;
  }

  /** What a well-formed archive's assets or secret's plaintext hold. */
  private checkContents(value: Record<string, unknown>): void {
    if (value[SIGNATURE_KEY] === SIGNATURES.archive && isObject(value.assets) && !archiveTakesPathOrUri(value)) {
      for (const name in value.assets) {
        const member = value.assets[name];
        if (!isObject(member) || !(SIGNATURE_KEY in member)) {
          this.problems.push({ path: [...this.path, 'assets', name], message: l10n.t("archive member '{0}' is not an asset or archive", name) });
        }
      }
    } else if (value[SIGNATURE_KEY] === SIGNATURES.secret && typeof value.plaintext === 'string') {
      // Pulumi deserializes the plaintext's JSON as a property value of its own.
      let inner: unknown;
      try {
        inner = JSON.parse(value.plaintext);
      } catch {
        return;
      }
      const plaintext = new MalformedValueWalk(undefined);
      plaintext.path = [...this.path, 'plaintext'];
      if (typeof inner === 'object' && inner !== null) plaintext.visit(inner);
      for (const nested of plaintext.problems) this.problems.push({ path: [...this.path, 'plaintext'], message: l10n.t("in the secret's plaintext: {0}", nested.message) });
    }
  }
}

/**
 * Resource references (`{sig: resourceReference, urn}`) anywhere inside the inputs or outputs
 * of a record at `resourcePath`.
 */
export function findResourceReferences(properties: unknown, resourcePath: JsonPath, section: 'inputs' | 'outputs', from: number, sites: ReferenceSite[]): void {
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
