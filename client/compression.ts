/**
 * Compressing in the editor with the Web Compression Streams API (Node ≥ 18 and browsers alike):
 * gzip, as Pulumi's DIY backend writes with `PULUMI_DIY_BACKEND_GZIP`. The API has no zstd.
 */
async function transform(bytes: Uint8Array, stream: { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> }): Promise<Uint8Array> {
  const piped = new Blob([bytes]).stream().pipeThrough(stream as unknown as TransformStream<Uint8Array, Uint8Array>);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

export const gzip = (bytes: Uint8Array) => transform(bytes, new CompressionStream('gzip'));
