import { strict as assert } from 'node:assert';
import { goParseQuery, goParseUrl, GoUrlError, NotUtf8Error, valuesGet, type GoUrl } from './goUrl';

/**
 * Go's `url.ParseQuery` (through `URL.Query`, which keeps the values and drops the error): most
 * rows are TestParseQuery's of net/url's url_test.go, the values Go returns beside its error.
 */
const queries: Array<[string, Array<[string, string[]]>]> = [
  ['a=1', [['a', ['1']]]],
  [
    'a=1&b=2',
    [
      ['a', ['1']],
      ['b', ['2']],
    ],
  ],
  ['a=1&a=2&a=banana', [['a', ['1', '2', 'banana']]]],
  ['ascii=%3Ckey%3A+0x90%3E', [['ascii', ['<key: 0x90>']]]],
  // A pair holding a semicolon is an error in Go since 1.17: the pair is dropped, the others kept.
  ['a=1;b=2', []],
  ['a;b=1', []],
  ['a=%3B', [['a', [';']]]],
  ['a%3Bb=1', [['a;b', ['1']]]],
  ['a=1&a=2;a=banana', [['a', ['1']]]],
  ['a;b&c=1', [['c', ['1']]]],
  [
    'a=1&b=2;a=3&c=4',
    [
      ['a', ['1']],
      ['c', ['4']],
    ],
  ],
  ['a=1&b=2;c=3', [['a', ['1']]]],
  [';', []],
  ['a=1;', []],
  ['a=1&;', [['a', ['1']]]],
  [';a=1&b=2', [['b', ['2']]]],
  ['a=1&b=2;', [['a', ['1']]]],
  // `+` is a space in a query component; %2B is a plus.
  ['a+b=c+d', [['a b', ['c d']]]],
  [
    'plus=%2B&space=%20',
    [
      ['plus', ['+']],
      ['space', [' ']],
    ],
  ],
  // No `=`: the key with an empty value; empty pairs are skipped; only the first `=` splits.
  ['flag', [['flag', ['']]]],
  ['&&a=1&', [['a', ['1']]]],
  ['a==b', [['a', ['=b']]]],
  ['=x', [['', ['x']]]],
  // A bad escape drops its pair (Go: `invalid URL escape`), in the key or the value.
  ['a=%zz&b=1', [['b', ['1']]]],
  ['a=%&b=%4&c=%41', [['c', ['A']]]],
  ['%zz=1&d=2', [['d', ['2']]]],
  // Upper and lower case hex, and UTF-8 through escapes.
  ['e=%c3%a9%C3%A9', [['e', ['éé']]]],
  ['é=ü', [['é', ['ü']]]],
  ['', []],
];

