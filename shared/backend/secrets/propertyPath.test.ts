import { strict as assert } from 'node:assert';
import { formatPropertyPath, parsePropertyPath, PropertyPathError } from './propertyPath';

describe("property paths as Pulumi's properties_path.go reads and writes them", () => {
  // TestPropertyPath's cases (sdk/go/common/resource/properties_path_test.go): the text, the path, how String() writes it.
  const cases: Array<[string, Array<string | number>, string]> = [
    ['root', ['root'], 'root'],
    ['root.nested', ['root', 'nested'], 'root.nested'],
    ['root["nested"]', ['root', 'nested'], 'root.nested'],
    ['root["double"]["nest"]', ['root', 'double', 'nest'], 'root.double.nest'],
    ['root.array[0]', ['root', 'array', 0], 'root.array[0]'],
    ['root.array2[0][1].nested', ['root', 'array2', 0, 1, 'nested'], 'root.array2[0][1].nested'],
    ['root["key with \\"escaped\\" quotes"]', ['root', 'key with "escaped" quotes'], 'root["key with \\"escaped\\" quotes"]'],
    ['root["key with a ."]', ['root', 'key with a .'], 'root["key with a ."]'],
    ['["root key with a ."][1]', ['root key with a .', 1], '["root key with a ."][1]'],
    ['root.array.[1]', ['root', 'array', 1], 'root.array[1]'],
    ['root.["key with a ."]', ['root', 'key with a .'], 'root["key with a ."]'],
    // The three forms.
    ['outputs.dbPassword', ['outputs', 'dbPassword'], 'outputs.dbPassword'],
    ['inputs.tags["a.b"]', ['inputs', 'tags', 'a.b'], 'inputs.tags["a.b"]'],
    ['outputs.list[0]', ['outputs', 'list', 0], 'outputs.list[0]'],
    // TestParsePropertyPathStrictAcceptsBareSpecialChars: a bare name runs to the next `.` or `[`; String() quotes it.
    ['root.foo-bar', ['root', 'foo-bar'], 'root["foo-bar"]'],
    ['foo:bar', ['foo:bar'], '["foo:bar"]'],
    ['root."double".nest', ['root', '"double"', 'nest'], 'root["\\"double\\""].nest'],
    ['a..b', ['a', 'b'], 'a.b'],
    ['a[+1]', ['a', 1], 'a[1]'],
    ['a[*].b', ['a', '*', 'b'], 'a["*"].b'],
    ['', [], ''],
    ['a[""]', ['a', ''], 'a[""]'],
  ];
  for (const [text, path, printed] of cases) {
    it(`${JSON.stringify(text)} is ${JSON.stringify(path)}, written ${printed}`, () => {
      assert.deepEqual(parsePropertyPath(text), path);
      assert.equal(formatPropertyPath(path), printed);
      assert.deepEqual(parsePropertyPath(printed), path, 'what it writes parses back');
    });
  }

  const refused: Array<[string, string]> = [
    ['root[', 'missing closing bracket in array index'],
    ['root["nested]', 'missing closing quote in property name'],
    ['root["nested"', 'missing closing bracket in property access'],
    ['root.array[abc]', 'invalid array index: strconv.ParseInt: parsing "abc": invalid syntax'],
    ['root.', 'expected property path to end with a name or index'],
    ['.root', 'expected property path to start with a name or index'],
    ['a[99999999999999999999]', 'invalid array index: strconv.ParseInt: parsing "99999999999999999999": value out of range'],
  ];
  for (const [text, message] of refused) {
    it(`refuses ${JSON.stringify(text)}: ${message}`, () => {
      assert.throws(
        () => parsePropertyPath(text),
        (error: unknown) => error instanceof PropertyPathError && error.message === message,
      );
    });
  }
});
