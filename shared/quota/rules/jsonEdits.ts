/** Edits that append an item to one of the file's top-level arrays, formatted like the file: the "Create rule/group" fixes share them. */
import { modify, type Edit, type JSONPath } from 'jsonc-parser';
import type { TextEdit } from '../../edits';
import { detectFormatting } from '../../json/indentation';
import { propertyValueNode } from '../../json/jsoncTree';
import type { QuotaAnalysis } from '../analysis';

/** jsonc-parser's edits as the project's edit shape. */
export function toTextEdits(edits: Edit[]): TextEdit[] {
  return edits.map((e) => ({ offset: e.offset, length: e.length, newText: e.content }));
}

/** Appends `value` to the array at `key` (creating the array when missing), formatted like the file. */
export function appendTo(analysis: QuotaAnalysis, key: string, value: unknown): TextEdit[] {
  const array = analysis.root ? propertyValueNode(analysis.root, key) : undefined;
  const length = array?.type === 'array' ? (array.children?.length ?? 0) : -1;
  const path: JSONPath = length >= 0 ? [key, length] : [key];
  const edits = modify(analysis.text, path, length >= 0 ? value : [value], {
    formattingOptions: detectFormatting(analysis.text),
    isArrayInsertion: length >= 0,
  });
  return toTextEdits(edits);
}
