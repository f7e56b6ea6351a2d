import { useEffect, useRef } from "react";

/** A bar along the bottom of the navigation showing how far the page has been scrolled. */
export function ScrollProgress() {
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      const scrollable = document.documentElement.scrollHeight - window.innerHeight;
      const progress = scrollable > 0 ? Math.min(1, window.scrollY / scrollable) : 0;
      if (bar.current) {
        bar.current.style.transform = `scaleX(${progress})`;
        bar.current.parentElement?.setAttribute(
          "aria-valuenow",
          String(Math.round(progress * 100)),
        );
      }
    };
    const schedule = () => {
      if (!frame) frame = window.requestAnimationFrame(update);
    };
    update();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule, { passive: true });
    return () => {
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, []);
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
        ref={bar}
        data-testid="scroll-progress"
        className="h-full origin-left scale-x-0 bg-gradient-to-r from-brand-500 to-cyan-500"
      />
    </div>
  );
}
