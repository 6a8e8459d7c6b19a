// Paged operations as async iterators of their items: a page is requested only once the previous
// one has been consumed, and dropped before the next is requested, so at most one page is held.

/** Which parameters page an operation (from the spec's `paging`). */
export interface Paging {
  /** The parameter holding the number of records to pass over. */
  readonly skip: string;
  /** The parameter holding the page size, when the caller chooses it. */
  readonly size?: string;
}

/**
 * Every item from the skip parameter's value (default 0) on. The last page is the first one shorter than the page
 * size the caller asked for; without a size parameter, the first empty page or one shorter than
 * the first page (the server's page size), since that size is the server's to choose. A page the
 * server sends none of (a null list) is an empty one.
 */
export async function* iteratePages<P, I>(
  call: (params: P) => Promise<readonly I[] | undefined>,
  params: P,
  paging: Paging,
): AsyncGenerator<I, void, undefined> {
  const values = params as Record<string, unknown>;
  let skip = typeof values[paging.skip] === 'number' ? (values[paging.skip] as number) : 0;
  const size = paging.size === undefined ? undefined : values[paging.size];
  if (size !== undefined && (typeof size !== 'number' || !(size > 0)))
    throw new RangeError(
      `${paging.size} must be a number above 0 to page, got ${JSON.stringify(size)}`,
    );
  let full: number | undefined = size;
  for (;;) {
    let page: readonly I[] | undefined = (await call({ ...params, [paging.skip]: skip })) ?? [];
    const count = page.length;
    full ??= count;
    yield* page;
    page = undefined; // the consumer is done with it: not held while the next one loads
    if (count === 0 || count < full) return;
    skip += count;
  }
}
