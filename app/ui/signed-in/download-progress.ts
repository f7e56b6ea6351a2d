/**
 * Reading a download as it streams in, loaded by DownloadLink on the first click: pages that
 * never download anything do not carry it.
 */
import { SITE_LOCALE } from "~/platform/locale";

/** How often the visible count may change while a file streams in (it would flicker otherwise). */
const SHOW_EVERY_MS = 150;
/** Screen readers hear the progress at each quarter, not at every change. */
const ANNOUNCE_STEPS = 4;

const QUOTE = 0x22;
const LINE_FEED = 0x0a;

// Spain's way with numbers (es-ES): 12.345 filas, 45 %.
const counts = new Intl.NumberFormat(SITE_LOCALE.intl);
const percents = new Intl.NumberFormat(SITE_LOCALE.intl, {
  style: "percent",
  maximumFractionDigits: 0,
});

/**
 * Counts the lines of a CSV as its bytes arrive: line breaks inside a quoted cell (a message of
 * several lines) are not the end of a row. Quotes and line feeds are single bytes in UTF-8, never
 * part of another character, so the bytes can be read as they come.
 */
export function csvLineCounter() {
  let quoted = false;
  let lineBreaks = 0;
  let openLine = false;
  return {
    add(bytes: Uint8Array) {
      for (const byte of bytes) {
        if (byte === QUOTE) quoted = !quoted;
        else if (byte === LINE_FEED && !quoted) {
          lineBreaks += 1;
          openLine = false;
          continue;
        }
        openLine = true;
      }
    },
    /** Complete lines so far, and a last line without a final break once `finished`. */
    lines(finished = false) {
      return lineBreaks + (finished && openLine ? 1 : 0);
    },
  };
}

export type DownloadProgress = {
  /** What the link says: 'Exportando… 12.345 filas (45 %)'. */
  text: string;
  /** The share received, when the server said how many rows to expect. */
  fraction: number | null;
  /** For screen readers: the busy label, then each quarter reached. */
  announcement: string;
};

/** 'Exportando… 12.345 filas', with the percentage when the total is known. */
export function progressText(busyLabel: string, rows: number, total: number | null): string {
  const counted = `${busyLabel} ${counts.format(rows)} ${rows === 1 ? "fila" : "filas"}`;
  return total ? `${counted} (${percents.format(Math.min(rows / total, 1))})` : counted;
}

/**
 * The body of `response` as it streams in. With `countRows` (a CSV with a header line)
 * `onProgress` hears the data rows received so far, at most every SHOW_EVERY_MS and once at the
 * end, with the share of `X-Total-Rows` when the server sent it.
 */
export async function readWithProgress(
  response: Response,
  { countRows, busyLabel }: { countRows: boolean; busyLabel: string },
  onProgress: (progress: DownloadProgress) => void,
): Promise<Uint8Array<ArrayBuffer>[]> {
  if (!response.body) return [new Uint8Array(await response.arrayBuffer())];
  const totalHeader = response.headers.get("X-Total-Rows");
  const total = totalHeader && /^\d+$/.test(totalHeader) ? Number(totalHeader) : null;
  const counter = csvLineCounter();
  let announcement = busyLabel;
  const report = (rows: number) => {
    const fraction = total ? Math.min(rows / total, 1) : null;
    const step = fraction === null ? 0 : Math.floor(fraction * ANNOUNCE_STEPS);
    if (step > 0 && step < ANNOUNCE_STEPS)
      announcement = `${busyLabel} ${percents.format(step / ANNOUNCE_STEPS)}`;
    onProgress({ text: progressText(busyLabel, rows, total), fraction, announcement });
  };

  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let shownAt = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array<ArrayBuffer>);
    if (!countRows) continue;
    counter.add(value);
    const now = performance.now();
    if (now - shownAt >= SHOW_EVERY_MS) {
      shownAt = now;
      report(Math.max(counter.lines() - 1, 0));
    }
  }
  if (countRows) report(Math.max(counter.lines(true) - 1, 0));
  return chunks;
}
