import { Download } from "lucide-react";
import { useState, type MouseEvent } from "react";
import { buttonClasses } from "~/ui/button";
import type { ToastText } from "~/platform/http/toast";
import type { DownloadProgress } from "./download-progress";
import { showToast } from "~/ui/toast";

/**
 * A plain download link, which works without JavaScript; with it, the file is fetched first so
 * the person hears whether the download worked. With `countRows` (a CSV with a header line) the
 * link shows the rows received so far, 'Exportando… 12.345 filas', and the percentage when the
 * server sends `X-Total-Rows`; a polite status tells screen readers at each quarter.
 */
export function DownloadLink({
  href,
  label,
  busyLabel,
  countRows = false,
  fallbackName,
  succeeded,
  failed,
}: {
  href: string;
  label: string;
  busyLabel: string;
  countRows?: boolean;
  fallbackName: string;
  succeeded: ToastText;
  failed: ToastText;
}) {
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  const busy = progress !== null;

  const download = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (busy) return;
    setProgress({ text: busyLabel, fraction: null, announcement: busyLabel });
    try {
      const [response, { readWithProgress }] = await Promise.all([
        fetch(href, { credentials: "same-origin", redirect: "manual" }),
        import("./download-progress"),
      ]);
      // A file is never a redirect: the server sends the person somewhere first (to confirm
      // who they are, or to sign in), so the browser follows the link itself.
      if (response.type === "opaqueredirect") {
        window.location.assign(href);
        return;
      }
      if (!response.ok) throw new Error(`download answered ${response.status}`);
      const chunks = await readWithProgress(response, { countRows, busyLabel }, setProgress);
      const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "");
      const blob = new Blob(chunks, { type: response.headers.get("Content-Type") ?? "" });
      const url = URL.createObjectURL(blob);
      Object.assign(document.createElement("a"), {
        href: url,
        download: name?.[1] ?? fallbackName,
      }).click();
      URL.revokeObjectURL(url);
      void showToast("success", succeeded);
    } catch {
      void showToast("error", failed);
    } finally {
      setProgress(null);
    }
  };

  const filled = progress?.fraction == null ? null : `${progress.fraction * 100}%`;
  return (
    <>
      {/* No `download` attribute: the answer's Content-Disposition makes it a file, and a
          redirect (to confirm who you are, to sign in) is followed as a page, not saved. */}
      <a
        href={href}
        onClick={download}
        aria-disabled={busy}
        className={`${buttonClasses({ variant: "secondary" })} tabular-nums`}
        // The share received fills the button from the left (brand-100).
        style={
          filled
            ? {
                backgroundImage: `linear-gradient(to right, #dbe6fe ${filled}, transparent ${filled})`,
              }
            : undefined
        }
      >
        <Download className="size-4" aria-hidden />
        {progress ? progress.text : label}
      </a>
      <span role="status" className="sr-only">
        {progress?.announcement ?? ""}
      </span>
    </>
  );
}
