/**
 * The product's state verdict set beside real Pulumi's: what "agree" means, and how Pulumi's one error
 * is found among the product's diagnostics.
 *
 * Agreement: the product reports an Error if and only if Pulumi refuses the file (judge `accepted:
 * false`), and Pulumi's own error is among the product's errors: a diagnostic of a matching code that
 * names the same URN. Documents Pulumi has no path for (`accepted: null`, a single resource record)
 * are outside the comparison.
 */
import { analyzeState } from '../../shared/state/analyze';
import type { Diagnostic } from '../../shared/diagnostics';
import type { PulumiVerdict } from '../helpers/realPulumi';

interface ErrorPattern {
  pattern: RegExp;
  /** Product codes any of which may carry this refusal. */
  codes: string[];
}

/**
 * Pulumi's refusals (pkg/resource/deploy/snapshot.go VerifyIntegrity, pkg/resource/stack/deployment.go
 * and checkpoint.go, encoding/json) and the product codes that report each.
 */
const PULUMI_ERRORS: ErrorPattern[] = [
  { pattern: /magic cookie mismatch/, codes: ['magic-mismatch'] },
  { pattern: /missing required 'urn' field/, codes: ['schema'] },
  { pattern: /missing required 'type' field/, codes: ['missing-type', 'schema'] },
  { pattern: /'custom'? false but non-empty ID/, codes: ['component-with-id'] },
  { pattern: /is not referenceable|failed to parse provider reference/, codes: ['invalid-provider-reference'] },
  { pattern: /refers to unknown provider/, codes: ['unknown-provider'] },
  { pattern: /comes after it/, codes: ['forward-reference', 'dependency-cycle', 'self-reference'] },
  { pattern: /refers to missing|which is missing/, codes: ['missing-reference', 'self-reference'] },
  { pattern: /duplicate resource .* \(not marked for deletion\)/, codes: ['duplicate-urn'] },
  { pattern: /snippet/, codes: ['invalid-snippet'] },
  { pattern: /deployment (version )?is too (new|old)|unsupported checkpoint version/, codes: ['unsupported-version'] },
  { pattern: /needs support for the following features/, codes: ['unsupported-feature'] },
  { pattern: /aliased to the same/, codes: ['duplicate-alias'] },
  { pattern: /^malformed |unrecognized signature|unexpected (asset|archive)|archive member|is not an asset or archive|^decrypting secret value/, codes: ['malformed-property-value'] },
  { pattern: /An assertion has failed: Urn is/, codes: ['schema'] },
  { pattern: /^json: cannot unmarshal|^invalid character|unexpected end of JSON|^EOF$|^unexpected EOF$/, codes: ['syntax', 'schema', 'not-an-object', 'unknown-shape', 'malformed-property-value'] },
];

export interface Comparison {
  agree: boolean;
  /** Why not, in words, when they disagree. */
  reason?: string;
  productErrors: Diagnostic[];
}

/** URNs named in Pulumi's message, in order. */
export function urnsIn(message: string): string[] {
  return [...message.matchAll(/urn:[^\s'",()]+/g)].map((m) => m[0].replace(/'s$/, '').replace(/:+$/, ''));
}

/** Compares Pulumi's verdict on `text` with the product's diagnostics (`pulumi` schema mode). */
export function compareWithPulumi(text: string, verdict: PulumiVerdict): Comparison {
  const diagnostics = analyzeState(text).diagnostics;
  const productErrors = diagnostics.filter((d) => d.severity === 'error');
  if (verdict.accepted === null) return { agree: true, productErrors };
  if (verdict.accepted) {
    return productErrors.length === 0
      ? { agree: true, productErrors }
      : { agree: false, reason: `Pulumi accepts the file; the product reports ${productErrors.map((d) => `${d.code} (${d.message})`).join('; ')}`, productErrors };
  }
  if (productErrors.length === 0) return { agree: false, reason: `Pulumi refuses the file at ${verdict.stage}: ${verdict.error}; the product reports no error`, productErrors };
  const error = verdict.error ?? '';
  const known = PULUMI_ERRORS.find((entry) => entry.pattern.test(error));
  if (!known) return { agree: false, reason: `Pulumi's error is not in the oracle's table (${verdict.stage}: ${error})`, productErrors };
  const [urn] = urnsIn(error);
  const match = productErrors.some((d) => known.codes.includes(d.code) && (urn === undefined || d.message.includes(urn)));
  return match
    ? { agree: true, productErrors }
    : {
        agree: false,
        reason: `Pulumi refuses at ${verdict.stage}: ${error}; no product error of code ${known.codes.join('|')}${urn ? ` naming ${urn}` : ''} (it reports ${productErrors.map((d) => `${d.code}: ${d.message}`).join('; ')})`,
        productErrors,
      };
}
