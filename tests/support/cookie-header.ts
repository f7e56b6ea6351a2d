/**
 * The Cookie header a browser sends after `answer`: the cookies of `before`, with those the
 * answer sets added or replaced, and those it expires removed.
 */
export function cookiesAfter(answer: Response, before = ""): string {
  const jar = new Map(
    before
      .split("; ")
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0]!, pair] as const),
  );
  for (const value of answer.headers.getSetCookie()) {
    const pair = value.split(";")[0]!;
    const name = pair.split("=")[0]!;
    if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(value)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}
