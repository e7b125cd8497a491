/** `syntax`: the text is not valid JSON; each error the tolerant parser found, where it found it. */
import type { StateFinding } from '../passes/findings';
import type { StateRule, StateRuleContext } from './stateRule';

function check(context: StateRuleContext): StateFinding[] {
  return context.syntax.map((error) => ({ code: 'syntax', message: error.message, at: { path: [], part: 'head', span: error.span } }));
}

export const syntax: StateRule = {
  code: 'syntax',
  doc: 'The file is not valid JSON.',
  check,
};
