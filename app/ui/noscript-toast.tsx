import type { Toast } from "~/platform/http/toast";

/**
 * A redirect's toast for a browser without JavaScript (the toasts are drawn by script): the same
 * words in the same corner, gone after a while by CSS alone (app.css).
 */
export function NoScriptToast({ toast }: { toast: Toast }) {
  return (
    <noscript>
      <div
        role="status"
        data-noscript-toast={toast.kind}
        className="noscript-toast pointer-events-none fixed inset-x-4 bottom-4 z-60 rounded-xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:inset-x-auto sm:right-6 sm:bottom-6 sm:w-[356px]"
      >
        <p className="font-semibold text-ink">{toast.title}</p>
        {toast.description ? (
          <p className="mt-1 text-sm text-slate-600">{toast.description}</p>
        ) : null}
      </div>
    </noscript>
  );
}
