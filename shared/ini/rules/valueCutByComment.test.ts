import { APP_INI_RULE_SPEC, describeRule } from '../../../test/helpers/ruleSpec';

describeRule(APP_INI_RULE_SPEC, 'value-cut-by-comment', [
  {
    name: 'a ";" glued to a value: the fix wraps value and comment in backticks',
    text: `[quota]
DEFAULT_GROUPS = free;pro // want "\\";\\" starts a comment: Forgejo reads DEFAULT_GROUPS as \\"free\\" and ignores \\";pro\\"" fix="Wrap the value in backticks"`,
    fixed: `[quota]
DEFAULT_GROUPS = \`free;pro\``,
  },
  {
    name: 'a "#" does the same',
    text: `[quota]
DEFAULT_GROUPS = team#1 // want "\\"#\\" starts a comment" fix="Wrap the value in backticks"`,
    fixed: `[quota]
DEFAULT_GROUPS = \`team#1\``,
  },
  {
    name: 'a value holding a backtick cannot be wrapped in backticks: no fix',
    text: `[quota]
DEFAULT_GROUPS = a\`b;c // want "starts a comment"`,
  },
  {
    name: 'a comment after a space, a backtick value, an empty value and other sections are fine',
    text: `[quota]
DEFAULT_GROUPS = free ; paid later
DEFAULT_GROUPS = \`free;pro\`
ENABLED =;comment
[server]
DOMAIN = forge;example`,
  },
]);
