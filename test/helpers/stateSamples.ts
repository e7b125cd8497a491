/** Small state documents that several suites open, written once. */

/** An export (`{version, deployment}`) whose only resource names a parent that is not in the file. */
export const EXPORT_WITH_MISSING_PARENT = JSON.stringify(
  {
    version: 3,
    deployment: {
      // The magic is the SHA-256 of the version, as Pulumi writes it.
      manifest: { time: '2024-01-01T00:00:00Z', magic: '3ff53efef69f38d19e364655131bbb113e416d3bf64bfb819065fa12acb29250', version: 'v3.100.0' },
      resources: [
        {
          urn: 'urn:pulumi:dev::shop::aws:s3/bucket:Bucket::assets',
          type: 'aws:s3/bucket:Bucket',
          custom: true,
          parent: 'urn:pulumi:dev::shop::pulumi:pulumi:Stack::shop-dev',
        },
      ],
    },
  },
  null,
  2,
);
