import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Database, openDatabase } from '../src/db/index.js';
import {
  ASYNC_COMMIT,
  COMMITS_WITH_IT,
  namedStatementPool,
  PLAN_EACH_TIME,
} from '../src/db/pg-statements.js';
import type { DB } from '../src/db/schema.js';
import { createPgSchema, dialects, withSchemaChangeLock } from './helpers.js';

// db/pg-statements.ts: statements with parameters run as named prepared statements on PostgreSQL.
describe.skipIf(!dialects.includes('postgres'))('prepared statements (postgres)', () => {
  const url = process.env.TEST_DATABASE_URL!;
  let schema: { schema: string; drop: () => Promise<void> };
  let database: Database;
  let db: Kysely<DB>;
  /**
   * Another process's connection (a rolling deploy's newer build), changing the schema; under the
   * lock other test files' migrators take (they list every schema's tables).
   */
  const otherProcess = (statement: string) =>
    withSchemaChangeLock(async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`set search_path = ${schema.schema}`);
        await c.query(statement);
      } finally {
        await c.end();
      }
    });
  const prepared = async () =>
    (
      await sql<{
        statement: string;
      }>`select statement from pg_prepared_statements order by statement`.execute(db)
    ).rows.map((r) => r.statement);

  /**
   * A one-connection pipelining pool whose connection is watched: `asked` sees each query's text as
   * the connection is asked it; `connected` gets the connection once, to watch its socket.
   */
  const watchedPool = (
    asked: (text: string) => void,
    connected: (connection: pg.Connection & { stream: NodeJS.WritableStream }) => void,
  ) => {
    const pool = new pg.Pool({
      connectionString: url,
      max: 1,
      pipeline: true,
      options: `-c search_path=${schema.schema}`,
    });
    const connect = pool.connect.bind(pool);
    const seen = new WeakSet<object>();
    (pool as unknown as { connect: () => Promise<pg.PoolClient> }).connect = async () => {
      const client = await connect();
      if (!seen.has(client)) {
        seen.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
        (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
          const config = args[0] as string | { text: string };
          asked(typeof config === 'string' ? config : config.text);
          return query(...args);
        };
        connected(
          (client as unknown as { connection: pg.Connection & { stream: NodeJS.WritableStream } }).connection,
        );
      }
      return client;
    };
    return pool;
  };

  /** Calls `counted` on each of the socket's own writes (a corked stream hands them over as one writev). */
  const onSocketWrite = (connection: { stream: NodeJS.WritableStream }, counted: () => void) => {
    const socket = connection.stream as unknown as Record<
      '_write' | '_writev',
      (...args: unknown[]) => unknown
    >;
    for (const method of ['_write', '_writev'] as const) {
      const original = socket[method]!.bind(socket);
      socket[method] = (...args: unknown[]) => {
        counted();
        return original(...args);
      };
    }
  };

  beforeAll(async () => {
    schema = await createPgSchema();
    // One connection: every query below runs on the same one, so its prepared statements are seen.
    database = await openDatabase({ databaseUrl: url, pgSchema: schema.schema, poolSize: 1 });
    db = database.db;
    await otherProcess('create table items (id int primary key, name text not null)');
    await otherProcess(`insert into items values (1, 'a'), (2, 'b')`);
  });
  afterAll(async () => {
    await database?.close();
    await schema?.drop();
  });

  it('prepares a statement with parameters once per connection and reuses it; others run unnamed', async () => {
    for (const id of [1, 2, 1]) {
      const { rows } = await sql<{ name: string }>`select name from items where id = ${id}`.execute(db);
      expect(rows).toHaveLength(1);
    }
    await sql`select count(*) from items`.execute(db);
    expect(await prepared()).toEqual(['select name from items where id = $1']);
  });

  it('a statement marked PLAN_EACH_TIME runs unnamed (planned for its values every time)', async () => {
    const before = await prepared();
    for (const id of [1, 2, 1, 2, 1, 2, 1])
      await sql`${sql.raw(PLAN_EACH_TIME)} select name from items where id = ${id}`.execute(db);
    expect(await prepared()).toEqual(before);
  });

  it('a column added by another process: a query outside a transaction is prepared again and answers with it', async () => {
    const read = () => sql`select * from items where id = ${1}`.execute(db);
    expect((await read()).rows).toEqual([{ id: 1, name: 'a' }]);
    await otherProcess(`alter table items add column note text not null default 'x'`);
    expect((await read()).rows).toEqual([{ id: 1, name: 'a', note: 'x' }]);
  });

  it('inside a transaction the caller gets the error once; the next use is prepared anew', async () => {
    const read = (d: Kysely<DB>) => sql`select *, 1 as one from items where id = ${2}`.execute(d);
    expect((await read(db)).rows).toEqual([{ id: 2, name: 'b', note: 'x', one: 1 }]);
    await otherProcess(`alter table items add column extra int not null default 7`);
    await expect(db.transaction().execute((trx) => read(trx))).rejects.toThrow(
      /cached plan must not change result type/,
    );
    expect((await db.transaction().execute((trx) => read(trx))).rows).toEqual([
      { id: 2, name: 'b', note: 'x', extra: 7, one: 1 },
    ]);
  });

  it("a transaction's begin is written with its first statement, before its answer; one that runs nothing sends nothing", async () => {
    // What the connection is asked, in order; and on its socket, how many answers had come back
    // since the begin was written when the first statement was written after it.
    const written: string[] = [];
    let answersAfterBegin: number | undefined;
    let statementWrittenAfter: number | undefined;
    const pool = watchedPool(
      (text) => written.push(text),
      (connection) => {
        // Before pg's own listener, which writes the next query at once when not pipelining.
        connection.prependListener('readyForQuery', () => {
          if (answersAfterBegin !== undefined) answersAfterBegin += 1;
        });
        const write = connection.stream.write.bind(connection.stream) as (...args: unknown[]) => boolean;
        connection.stream.write = ((chunk: unknown, ...rest: unknown[]) => {
          const bytes = Buffer.isBuffer(chunk) ? chunk.toString('latin1') : String(chunk);
          if (/begin[;\0]/.test(bytes)) answersAfterBegin = 0;
          if (/insert into items|current_setting/.test(bytes) && statementWrittenAfter === undefined)
            statementWrittenAfter = answersAfterBegin;
          return write(chunk, ...rest);
        }) as typeof connection.stream.write;
      },
    );
    const own = new Kysely<DB>({ dialect: new PostgresDialect({ pool: namedStatementPool(pool) }) });
    try {
      const insert = (d: Kysely<DB>, id: number) =>
        sql`insert into items (id, name) values (${id}, 'held')`.execute(d);
      const ids = async () =>
        (
          await sql<{ id: number }>`select id from items where name = 'held' order by id`.execute(own)
        ).rows.map((r) => r.id);

      await own.transaction().execute(async (trx) => {
        await insert(trx, 10);
        await insert(trx, 11);
      });
      expect(written).toEqual([
        'begin',
        "insert into items (id, name) values ($1, 'held')",
        "insert into items (id, name) values ($1, 'held')",
        'commit',
      ]);
      // The first statement went out before the begin's answer came back: one round trip for both.
      expect(statementWrittenAfter).toBe(0);
      expect(await ids()).toEqual([10, 11]);

      // Rolled back, it was a transaction all along: nothing of it stays.
      written.length = 0;
      await expect(
        own.transaction().execute(async (trx) => {
          await insert(trx, 12);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      await expect(
        own.transaction().execute(async (trx) => {
          await insert(trx, 13);
          await insert(trx, 10); // a duplicate key: the transaction fails
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(await ids()).toEqual([10, 11]);
      expect(written.filter((text) => text === 'rollback')).toHaveLength(2);

      // The server's own pool pipelines too.
      const made = vi.spyOn(pg, 'Pool');
      const server = await openDatabase({ databaseUrl: url, pgSchema: schema.schema, poolSize: 1 });
      await server.close();
      expect(made.mock.calls[0]?.[0]).toMatchObject({ pipeline: true });
      made.mockRestore();

      // A transaction that runs no statement asks the connection nothing.
      written.length = 0;
      await own.transaction().execute(async () => {});
      expect(written).toEqual([]);
      // The connection is not left inside a transaction: a later write outside one stays.
      await insert(own, 14);
      expect(await ids()).toEqual([10, 11, 14]);

      // An opening with settings (the callbacks' claim) is held back the same way, and holds.
      written.length = 0;
      statementWrittenAfter = undefined;
      const setting = (conn: Kysely<DB>) =>
        sql<{ v: string }>`select current_setting(${'enable_bitmapscan'}) as v`
          .execute(conn)
          .then((r) => r.rows[0]!.v);
      const inside = await own.connection().execute(async (conn) => {
        await sql.raw('begin; set local enable_bitmapscan = off').execute(conn);
        const v = await setting(conn);
        await sql.raw('commit').execute(conn);
        return v;
      });
      expect(inside).toBe('off');
      expect(statementWrittenAfter).toBe(0);
      expect(written).toEqual([
        'begin; set local enable_bitmapscan = off',
        'select current_setting($1) as v',
        'commit',
      ]);
      expect(await setting(own)).toBe('on');

      // A connection given back with its begin still held (nothing ran, nothing ended it) starts
      // clean for its next user: that one's statement is its own transaction.
      await own.connection().execute(async (conn) => {
        await sql.raw('begin').execute(conn);
      });
      written.length = 0;
      await insert(own, 15);
      expect(written).toEqual(["insert into items (id, name) values ($1, 'held')"]);
      const alone = await sql<{ own: boolean }>`select now() = statement_timestamp() as own`.execute(own);
      expect(alone.rows[0]!.own).toBe(true);
    } finally {
      await own.destroy();
    }
  });

  it('what a transaction writes at once leaves in one write to the socket: begin with its first statement, a statement with its commit', async () => {
    let socketWrites = 0;
    const pool = watchedPool(
      () => {},
      (connection) =>
        onSocketWrite(connection, () => {
          socketWrites += 1;
        }),
    );
    const own = new Kysely<DB>({ dialect: new PostgresDialect({ pool: namedStatementPool(pool) }) });
    const insert = (d: Kysely<DB>, id: number, mark = '') =>
      sql`insert into items (id, name) values (${id}, 'corked') ${sql.raw(mark)}`.execute(d);
    const writesOf = async (work: () => Promise<unknown>) => {
      await sql`select 1`.execute(own); // connected, and its plans' round due
      socketWrites = 0;
      await work();
      return socketWrites;
    };
    try {
      // begin + insert (one write), insert, commit.
      expect(
        await writesOf(() =>
          own.transaction().execute(async (trx) => {
            await insert(trx, 30);
            await insert(trx, 31);
          }),
        ),
      ).toBe(3);
      // begin + the statement + its commit: one write.
      expect(await writesOf(() => own.transaction().execute((trx) => insert(trx, 32, COMMITS_WITH_IT)))).toBe(
        1,
      );
      // begin + insert (one write), then the last statement with its commit (one write).
      expect(
        await writesOf(() =>
          own.transaction().execute(async (trx) => {
            await insert(trx, 33);
            await insert(trx, 34, COMMITS_WITH_IT);
          }),
        ),
      ).toBe(2);
      const { rows } = await sql<{
        id: number;
      }>`select id from items where name = 'corked' order by id`.execute(own);
      expect(rows.map((r) => r.id)).toEqual([30, 31, 32, 33, 34]);
    } finally {
      await own.destroy();
    }
  });

  it('a statement marked COMMITS_WITH_IT has its commit written behind it, before its answer; it must be the last', async () => {
    // What the connection is asked, in order, each with the number of answers back at that moment.
    const written: Array<[string, number]> = [];
    let answers = 0;
    const pool = watchedPool(
      (text) => written.push([text, answers]),
      (connection) => {
        connection.prependListener('readyForQuery', () => {
          answers += 1;
        });
      },
    );
    const own = new Kysely<DB>({ dialect: new PostgresDialect({ pool: namedStatementPool(pool) }) });
    const insert = (d: Kysely<DB>, id: number) =>
      sql`insert into items (id, name) values (${id}, 'ended')`.execute(d);
    const last = (d: Kysely<DB>, id: number) =>
      sql`insert into items (id, name) values (${id}, 'ended') ${sql.raw(COMMITS_WITH_IT)}`.execute(d);
    const ids = async () =>
      (
        await sql<{ id: number }>`select id from items where name = 'ended' order by id`.execute(own)
      ).rows.map((r) => r.id);
    const texts = () => written.map(([text]) => text);
    try {
      await own.transaction().execute(async (trx) => {
        await insert(trx, 20);
        await last(trx, 21);
      });
      expect(texts()).toEqual([
        'begin',
        "insert into items (id, name) values ($1, 'ended')",
        `insert into items (id, name) values ($1, 'ended') ${COMMITS_WITH_IT}`,
        'commit',
      ]);
      // The commit went out with the statement, before its answer; the transaction's end sent nothing.
      expect(written[3]![1]).toBe(written[2]![1]);
      expect(await ids()).toEqual([20, 21]);

      // The caller throwing after it undoes nothing: it committed (what it writes must carry its own
      // conditions); the rollback is not sent.
      written.length = 0;
      await expect(
        own.transaction().execute(async (trx) => {
          await last(trx, 22);
          throw new Error('too late to change my mind');
        }),
      ).rejects.toThrow('too late');
      expect(texts()).not.toContain('rollback');
      expect(await ids()).toEqual([20, 21, 22]);

      // Failing, it fails the transaction: nothing of it stays, and the caller sees the error.
      await expect(
        own.transaction().execute(async (trx) => {
          await insert(trx, 23);
          await last(trx, 20); // a duplicate key
        }),
      ).rejects.toThrow(/duplicate key/);
      expect(await ids()).toEqual([20, 21, 22]);

      // A statement after it is refused and never sent (it would run outside the transaction).
      written.length = 0;
      await expect(
        own.transaction().execute(async (trx) => {
          await last(trx, 24);
          await insert(trx, 25);
        }),
      ).rejects.toThrow(/after the one that committed its transaction/);
      expect(texts().filter((text) => !text.includes(COMMITS_WITH_IT) && text.startsWith('insert'))).toEqual(
        [],
      );
      expect(await ids()).toEqual([20, 21, 22, 24]);

      // Outside a transaction it is a statement like any other; the connection is clean afterwards.
      written.length = 0;
      await last(own, 26);
      expect(texts()).toEqual([`insert into items (id, name) values ($1, 'ended') ${COMMITS_WITH_IT}`]);
      await own
        .transaction()
        .execute(async (trx) => {
          await insert(trx, 27);
          throw new Error('rolled back');
        })
        .catch(() => {});
      expect(await ids()).toEqual([20, 21, 22, 24, 26]);
    } finally {
      await own.destroy();
    }
  });

  it('a statement marked ASYNC_COMMIT commits without waiting for its flush, in one write; inside a transaction the transaction decides', async () => {
    const written: string[] = [];
    let socketWrites = 0;
    const pool = watchedPool(
      (text) => written.push(text),
      (connection) =>
        onSocketWrite(connection, () => {
          socketWrites += 1;
        }),
    );
    const own = new Kysely<DB>({ dialect: new PostgresDialect({ pool: namedStatementPool(pool) }) });
    // The statement reports the setting its own transaction commits with.
    const relaxed = (d: Kysely<DB>, id: number) =>
      sql<{ sync: string }>`insert into items (id, name) values (${id}, 'relaxed')
        returning current_setting('synchronous_commit') as sync ${sql.raw(ASYNC_COMMIT)}`.execute(d);
    const setting = async () =>
      (await sql<{ sync: string }>`select current_setting('synchronous_commit') as sync`.execute(own))
        .rows[0]!.sync;
    const ids = async () =>
      (
        await sql<{ id: number }>`select id from items where name = 'relaxed' order by id`.execute(own)
      ).rows.map((r) => r.id);
    try {
      expect(await setting()).toBe('on');
      written.length = 0;
      socketWrites = 0;
      expect((await relaxed(own, 40)).rows).toEqual([{ sync: 'off' }]);
      expect(written).toEqual([
        'begin; set local synchronous_commit = off',
        expect.stringContaining(ASYNC_COMMIT),
        'commit',
      ]);
      expect(socketWrites).toBe(1);
      // Committed (another connection sees it), and the setting ended with its transaction.
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      try {
        const seen = await other.query(`select id from ${schema.schema}.items where id = 40`);
        expect(seen.rows).toEqual([{ id: 40 }]);
      } finally {
        await other.end();
      }
      expect(await setting()).toBe('on');

      // Failing, it writes nothing and the caller sees its error; the connection is clean after it.
      await expect(relaxed(own, 40)).rejects.toThrow(/duplicate key/);
      expect(await setting()).toBe('on');
      await relaxed(own, 41);
      expect(await ids()).toEqual([40, 41]);

      // Inside a transaction it is a statement like any other: the transaction's commit waits.
      written.length = 0;
      await own.transaction().execute(async (trx) => {
        expect((await relaxed(trx, 42)).rows).toEqual([{ sync: 'on' }]);
      });
      expect(written).toEqual(['begin', expect.stringContaining(ASYNC_COMMIT), 'commit']);
      expect(await ids()).toEqual([40, 41, 42]);
    } finally {
      await own.destroy();
    }
  });
});
