/**
 * JSON in words, for messages: what type a value is ("an object", "null") and what jsonc-parser's
 * errors mean. Quota files are JSONC, state files strict JSON: each has its own wording of an error.
 */
import * as l10n from '@vscode/l10n';

/** A JSON (Schema) type, in words: "a string", "an integer"; a name it does not know, as it is. */
export function typeName(type: string): string {
  switch (type) {
    case 'string':
      return l10n.t('a string');
    case 'boolean':
      return l10n.t('a boolean');
    case 'object':
      return l10n.t('an object');
    case 'array':
      return l10n.t('an array');
    case 'number':
      return l10n.t('a number');
    case 'integer':
      return l10n.t('an integer');
    default:
      return type;
  }
}

/** What a parsed value is, in words: "an array", "an integer", "null". */
export function valueTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return typeName('array');
  switch (typeof value) {
    case 'number':
      return typeName(Number.isInteger(value) ? 'integer' : 'number');
    case 'object':
    case 'string':
    case 'boolean':
      return typeName(typeof value);
    default:
      return l10n.t('a {0}', typeof value);
  }
}

/** jsonc-parser's error `code` (printParseErrorCode) in words, as quota files (JSONC) or state files (JSON) say it. */
export function parseErrorWords(code: string, dialect: 'jsonc' | 'json'): string {
  const jsonc = dialect === 'jsonc';
  switch (code) {
    case 'InvalidSymbol':
      return l10n.t('unexpected character');
    case 'InvalidNumberFormat':
      return l10n.t('invalid number');
    case 'PropertyNameExpected':
      return jsonc ? l10n.t('a property name in double quotes is expected') : l10n.t('property name expected');
    case 'ValueExpected':
      return jsonc ? l10n.t('a value is expected') : l10n.t('value expected');
    case 'ColonExpected':
      return jsonc ? l10n.t('a colon is expected after the property name') : l10n.t('colon expected');
    case 'CommaExpected':
      return jsonc ? l10n.t('a comma is expected') : l10n.t('comma expected');
    case 'CloseBraceExpected':
      return jsonc ? l10n.t('a closing brace } is expected') : l10n.t('closing brace expected');
    case 'CloseBracketExpected':
      return jsonc ? l10n.t('a closing bracket ] is expected') : l10n.t('closing bracket expected');
    case 'EndOfFileExpected':
      return jsonc ? l10n.t('the file should end here') : l10n.t('end of file expected');
    case 'InvalidCommentToken':
      return jsonc ? l10n.t('invalid comment') : l10n.t('comments are not allowed in JSON');
    case 'UnexpectedEndOfComment':
      return jsonc ? l10n.t('the comment is not closed') : l10n.t('unterminated comment');
    case 'UnexpectedEndOfString':
      return jsonc ? l10n.t('the string is not closed') : l10n.t('unterminated string');
    case 'UnexpectedEndOfNumber':
      return jsonc ? l10n.t('the number is incomplete') : l10n.t('unterminated number');
    case 'InvalidUnicode':
      return l10n.t('invalid unicode escape');
    case 'InvalidEscapeCharacter':
      return l10n.t('invalid escape character');
    case 'InvalidCharacter':
      return l10n.t('invalid character in string');
    default:
      return code;
  }
}
