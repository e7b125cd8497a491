// Types for pulumi-histories.mjs, which the TypeScript tests import.
export interface HistoryVariant {
  layout: 'project' | 'legacy';
  compression: 'plain' | 'gzip' | 'zstd';
}
export declare const HISTORY_VARIANTS: HistoryVariant[];
export declare function ensureHistories(options?: { log?: (line: string) => void }): {
  pulumi: string;
  backends: Array<HistoryVariant & { folder: string; stack: string }>;
};
export declare function generateHistoryInBucket(
  url: string,
  options: { env: Record<string, string>; layout?: 'project' | 'legacy'; compression?: 'plain' | 'gzip' | 'zstd'; log?: (line: string) => void },
): { pulumi: string; stack: string };
export declare function upHistoryOnce(
  url: string,
  options?: { env?: Record<string, string>; layout?: 'project' | 'legacy'; compression?: 'plain' | 'gzip' | 'zstd'; log?: (line: string) => void },
): { pulumi: string; stack: string };
