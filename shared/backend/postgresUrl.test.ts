/**
 * `postgres://` URLs as Pulumi v3.274.1 (diy/postgres/bucket.go, diy/backend.go) and lib/pq v1.12.3
 * (connector.go: newConfig, fromEnv, convertURL, setFromTag) read them: each row cites the rule.
 */
import { strict as assert } from 'node:assert';
import { isPostgresUrl, parsePostgresBackendUrl, PostgresUrlError, type PostgresBackendUrl } from './postgresUrl';

type Env = Record<string, string>;

/** The parsed URL with the password read out (it is a function, so that it never serializes). */
function read(url: string, env: Env = {}) {
  const parsed = parsePostgresBackendUrl(url, env);
  const { password, ...connection } = parsed.connection;
  return { ...parsed, connection, password: password?.() };
}

const cases: Array<[string, string, Env, Partial<Omit<ReturnType<typeof read>, 'connection'>> & { connection?: Partial<PostgresBackendUrl['connection']> }]> = [
  [
    'the documented form: user, password, host, port, database; the path prefixes every key (newDIYBackend)',
    'postgres://u:p@db.example:5433/dbg?sslmode=disable',
    {},
    {
      shown: 'postgres://u@db.example:5433/dbg?sslmode=disable',
      table: 'pulumi_state',
      prefix: 'dbg/',
      password: 'p',
      connection: { host: 'db.example', port: 5433, database: 'dbg', user: 'u', sslMode: 'disable' },
    },
  ],
  ["sslmode defaults to require (lib/pq), not libpq's prefer", 'postgres://u@h/dbg', {}, { connection: { host: 'h', port: 5432, sslMode: 'require' } }],
  [
    'postgres:///DB takes the rest from PG* (the path is the key prefix, PGDATABASE is not)',
    'postgres:///dbg',
    { PGHOST: 'envhost', PGPORT: '6543', PGUSER: 'envuser', PGPASSWORD: 'envpw', PGDATABASE: 'envdb', PGSSLMODE: 'verify-full' },
    { prefix: 'dbg/', password: 'envpw', connection: { host: 'envhost', port: 6543, user: 'envuser', database: 'dbg', sslMode: 'verify-full' } },
  ],
  [
    'postgres://@ (an empty user) reaches lib/pq as a URL: all from PG*, no key prefix',
    'postgres://@',
    { PGHOST: 'envhost', PGUSER: 'envuser', PGDATABASE: 'envdb' },
    { prefix: '', connection: { host: 'envhost', user: 'envuser', database: 'envdb' } },
  ],
  [
    'the URL wins over PG*',
    'postgres://u@h:1/d?sslmode=disable',
    { PGHOST: 'x', PGPORT: '2', PGUSER: 'y', PGDATABASE: 'z', PGSSLMODE: 'require' },
    { connection: { host: 'h', port: 1, user: 'u', database: 'd', sslMode: 'disable' } },
  ],
  ['an empty value is dropped by convertURL: the default stays', 'postgres://h/d?sslmode=&user=', { PGUSER: 'envuser' }, { connection: { sslMode: 'require', user: 'envuser' } }],
  [
    'table= is taken out (first value) and names the table',
    'postgres://h/d?table=state_a&table=state_b&sslmode=disable',
    {},
    { table: 'state_a', shown: 'postgres://h/d?table=state_a&table=state_b&sslmode=disable' },
  ],
  // Go's ParseQuery drops a pair holding a raw ';' (Go 1.17 and later): that table= is not there at all.
  ['a table= pair with a raw semicolon is dropped by Go', 'postgres://h/d?table=x;y', {}, { table: 'pulumi_state' }],
  ['an empty table= is the default', 'postgres://h/d?table=', {}, { table: 'pulumi_state' }],
  ['a schema-qualified table', 'postgres://h/d?table=pulumi.state', {}, { table: 'pulumi.state' }],
  // convertURL sorts the key='value' pairs: of user='a' and user='b', the later (b) is read last and wins.
  ['two values for a key: the pair that sorts last wins (user info a, query b)', 'postgres://a@h/d?user=b', {}, { connection: { user: 'b' } }],
  ['two values for a key: the pair that sorts last wins (user info b, query a)', 'postgres://b@h/d?user=a', {}, { connection: { user: 'b' } }],
  ['dbname= in the query against the path: sorted too; the key prefix stays the path', 'postgres://h/aaa?dbname=zzz', {}, { prefix: 'aaa/', connection: { database: 'zzz' } }],
  ['database= is dbname', 'postgres://h?database=other', {}, { prefix: '', connection: { database: 'other' } }],
  ['a trailing slash: lib/pq asks for database "dbg/", the prefix is dbg/', 'postgres://h/dbg/', {}, { prefix: 'dbg/', connection: { database: 'dbg/' } }],
  ['a deeper path is one database name and one prefix', 'postgres://h//a/b', {}, { prefix: 'a/b/', connection: { database: '/a/b' } }],
  [
    'percent-escapes in the user info, an @ in the password (Go splits at the last @)',
    'postgres://us%40er:p@ss%2Fw@h/d',
    {},
    { shown: 'postgres://us%40er@h/d', password: 'p@ss/w', connection: { user: 'us@er' } },
  ],
  ['a password in the query is read and never shown', 'postgres://u@h/d?password=qpw&sslmode=disable&PassWord=x', {}, { shown: 'postgres://u@h/d?sslmode=disable', password: 'qpw' }],
  ['a host in the query sorts against the one of the URL: h wins over a', 'postgres://h/d?host=a', {}, { connection: { host: 'h' } }],
  ['an IPv6 host with a port', 'postgres://u@[::1]:5555/d', {}, { connection: { host: '::1', port: 5555 } }],
  ['the scheme in capitals: Go lowercases it', 'POSTGRES://u@h/d', {}, { connection: { host: 'h' } }],
  ['a Unix socket folder: no TLS there (lib/pq)', 'postgres:///d?host=/var/run/postgresql', {}, { connection: { host: '/var/run/postgresql', sslMode: 'disable' } }],
  [
    'an unknown key is a run-time parameter sent at startup',
    'postgres://h/d?search_path=pulumi,public&options=-c%20work_mem=64kB',
    {},
    { connection: { options: '-c work_mem=64kB -c search_path=pulumi,public' } },
  ],
  [
    'a run-time value with a space is escaped for the options packet',
    'postgres://h/d?application_name=me&TimeZone=Europe%2FBerlin%20x',
    {},
    { connection: { applicationName: 'me', options: '-c TimeZone=Europe/Berlin\\ x' } },
  ],
  ['sslrootcert=system makes verify-full the default', 'postgres://h/d?sslrootcert=system', {}, { connection: { sslMode: 'verify-full', sslRootCert: 'system' } }],
  ['connect_timeout in seconds; 0 is none', 'postgres://h/d?connect_timeout=7', {}, { connection: { connectTimeoutSeconds: 7 } }],
  ['settings without effect here are named', 'postgres://h/d?target_session_attrs=read-write&tz=UTC&geqo=on', {}, { ignored: ['target_session_attrs', 'tz', 'geqo'] }],
];