/** Go's `url.Parse`, on the fields the port keeps; Go's texts in its errors (without its `parse "…": ` prefix). */
const urls: Array<[string, Partial<GoUrl> | RegExp]> = [
  ['s3://bucket/team/state?region=eu-west-1', { scheme: 's3', opaque: '', host: 'bucket', path: '/team/state', rawQuery: 'region=eu-west-1' }],
  ['http://www.google.com', { scheme: 'http', host: 'www.google.com', path: '' }],
  ['http://www.google.com/', { scheme: 'http', host: 'www.google.com', path: '/' }],
  ['http://www.google.com/file%20one%26two', { host: 'www.google.com', path: '/file one&two' }],
  ['http://user:password@google.com', { host: 'google.com', path: '' }],
  ['http://www.google.com/?q=go+language', { path: '/', rawQuery: 'q=go+language' }],
  ['http://www.google.com/?', { path: '/', rawQuery: '' }],
  ['http://x/?a=1?b=2', { path: '/', rawQuery: 'a=1?b=2' }],
  ['HTTP://X.example/', { scheme: 'http', host: 'X.example', path: '/' }],
  ['mailto:/webmaster@golang.org', { scheme: 'mailto', host: '', path: '/webmaster@golang.org' }],
  ['mailto:webmaster@golang.org', { scheme: 'mailto', opaque: 'webmaster@golang.org', path: '' }],
  ['s3:bucket?region=x', { scheme: 's3', opaque: 'bucket', host: '', rawQuery: 'region=x' }],
  ['/foo?query=http://bad', { scheme: '', path: '/foo', rawQuery: 'query=http://bad' }],
  ['//foo', { scheme: '', host: 'foo', path: '' }],
  ['///threeslashes', { scheme: '', host: '', path: '///threeslashes' }],
  ['http://[fe80::1%25en0]/', { host: '[fe80::1%en0]', path: '/' }],
  ['http://[fe80::1%25%65%6e%301-._~]:8080/', { host: '[fe80::1%en01-._~]:8080' }],
  ['http://[::1]:8080/', { host: '[::1]:8080' }],
  ['http://host:8080/', { host: 'host:8080' }],
  ['s3://a:b:9000/', { host: 'a:b:9000' }],
  ['http://x/%zz#frag', /^invalid URL escape "%zz"$/],
  ['http://x/#%zz', /^invalid URL escape "%zz"$/],
  ['http://x/a%', /^invalid URL escape "%"$/],
  ['http://x/123%45%6', /^invalid URL escape "%6"$/],
  ['http://%41:8080/', /^invalid URL escape "%41"$/],
  ['http://a b.com/', /^invalid character " " in host name$/],
  ['http://x:abc/', /^invalid port ":abc" after host$/],
  ['http://a:b:9000/', /^invalid port ":b:9000" after host$/],
  ['http://[::1]a/', /^invalid port "a" after host$/],
  ['http://[::1/', /^missing '\]' in host$/],
  ['http://x[::1]/', /^invalid IP-literal$/],
  ['http://[192.168.0.1]/', /^invalid IP-literal$/],
  // Go's netip.ParseAddr says why in more words; the port says only that it is none.
  ['http://[fe80::1::2]/', /^invalid host: ParseAddr\("fe80::1::2"\): not an IPv6 address$/],
  ['http://us er@x/', /^net\/url: invalid userinfo$/],
  ['http://x\n/', /^net\/url: invalid control character in URL$/],
  [':foo', /^missing protocol scheme$/],
  ['1http://x', /^first path segment in URL cannot contain colon$/],
];

describe("Go's net/url: url.ParseQuery", () => {
  for (const [query, expected] of queries) {
    it(JSON.stringify(query), () => {
      assert.deepEqual([...goParseQuery(query)], expected);
    });
  }

  it('no more than 10000 pairs: past that, no values at all', () => {
    assert.equal(goParseQuery(Array.from({ length: 10_000 }, (_, i) => `k${i}=v`).join('&')).size, 10_000);
    assert.equal(goParseQuery(Array.from({ length: 10_001 }, (_, i) => `k${i}=v`).join('&')).size, 0);
  });

  it('bytes that are not UTF-8 are refused (Go keeps them; S3 keys and headers cannot carry them)', () => {
    assert.throws(() => goParseQuery('a=%ff'), NotUtf8Error);
  });

  it("Values.Get: a key's first value, or ''", () => {
    const values = goParseQuery('a=1&a=2&b=');
    assert.equal(valuesGet(values, 'a'), '1');
    assert.equal(valuesGet(values, 'b'), '');
    assert.equal(valuesGet(values, 'c'), '');
  });
});

describe("Go's net/url: url.Parse", () => {
  for (const [raw, expected] of urls) {
    it(JSON.stringify(raw), () => {
      if (expected instanceof RegExp) {
        assert.throws(
          () => goParseUrl(raw),
          (error: unknown) => error instanceof GoUrlError && expected.test(error.message),
        );
        return;
      }
      const parsed = goParseUrl(raw);
      assert.deepEqual(Object.fromEntries(Object.keys(expected).map((key) => [key, parsed[key as keyof GoUrl]])), expected);
    });
  }

  it('a path that percent-decodes to bytes that are not UTF-8 is refused', () => {
    assert.throws(() => goParseUrl('s3://b/%ff'), NotUtf8Error);
  });
});
