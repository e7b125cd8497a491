import { APP_INI_RULE_SPEC, describeRule } from '../../../test/helpers/ruleSpec';

describeRule(APP_INI_RULE_SPEC, 'ini-syntax', [
  {
    name: 'a line without "=" stops Forgejo, wherever it is',
    text: `[server]
DOMAIN forge.example // want "has no \\"=\\" (Forgejo reads key = value lines only). go-ini refuses the whole file"
[quota]
ENABLED = true`,
  },
  {
    name: 'broken section headers: unclosed and empty',
    text: `[quota // want "unclosed section"
ENABLED = true
[] // want "empty section name"`,
  },
  {
    name: 'a value without a key, and quoted keys that are not closed or are empty',
    text: `[quota]
= orphan // want "a value without a key name"
\`ENABLED = true // want "missing closing quote of the key name"
"" = 1 // want "empty key name"`,
  },
  {
    name: 'a backtick value never closed: go-ini reads to the end of the file looking for it',
    text: `[quota]
DEFAULT_GROUPS = \`free, // want "the value opened with \` is never closed"
pro
ENABLED true`,
  },
  {
    name: 'comments, blank lines, ":" as delimiter, empty values and closed multi-line values are all fine',
    text: `; a comment
   # an indented comment

[quota]
ENABLED: true
DEFAULT_GROUPS =
"TOTAL" = 5
[server]
DESCRIPTION = """a value
over two lines"""`,
  },
]);