const refusals: Array<[string, string, Env, RegExp]> = [
  // Seen with the real v3.274.1: "failed to ping PostgreSQL: missing "=" after "postgres:" in connection info string".
  ['a bare postgres:// (Go writes it back as postgres:, which lib/pq cannot read)', 'postgres://', { PGHOST: 'h' }, /Pulumi cannot open a postgres:\/\/ URL without a host, a database or a user/],
  ['a bare postgres:// with a query', 'postgres://?sslmode=disable', { PGHOST: 'h' }, /without a host, a database or a user/],
  ['postgresql:// is not a scheme Pulumi registers', 'postgresql://u@h/d', {}, /not a postgres:\/\/ URL/],
  [
    'an sslmode lib/pq does not know',
    'postgres://h/d?sslmode=on',
    {},
    /wrong value for "sslmode": "on" is not supported; supported values are disable, allow, prefer, require, verify-full, verify-ca/,
  ],
  ['a PGSSLMODE lib/pq does not know', 'postgres://h/d', { PGSSLMODE: 'yes' }, /wrong value for "sslmode": "yes"/],
  ['a port that is not one', 'postgres://h/d?port=99999', {}, /wrong value for "port": "99999" is not a port number/],
  ['a variable lib/pq refuses (Pulumi fails with it set)', 'postgres://h/d', { PGREQUIRESSL: '1' }, /environment variable PGREQUIRESSL is set, and Pulumi \(lib\/pq\) refuses/],
  ['a weak sslmode with sslrootcert=system', 'postgres://h/d?sslrootcert=system&sslmode=require', {}, /weak sslmode "require" may not be used with sslrootcert=system/],
  ['a table name that would change the SQL', 'postgres://h/d?table=x%3Bdrop%20table%20y', {}, /table "x;drop table y" is not a plain table name/],
  ['several hosts', 'postgres:///d?host=a,b', {}, /several hosts or ports/],
  ['a service file', 'postgres://h/d?service=prod', {}, /does not read ~\/\.pg_service\.conf/],
  ['client_encoding other than UTF8', 'postgres://h/d?client_encoding=LATIN1', {}, /unsupported client_encoding "LATIN1"/],
  ['a URL Go cannot parse, the password kept out', 'postgres://u:secret@h:port/d', {}, /^postgres:\/\/u@h:port\/d: not a URL Pulumi can read: /],
];

describe('parsePostgresBackendUrl: postgres:// as Pulumi and lib/pq read it', () => {
  for (const [what, url, env, expected] of cases) {
    it(what, () => {
      const { connection, ...rest } = read(url, env);
      const { connection: expectedConnection, ...expectedRest } = expected;
      for (const [key, value] of Object.entries(expectedRest)) assert.deepEqual(rest[key as keyof typeof rest], value, key);
      for (const [key, value] of Object.entries(expectedConnection ?? {})) assert.deepEqual(connection[key as keyof typeof connection], value, `connection.${key}`);
    });
  }
  for (const [what, url, env, message] of refusals) {
    it(`refused: ${what}`, () => {
      assert.throws(
        () => parsePostgresBackendUrl(url, env),
        (error: Error) => error instanceof PostgresUrlError && message.test(error.message) && !/secret/.test(error.message),
      );
    });
  }

  it('the password never serializes: JSON of the parsed URL holds no secret', () => {
    const parsed = parsePostgresBackendUrl('postgres://u:hunter2@h/d?password=qpw', { PGPASSWORD: 'envpw' });
    assert.doesNotMatch(JSON.stringify(parsed), /hunter2|qpw|envpw/);
    assert.equal(parsed.connection.password?.(), 'qpw', 'the query pair sorts after the user info one');
  });

  it('isPostgresUrl: the postgres scheme in any case, nothing else', () => {
    assert.deepEqual(['postgres://h/d', 'POSTGRES://h', 'postgresql://h/d', 's3://b', 'file:///x'].map(isPostgresUrl), [true, true, false, false, false]);
  });
});
