import { useEffect, useRef } from "react";

/** ALTCHA's custom element, as JSX sees it. */
declare module "react" {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      "altcha-widget": React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement> & {
        challenge?: string;
        auto?: "off" | "onfocus" | "onload" | "onsubmit";
        name?: string;
        language?: string;
      };
    }
  }
}

export const CHALLENGE_URL = "/api/altcha/challenge";

/** What counts as a visitor starting on the form. */
const FIRST_INTERACTIONS = ["pointerdown", "keydown", "focusin", "touchstart"] as const;

/** The widget's methods, once its code has loaded. */
type AltchaWidget = HTMLElement & {
  getState?: () => string;
  reset?: () => void;
  verify?: () => Promise<unknown>;
};

/** Shown, without JavaScript, in every form that carries the check. */
const HUMAN_CHECK_NEEDS_JAVASCRIPT =
  "Para enviar este formulario necesitas activar JavaScript: lo usamos para una comprobación de seguridad sin cookies.";

/**
 * The proof-of-work widget. Its code (~110 kB) loads on the visitor's first interaction, so it
 * never competes with the page's first paint and hydration; it then solves its challenge at
 * once and reports when the form may be sent. A solution is good for one submission and ten
 * minutes: after the form is reset, when `renewOn` changes (a new answer of the server, which
 * spent it) and when it expires, a new one is solved.
 */
export function HumanCheck({
  onReadyChange,
  loadOn = "page-interaction",
  renewOn,
}: {
  onReadyChange: (ready: boolean) => void;
  /**
   * What starts loading the widget: any interaction with the page (a page that is the form), or
   * only with the form (a form on a page people mostly read).
   */
  loadOn?: "page-interaction" | "form-interaction";
  /** The server's latest answer: each new one spent the solution, so a new one is solved. */
  renewOn?: unknown;
}) {
  const widget = useRef<AltchaWidget>(null);
  const report = useRef(onReadyChange);
  useEffect(() => {
    report.current = onReadyChange;
  });
  useEffect(() => {
    const element = widget.current;
    const form = element?.closest("form");
    // One renewal at a time, after the widget's own state change has settled.
    let renewal: ReturnType<typeof setTimeout> | undefined;
    const renew = () => {
      renewal ??= setTimeout(() => {
        renewal = undefined;
        const state = element?.getState?.();
        if (state === "unverified" || state === "expired") void element?.verify?.();
      });
    };
    const onStateChange = (event: Event) => {
      const state = (event as CustomEvent<{ state: string }>).detail?.state;
      report.current(state === "verified");
      if (state === "unverified" || state === "expired") renew();
    };
    const target = loadOn === "form-interaction" ? form : document;
    const load = () => {
      stopWaiting();
      void Promise.all([import("altcha"), import("altcha/i18n/es-es")]);
    };
    const stopWaiting = () => {
      for (const type of FIRST_INTERACTIONS) target?.removeEventListener(type, load, true);
      form?.removeEventListener("pointerover", load);
    };
    element?.addEventListener("statechange", onStateChange);
    if (customElements.get("altcha-widget")) load();
    else {
      // Capture phase: a click on the still-disabled submit button counts too.
      for (const type of FIRST_INTERACTIONS)
        target?.addEventListener(type, load, { capture: true, passive: true });
      // A pointer reaching for the form is a head start on the proof of work.
      form?.addEventListener("pointerover", load, { passive: true });
    }
    return () => {
      stopWaiting();
      clearTimeout(renewal);
      element?.removeEventListener("statechange", onStateChange);
    };
  }, [loadOn]);
  const renewedFor = useRef(renewOn);
  useEffect(() => {
    if (renewOn === renewedFor.current) return;
    renewedFor.current = renewOn;
    // Back to 'unverified', which solves a new challenge (above).
    widget.current?.reset?.();
  }, [renewOn]);
  return (
    <>
      <altcha-widget
        ref={widget}
        challenge={CHALLENGE_URL}
        auto="onload"
        name="altcha"
        language="es-es"
      />
      <noscript>
        <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          {HUMAN_CHECK_NEEDS_JAVASCRIPT}
        </p>
      </noscript>
    </>
  );
}
