import { useEffect } from "react";
import { trackScrollProgress } from "./scroll-progress-tracker";

/** A bar along the bottom of the navigation showing how far the page has been scrolled. */
export function ScrollProgress() {
  useEffect(() => trackScrollProgress(document), []);
  return (
    <div
      className="absolute inset-x-0 bottom-0 h-0.5 bg-transparent"
      role="progressbar"
      aria-label="Progreso de lectura"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={0}
    >
      <div
        data-testid="scroll-progress"
        className="h-full origin-left scale-x-0 bg-gradient-to-r from-brand-500 to-cyan-500"
      />
    </div>
  );
}
