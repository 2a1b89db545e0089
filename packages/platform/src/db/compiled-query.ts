/**
 * @module db/compiled-query
 * A query Kysely builds and compiles once, then runs with new values. Kysely
 * builds a query's operation tree and compiles it to SQL on every call, which for
 * a simple SELECT costs more than running it (`npm run bench -- platform-overhead`
 * gives both, on SQLite). When only the values change, the SQL does not:
 *
 * ```ts
 * const userById = compileQuery(db.kysely, (param: Param<{ id: string }>) =>
 *   db.kysely.selectFrom('users').select(['id', 'email']).where('id', '=', param('id')),
 * );
 * const user = await userById.takeFirst({ id });
 * ```
 *
 * The query is built once with a placeholder for each named value; where each one
 * lands among the compiled parameters is where its value goes later. A named value
 * is one parameter (a list for `in` changes the SQL with its length, so it cannot
 * be named), and the build fails at once when a named value did not become a
 * parameter (Kysely wrote it into the SQL), so a query this cannot hold is refused
 * when it is defined, never answered wrongly.
 */
import type { CompiledQuery, QueryResult } from 'kysely';

/** What runs a compiled query: a `Kysely` instance or a transaction. */
export interface QueryExecutor {
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
}

/** Names a value of the query; at build time it returns a placeholder standing for it. */
export type Param<Values> = <K extends keyof Values & string>(name: K) => Values[K];

/** Stands for a named value while the query is built; never reaches the database. */
class Placeholder {
  constructor(readonly name: string) {}
}

export interface CompiledStatement<Values, Row> {
  /** The rows the query returns with these values. */
  execute(values: Values, executor?: QueryExecutor): Promise<Row[]>;
  /** The first row, or undefined. */
  takeFirst(values: Values, executor?: QueryExecutor): Promise<Row | undefined>;
  /** The compiled SQL, for tests and logs. */
  readonly sql: string;
}

/**
 * Builds and compiles `build`'s query once; `execute` runs it on `executor` (or
 * the one given per call, e.g. a transaction) with the values named by `param`.
 */
export function compileQuery<Values extends Record<string, unknown>, Row>(
  executor: QueryExecutor,
  build: (param: Param<Values>) => { compile(): CompiledQuery<Row> },
): CompiledStatement<Values, Row> {
  const named: string[] = [];
  const param = (name: string) => {
    named.push(name);
    return new Placeholder(name);
  };
  const compiled = build(param as Param<Values>).compile();
  // For each compiled parameter: the name of the value it takes, or undefined for a constant of the query.
  const slots = compiled.parameters.map((value) => (value instanceof Placeholder ? value.name : undefined));
  for (const name of named)
    if (!slots.includes(name))
      throw new Error(`compileQuery: the value ${name} did not become a parameter of: ${compiled.sql}`);
  const parametersFor = (values: Values) =>
    slots.map((name, i) => (name === undefined ? compiled.parameters[i] : values[name]));
  const execute = async (values: Values, runner = executor) =>
    (await runner.executeQuery<Row>({ ...compiled, parameters: parametersFor(values) })).rows;
  return {
    execute,
    takeFirst: async (values, runner) => (await execute(values, runner))[0],
    sql: compiled.sql,
  };
}
