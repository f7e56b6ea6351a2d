import { useEffect, useRef } from "react";
import { startHumanCheck, type HumanCheckController } from "./human-check-element";

export { CHALLENGE_URL } from "./solver";

/** Shown, without JavaScript, in every form that carries the check. */
const HUMAN_CHECK_NEEDS_JAVASCRIPT =
  "Para enviar este formulario necesitas activar JavaScript: lo usamos para una comprobación de seguridad sin cookies.";

/**
 * The proof of work (`human-check-element.ts`, our own solver of the server's ALTCHA challenge):
 * it starts on the visitor's first interaction, so it never competes with the page's first paint
 * and hydration, and reports when the form may be sent. A solution is good for one submission and
 * ten minutes: after the form is reset, when `renewOn` changes (a new answer of the server, which
 * spent it) and before it expires, a new one is solved.
 */
export function HumanCheck({
  onReadyChange,
  loadOn = "page-interaction",
  renewOn,
}: {
  onReadyChange: (ready: boolean) => void;
  /**
   * What starts the check: any interaction with the page (a page that is the form), or only with
   * the form (a form on a page people mostly read).
   */
  loadOn?: "page-interaction" | "form-interaction";
  /** The server's latest answer: each new one spent the solution, so a new one is solved. */
  renewOn?: unknown;
}) {
  const container = useRef<HTMLDivElement>(null);
  const controller = useRef<HumanCheckController>(null);
  const report = useRef(onReadyChange);
  useEffect(() => {
    report.current = onReadyChange;
  });
  useEffect(() => {
    const form = container.current?.closest("form");
    const check = form
      ? startHumanCheck(form, {
          onReadyChange: (ready) => report.current(ready),
          startOn: loadOn === "form-interaction" ? "form" : "page",
        })
      : undefined;
    controller.current = check ?? null;
    return () => {
      check?.stop();
      report.current(false);
    };
  }, [loadOn]);
  const renewedFor = useRef(renewOn);
  useEffect(() => {
    if (renewOn === renewedFor.current) return;
    renewedFor.current = renewOn;
    controller.current?.renew();
  }, [renewOn]);
  return (
    // The markup `startHumanCheck` works in (light pages have this server rendering only).
    <div ref={container} data-human-check="">
      <input type="hidden" name="altcha" />
      <p
        data-human-check-status=""
        role="status"
        aria-live="polite"
        className="text-sm text-slate-600"
      />
      <noscript>
        <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          {HUMAN_CHECK_NEEDS_JAVASCRIPT}
        </p>
      </noscript>
    </div>
  );
}
