/**
 * A list item the caller's invariant says exists (an index within a length it checked, or a
 * parallel list of the same length). If the invariant breaks the error names the list and the
 * index instead of surfacing later as `undefined` in arithmetic or on the wire.
 */
class MissingItemError extends Error {
  constructor(
    readonly list: string,
    readonly index: number,
  ) {
    super(`${list}[${index}] is missing`);
    this.name = "MissingItemError";
  }
}

/** `list[index]`, or a MissingItemError naming `what` when the index lies outside the list. */
export function itemAt<T>(list: readonly T[], index: number, what: string): T {
  const item = list[index];
  if (item === undefined) throw new MissingItemError(what, index);
  return item;
}

/** The last item of a list the caller knows is not empty. */
export const lastOf = <T>(list: readonly T[], what: string): T => itemAt(list, list.length - 1, what);
