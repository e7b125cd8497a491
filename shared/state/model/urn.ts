/** URNs (`urn:pulumi:<stack>::<project>::<type>::<name>`) and provider references (`<provider urn>::<id>`). */
import * as l10n from '@vscode/l10n';

/** The provider "unknown ID", also the unknown property-value sentinel. */
export const UNKNOWN_ID = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';
export const ROOT_STACK_TYPE = 'pulumi:pulumi:Stack';
const PROVIDER_TYPE_PREFIX = 'pulumi:providers:';

export interface ParsedUrn {
  stack: string;
  project: string;
  /** Parent types joined with `$`, ending in the resource's own type. */
  qualifiedType: string;
  /** The resource's own type (last `$` segment of the qualified type). */
  type: string;
  name: string;
}

const URN_PREFIX = 'urn:pulumi:';

/** `urn:pulumi:<stack>::<project>::<qualified type>::<name>`; the name may contain `::`. */
export function parseUrn(urn: string): ParsedUrn | undefined {
  if (!urn.startsWith(URN_PREFIX)) return undefined;
  const stackEnd = urn.indexOf('::', URN_PREFIX.length);
  if (stackEnd === -1) return undefined;
  const projectEnd = urn.indexOf('::', stackEnd + 2);
  if (projectEnd === -1) return undefined;
  const typeEnd = urn.indexOf('::', projectEnd + 2);
  if (typeEnd === -1) return undefined;
  const stack = urn.slice(URN_PREFIX.length, stackEnd);
  const project = urn.slice(stackEnd + 2, projectEnd);
  const qualifiedType = urn.slice(projectEnd + 2, typeEnd);
  const name = urn.slice(typeEnd + 2);
  if (!stack || !project || !qualifiedType || !name) return undefined;
  const type = qualifiedType.slice(qualifiedType.lastIndexOf('$') + 1);
  return { stack, project, qualifiedType, type, name };
}

/** Pulumi's own validity test: `urn:pulumi:` prefix and at least three `::`. */
function isPulumiValidUrn(urn: string): boolean {
  if (!urn.startsWith(URN_PREFIX)) return false;
  const first = urn.indexOf('::');
  const second = first === -1 ? -1 : urn.indexOf('::', first + 2);
  return second !== -1 && urn.indexOf('::', second + 2) !== -1;
}

export function isProviderType(type: string): boolean {
  return type.startsWith(PROVIDER_TYPE_PREFIX);
}

/** Why a urn cannot name a provider, or undefined when it can. */
export function providerUrnProblem(urn: string): string | undefined {
  if (!isPulumiValidUrn(urn)) return l10n.t('{0} is not a valid URN', urn);
  const parsed = parseUrn(urn);
  const type = parsed?.type ?? '';
  const colon = type.lastIndexOf(':');
  const module = colon === -1 ? '' : type.slice(0, colon);
  if (module !== 'pulumi:providers') return l10n.t("invalid module in type: expected '{0}', got '{1}'", 'pulumi:providers', module);
  if (!type.slice(colon + 1)) return l10n.t('provider URNs must specify a type name');
  return undefined;
}

export type ProviderReference = { urn: string; id: string } | { error: string };

/** A file has few distinct provider references, each written by thousands of records. */
const providerReferences = new Map<string, ProviderReference>();

/** `<provider urn>::<id>`, split at the last `::` (memoised: the function is pure; errors are not kept, their words are translated). */
export function parseProviderReference(reference: string): ProviderReference {
  let parsed = providerReferences.get(reference);
  if (!parsed) {
    parsed = splitProviderReference(reference);
    if ('error' in parsed) return parsed;
    if (providerReferences.size >= 4096) providerReferences.clear();
    providerReferences.set(reference, parsed);
  }
  return parsed;
}

function splitProviderReference(reference: string): ProviderReference {
  const separator = reference.lastIndexOf('::');
  if (separator === -1) return { error: l10n.t("expected '::' in provider reference '{0}'", reference) };
  const urn = reference.slice(0, separator);
  const id = reference.slice(separator + 2);
  const problem = providerUrnProblem(urn);
  return problem ? { error: problem } : { urn, id };
}
