/**
 * The small hand-written stack the surgery unit and LSP tests share: a root stack, a provider, a
 * component with a child, and two buckets where B depends on A and A on the child.
 */
export type Rec = Record<string, unknown>;

export const U = (type: string, name: string, stack = 's', project = 'p') => `urn:pulumi:${stack}::${project}::${type}::${name}`;
export const ROOT = U('pulumi:pulumi:Stack', 'p-s');
export const PROV = U('pulumi:providers:aws', 'default');
export const PROV_REF = `${PROV}::prov-1`;
export const COMP = U('my:Comp', 'comp');
export const CHILD = U('my:Comp$aws:s3:Bucket', 'child');
export const A = U('aws:s3:Bucket', 'a');
export const B = U('aws:s3:Bucket', 'b');

/** A fresh copy of the sample's records, in dependency order. */
export function sampleRecords(): Rec[] {
  return [
    { urn: ROOT, custom: false, type: 'pulumi:pulumi:Stack' },
    { urn: PROV, custom: true, id: 'prov-1', type: 'pulumi:providers:aws' },
    { urn: COMP, custom: false, type: 'my:Comp', parent: ROOT },
    { urn: CHILD, custom: true, id: 'c1', type: 'aws:s3:Bucket', parent: COMP, provider: PROV_REF },
    { urn: A, custom: true, id: 'a1', type: 'aws:s3:Bucket', parent: ROOT, provider: PROV_REF, dependencies: [CHILD] },
    { urn: B, custom: true, id: 'b1', type: 'aws:s3:Bucket', parent: ROOT, provider: PROV_REF, dependencies: [A], propertyDependencies: { x: [A] } },
  ];
}
