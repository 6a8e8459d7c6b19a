// A bounded memo for per-request values that depend on a few request strings (the Host header,
// the namespace and operation): computed once per distinct input. Inputs come from clients, so the
// table is emptied when full rather than allowed to grow; a client sending endless distinct
// values gets no worse than computing each one.
export function boundedMemo<V>(compute: (key: string) => V, maxEntries = 256): (key: string) => V {
  const table = new Map<string, V>();
  return (key) => {
    let v = table.get(key);
    if (v === undefined) {
      if (table.size >= maxEntries) table.clear();
      v = compute(key);
      table.set(key, v);
    }
    return v;
  };
}
