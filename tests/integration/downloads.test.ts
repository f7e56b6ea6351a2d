import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { snapshotPages, textStream } from "~/platform/http/downloads.server";
import { setupTestDatabase } from "../support/test-database";

/**
 * The one way a download reads its pages (issue 38): from one snapshot, a page only when the
 * reader took the one before, the snapshot ended when the reader stops, an error passed on.
 */
const database = setupTestDatabase();

/** Pages of three numbers from 1 to `last`, counting the reads. */
function counting(last: number) {
  const reads: number[] = [];
  const pages = snapshotPages<string, number>(
    database.db,
    async (tx, after = 0) => {
      reads.push(after);
      const rows = await tx
        .select({ n: sql<number>`n` })
        .from(sql`generate_series(${after + 1}::int, least(${after + 3}::int, ${last}::int)) n`);
      const numbers = rows.map((row) => Number(row.n));
      const end = numbers.at(-1);
      return {
        page: numbers.map((n) => `${n}\n`).join(""),
        next: numbers.length === 3 && end !== last ? end : undefined,
      };
    },
    "a test download",
  );
  return { pages, reads };
}

describe("a download's pages", () => {
  it("are read one at a time, as the reader takes them, to the last", async () => {
    const { pages, reads } = counting(7);
    expect(reads).toEqual([]);
    expect((await pages.next()).value).toBe("1\n2\n3\n");
    // The second page waits for the reader to ask.
    expect(reads).toEqual([0]);
    expect((await pages.next()).value).toBe("4\n5\n6\n");
    expect((await pages.next()).value).toBe("7\n");
    expect((await pages.next()).done).toBe(true);
    expect(reads).toEqual([0, 3, 6]);
  });

  it("end their snapshot when the reader stops: the database answers the next query", async () => {
    const { pages, reads } = counting(100);
    await pages.next();
    await pages.return(undefined);
    const [row] = await database.db.select({ one: sql<number>`1` }).from(sql`(select 1) s`);
    expect(Number(row!.one)).toBe(1);
    expect(reads).toEqual([0]);
  });

  it("pass a failed read on to the reader", async () => {
    const pages = snapshotPages<string, number>(
      database.db,
      async (tx) => {
        await tx.select({ n: sql<number>`1` }).from(sql`no_such_table`);
        return { page: "" };
      },
      "a failing test download",
    );
    await expect(pages.next()).rejects.toThrow(/no_such_table/);
  });

  it("stream as text: the header first, empty pages skipped", async () => {
    const { pages } = counting(4);
    const text = await new Response(textStream("n\n", pages)).text();
    expect(text).toBe("n\n1\n2\n3\n4\n");
  });
});
