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

/** What counts as a visitor starting on the form: any of these anywhere on the page. */
const FIRST_INTERACTIONS = ["pointerdown", "keydown", "focusin", "touchstart"] as const;

/**
 * The proof-of-work widget. Its code (~110 kB) loads on the visitor's first interaction, so it
 * never competes with the page's first paint and hydration; it then solves its challenge at
 * once and reports when the form may be sent.
 */
export function HumanCheck({ onReadyChange }: { onReadyChange: (ready: boolean) => void }) {
  const widget = useRef<HTMLElement>(null);
  const report = useRef(onReadyChange);
  useEffect(() => {
    report.current = onReadyChange;
  });
  useEffect(() => {
    const element = widget.current;
    const form = element?.closest("form");
    const onStateChange = (event: Event) => {
      const state = (event as CustomEvent<{ state: string }>).detail?.state;
      report.current(state === "verified");
    };
    const load = () => {
      stopWaiting();
      void Promise.all([import("altcha"), import("altcha/i18n/es-es")]);
    };
    const stopWaiting = () => {
      for (const type of FIRST_INTERACTIONS) document.removeEventListener(type, load, true);
      form?.removeEventListener("pointerover", load);
    };
    element?.addEventListener("statechange", onStateChange);
    if (customElements.get("altcha-widget")) load();
    else {
      // Capture phase: a click on the still-disabled submit button counts too.
      for (const type of FIRST_INTERACTIONS)
        document.addEventListener(type, load, { capture: true, passive: true });
      // A pointer reaching for the form is a head start on the proof of work.
      form?.addEventListener("pointerover", load, { passive: true });
    }
    return () => {
      stopWaiting();
      element?.removeEventListener("statechange", onStateChange);
    };
  }, []);
  return (
    <altcha-widget
      ref={widget}
      challenge={CHALLENGE_URL}
      auto="onload"
      name="altcha"
      language="es-es"
    />
  );
}
