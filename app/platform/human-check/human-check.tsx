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

/**
 * The proof-of-work widget, loaded only on pages that use it. It solves its challenge as soon as
 * it loads and reports when the form may be sent.
 */
export function HumanCheck({ onReadyChange }: { onReadyChange: (ready: boolean) => void }) {
  const widget = useRef<HTMLElement>(null);
  const report = useRef(onReadyChange);
  useEffect(() => {
    report.current = onReadyChange;
  });
  useEffect(() => {
    const element = widget.current;
    const onStateChange = (event: Event) => {
      const state = (event as CustomEvent<{ state: string }>).detail?.state;
      report.current(state === "verified");
    };
    element?.addEventListener("statechange", onStateChange);
    void Promise.all([import("altcha"), import("altcha/i18n/es-es")]);
    return () => element?.removeEventListener("statechange", onStateChange);
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
