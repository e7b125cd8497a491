/**
 * Quick fixes for quota files, each driven by a diagnostic's code and `data` (product.md §4):
 * did-you-mean for unknown subjects/rules/groups/accounts, canonical spelling for aliases,
 * create a missing rule or group stub, remove an unused rule.
 */
import { modify, type Edit, type JSONPath } from 'jsonc-parser';
import { CodeActionKind, type CodeAction, type Diagnostic, type TextEdit } from 'vscode-languageserver-types';
import { propertyValueNode } from '../../json/jsoncTree';
import { detectFormatting } from '../../json/indentation';
import type { QuotaAnalysis } from '../config';

interface NameData {
  name?: string;
  value?: string;
  canonical?: string;
  suggestions?: string[];
}

function toTextEdits(analysis: QuotaAnalysis, edits: Edit[]): TextEdit[] {
  return edits.map((e) => ({ range: analysis.lines.rangeOf(e), newText: e.content }));
}

function fix(title: string, uri: string, diagnostic: Diagnostic, edits: TextEdit[], isPreferred = false): CodeAction {
  return { title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred, edit: { changes: { [uri]: edits } } };
}

function replaceString(diagnostic: Diagnostic, value: string): TextEdit[] {
  return [{ range: diagnostic.range, newText: JSON.stringify(value) }];
}

/** Appends `value` to the array at `key` (creating the array when missing), formatted like the file. */
function appendTo(analysis: QuotaAnalysis, key: string, value: unknown): TextEdit[] {
  const array = analysis.root ? propertyValueNode(analysis.root, key) : undefined;
  const length = array?.type === 'array' ? array.children?.length ?? 0 : -1;
  const path: JSONPath = length >= 0 ? [key, length] : [key];
  const edits = modify(analysis.text, path, length >= 0 ? value : [value], {
    formattingOptions: detectFormatting(analysis.text),
    isArrayInsertion: length >= 0,
  });
  return toTextEdits(analysis, edits);
}

export function quotaCodeActions(analysis: QuotaAnalysis, uri: string, diagnostics: Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    const data = (diagnostic.data ?? {}) as NameData;
    switch (diagnostic.code) {
      case 'unknown-subject':
        (data.suggestions ?? []).forEach((subject, i) => actions.push(fix(`Change to "${subject}"`, uri, diagnostic, replaceString(diagnostic, subject), i === 0)));
        break;
      case 'subject-alias':
        if (data.canonical) actions.push(fix(`Use the canonical spelling "${data.canonical}"`, uri, diagnostic, replaceString(diagnostic, data.canonical), true));
        break;
      case 'unknown-rule':
        (data.suggestions ?? []).forEach((name) => actions.push(fix(`Change to rule "${name}"`, uri, diagnostic, replaceString(diagnostic, name))));
        // jsonc-parser's edits re-read (and reformat around) content the analysis refused to read.
        if (data.name && !analysis.nestingLimited) actions.push(fix(`Create rule "${data.name}"`, uri, diagnostic, appendTo(analysis, 'rules', { name: data.name, limit: -1, subjects: ['size:all'] })));
        break;
      case 'unknown-group':
        (data.suggestions ?? []).forEach((name) => actions.push(fix(`Change to group "${name}"`, uri, diagnostic, replaceString(diagnostic, name))));
        if (data.name && !analysis.nestingLimited) actions.push(fix(`Create group "${data.name}"`, uri, diagnostic, appendTo(analysis, 'groups', { name: data.name, rules: [] })));
        break;
      case 'unknown-account':
      case 'unknown-repo':
        (data.suggestions ?? []).forEach((name) => actions.push(fix(`Change to "${name}"`, uri, diagnostic, replaceString(diagnostic, name))));
        break;
      case 'unused-rule': {
        const index = analysis.model.rules.findIndex((r) => r.name === data.name);
        const rulesNode = analysis.root ? propertyValueNode(analysis.root, 'rules') : undefined;
        // The model skips nameless rules, so find the array position by the name node's offset.
        const position = rulesNode?.children?.findIndex((child) => {
          const nameNode = propertyValueNode(child, 'name');
          return nameNode?.value === data.name;
        });
        if (index === -1 || position === undefined || position < 0 || analysis.nestingLimited) break;
        const edits = modify(analysis.text, ['rules', position], undefined, { formattingOptions: detectFormatting(analysis.text) });
        actions.push(fix(`Remove unused rule "${data.name}"`, uri, diagnostic, toTextEdits(analysis, edits)));
        break;
      }
    }
  }
  return actions;
}
