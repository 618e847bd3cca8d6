/**
 * Small things a reader chose or typed, kept per browser tab (sessionStorage) so that a reload keeps them: which
 * sections they opened or closed, a half-given answer to the agent's question. Each kind is one stored JSON list of
 * [key, value] pairs, at most `limit` of them (the one set longest ago goes first). Nothing read back is trusted: a
 * stored text that does not parse is no memory, and each reader checks the values it gets. A full or disabled
 * storage only costs the memory across reloads.
 */

export interface TabMemory {
  /** The value kept under `key`, as stored (unchecked), else undefined. */
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

const PREFIX = "od.";

/** The tab's sessionStorage, when the page has one. */
export function tabStorage(): Storage | undefined {
  try {
    return typeof sessionStorage === "undefined" ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

/** The memory called `name` in `storage` (read at its first use, written at each change). */
export function tabMemory(name: string, limit: number, storage: () => Pick<Storage, "getItem" | "setItem"> | undefined = tabStorage): TabMemory {
  let entries: Map<string, unknown> | undefined;
  const loaded = (): Map<string, unknown> => (entries ??= read(storage(), PREFIX + name));
  const write = () => {
    try {
      storage()?.setItem(PREFIX + name, JSON.stringify([...loaded()]));
    } catch {
      // Full or disabled: kept in this page only.
    }
  };
  return {
    get: (key) => loaded().get(key),
    set(key, value) {
      const all = loaded();
      // Set again, it is the newest: the oldest are let go first.
      all.delete(key);
      all.set(key, value);
      for (const oldest of all.keys()) {
        if (all.size <= limit) break;
        all.delete(oldest);
      }
      write();
    },
    delete(key) {
      if (loaded().delete(key)) write();
    },
  };
}

function read(storage: Pick<Storage, "getItem"> | undefined, item: string): Map<string, unknown> {
  try {
    const stored: unknown = JSON.parse(storage?.getItem(item) ?? "[]");
    if (!Array.isArray(stored)) return new Map();
    return new Map(stored.filter((pair): pair is [string, unknown] => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === "string"));
  } catch {
    return new Map();
  }
}
