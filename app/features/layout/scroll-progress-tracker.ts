/**
 * Moves the reading-progress bar under the navigation as the page scrolls. Used by React's
 * header and by light pages' script alike; returns the way to stop.
 */
export function trackScrollProgress(doc: Document): () => void {
  const bar = doc.querySelector<HTMLElement>("[data-testid=scroll-progress]");
  if (!bar) return () => undefined;
  const view = doc.defaultView!;
  let frame = 0;
  const update = () => {
    frame = 0;
    const scrollable = doc.documentElement.scrollHeight - view.innerHeight;
    const progress = scrollable > 0 ? Math.min(1, view.scrollY / scrollable) : 0;
    bar.style.transform = `scaleX(${progress})`;
    bar.parentElement?.setAttribute("aria-valuenow", String(Math.round(progress * 100)));
  };
  const schedule = () => {
    if (!frame) frame = view.requestAnimationFrame(update);
  };
  update();
  view.addEventListener("scroll", schedule, { passive: true });
  view.addEventListener("resize", schedule, { passive: true });
  return () => {
    view.removeEventListener("scroll", schedule);
    view.removeEventListener("resize", schedule);
    if (frame) view.cancelAnimationFrame(frame);
  };
}
