/**
 * Compiled statements kept by their SQL text, for a database connection's life. The store's SQL is a fixed set of
 * about ninety texts, each run many times; bun:sqlite's own query cache keeps 20, so a daemon serving runs compiled
 * most statements again on most calls (sqlite's prepare was ~5 % of the daemon's CPU in a burst of 50 runs). Past
 * `limit` texts (SQL built from values would get there; the store builds none) the oldest is let go, not finalized:
 * a caller may still hold it, and the driver finalizes it once it is collected.
 */
export type StatementCache<S> = { get(sql: string): S; values(): IterableIterator<S> };

export function statementCache<S>(compile: (sql: string) => S, limit = 256): StatementCache<S> {
  const bySql = new Map<string, S>();
  return {
    get(sql) {
      let statement = bySql.get(sql);
      if (statement === undefined) {
        if (bySql.size >= limit) bySql.delete(bySql.keys().next().value as string);
        statement = compile(sql);
        bySql.set(sql, statement);
      }
      return statement;
    },
    values: () => bySql.values(),
  };
}
