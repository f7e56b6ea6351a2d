import { Download } from "lucide-react";
import { useState, type MouseEvent } from "react";
import { buttonClasses } from "./button";
import type { ToastText } from "~/platform/http/toast";
import { showToast } from "./toast";

/**
 * A plain download link, which works without JavaScript; with it, the file is fetched first so
 * the person hears whether the download worked.
 */
export function DownloadLink({
  href,
  label,
  busyLabel,
  fallbackName,
  succeeded,
  failed,
}: {
  href: string;
  label: string;
  busyLabel: string;
  fallbackName: string;
  succeeded: ToastText;
  failed: ToastText;
}) {
  const [busy, setBusy] = useState(false);
  const download = async (event: MouseEvent<HTMLAnchorElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const response = await fetch(href, { credentials: "same-origin" });
      if (!response.ok) throw new Error(`download answered ${response.status}`);
      const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ?? "");
      const url = URL.createObjectURL(await response.blob());
      Object.assign(document.createElement("a"), {
        href: url,
        download: name?.[1] ?? fallbackName,
      }).click();
      URL.revokeObjectURL(url);
      void showToast("success", succeeded);
    } catch {
      void showToast("error", failed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <a
      href={href}
      download
      onClick={download}
      aria-disabled={busy}
      className={buttonClasses({ variant: "secondary" })}
    >
      <Download className="size-4" aria-hidden />
      {busy ? busyLabel : label}
    </a>
  );
}
