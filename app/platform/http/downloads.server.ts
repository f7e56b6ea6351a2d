import type { Database } from "~/platform/db/client.server";
import { getLogger } from "~/platform/logger.server";

/*
 * The one way a file leaves for a download (issue 38): its pages read in one read-only snapshot
 * that lasts as long as the download, each only when the client has taken the one before (a slow
 * client holds one page, not the file; one who leaves ends the snapshot); a text file's first
 * line ahead of them; the headers every download carries.
 */

/** A page read, and where the next one starts; no `next` after the last page. */
export type PageRead<Page, Cursor> = { page: Page; next?: Cursor };

/** A promise with its resolve at hand: the hand-over between the snapshot and the reader. */
function handOver<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

type Offered<Page, Cursor> = PageRead<Page, Cursor> | { error: unknown };

/**
 * The pages `readPage` reads from `db`, from the first (`undefined` cursor) to the one without a
 * `next`, in one repeatable-read, read-only transaction; an error is logged as `what` failed and
 * thrown to the reader.
 */
export async function* snapshotPages<Page, Cursor>(
  db: Database,
  readPage: (tx: Database, cursor: Cursor | undefined) => Promise<PageRead<Page, Cursor>>,
  what: string,
): AsyncGenerator<Page> {
  let wanted = handOver();
  let offered = handOver<Offered<Page, Cursor>>();
  let stopped = false;
  const reading = db
    .transaction(
      async (tx) => {
        let cursor: Cursor | undefined;
        do {
          await wanted.promise;
          wanted = handOver();
          if (stopped) return;
          const read = await readPage(tx as unknown as Database, cursor);
          offered.resolve(read);
          cursor = read.next;
        } while (cursor !== undefined);
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    )
    .catch((error: unknown) => {
      getLogger().error({ err: error }, `${what} failed`);
      offered.resolve({ error });
    });
  try {
    for (;;) {
      wanted.resolve();
      const read = await offered.promise;
      offered = handOver<Offered<Page, Cursor>>();
      if ("error" in read) throw read.error;
      yield read.page;
      if (read.next === undefined) break;
    }
    await reading;
  } finally {
    stopped = true;
    wanted.resolve();
  }
}

/** A text file: `first` (its header), then each page's text, encoded as the client reads. */
export function textStream(
  first: string,
  pages: AsyncGenerator<string>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(first));
        return;
      }
      // An empty page writes nothing; every pull must enqueue or close, or the stream stalls.
      let next = await pages.next();
      while (!next.done && next.value === "") next = await pages.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
}

/** An attachment's header for a name with spaces and accents (RFC 6266, RFC 8187). */
export function attachmentDisposition(fileName: string) {
  const ascii = fileName
    .normalize("NFD")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/["\\]/g, "");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** A download's answer: its body, type and name, never cached, never sniffed. */
export function downloadResponse(
  body: ReadableStream<Uint8Array>,
  { fileName, contentType }: { fileName: string; contentType: string },
): Response {
  return new Response(body, {
    headers: {
      "Content-Type": contentType,
      "Content-Disposition": attachmentDisposition(fileName),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
