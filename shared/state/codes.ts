/** Every diagnostic code of resource-state files, with its default severity and meaning. */
import { defineCodes } from '../codes';

export const STATE_CODES = defineCodes([
  { code: 'syntax', severity: 'error', description: 'The file is not valid JSON.' },
  { code: 'schema', severity: 'error', description: 'A value has the wrong shape for a resource record (wrong type, missing urn, …).' },
  { code: 'unknown-property', severity: 'error', description: 'A property the resource record does not declare.' },
  { code: 'newer-engine-property', severity: 'warning', description: 'Fields that newer Pulumi engines write but the version-3 record schema lacks.' },
  { code: 'unsupported-version', severity: 'warning', description: 'A state version Pulumi cannot load.' },
  { code: 'missing-reference', severity: 'error', description: 'A parent, dependency or property dependency names a urn that is not in the file.' },
  { code: 'forward-reference', severity: 'error', description: 'A referenced resource appears later in the file (import refuses this).' },
  { code: 'dependency-cycle', severity: 'error', description: 'Resources depend on each other in a cycle.' },
  { code: 'self-reference', severity: 'error', description: 'A resource references itself.' },
  { code: 'duplicate-urn', severity: 'error', description: 'The same urn appears more than once and not all but one copy are marked delete.' },
  { code: 'invalid-provider-reference', severity: 'error', description: 'A provider reference is not `<provider urn>::<id>` with a `pulumi:providers:<pkg>` type.' },
  { code: 'unknown-provider', severity: 'error', description: 'No earlier provider resource has that urn and id.' },
  { code: 'missing-type', severity: 'error', description: 'A resource has no type (import requires it).' },
  { code: 'component-with-id', severity: 'error', description: 'A component resource (custom false) has an id.' },
  { code: 'magic-mismatch', severity: 'error', description: "The manifest magic is not the SHA-256 of the manifest's version." },
  { code: 'foreign-stack', severity: 'warning', description: "A urn names a stack other than the file's stack." },
  { code: 'malformed-property-value', severity: 'error', description: 'A property value breaks Pulumi\'s encoding (secret, signature, resource reference, asset, archive).' },
  { code: 'duplicate-alias', severity: 'error', description: 'Two resources claim the same alias.' },
  { code: 'parent-urn-mismatch', severity: 'information', description: "A urn's qualified type does not match its parent's." },
  { code: 'invalid-urn', severity: 'information', description: 'A urn is not of the form `urn:pulumi:<stack>::<project>::<type>::<name>`.' },
]);

export type StateCode = keyof typeof STATE_CODES;
