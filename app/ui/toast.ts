import type { Toast, ToastKind, ToastText } from "~/platform/http/toast";

/**
 * Toasts in plain DOM code, the same on every page: those React hydrates and the light pages
 * without it. No dependency and nothing React: the helper owns its own nodes at the end of
 * <body> (React leaves unknown nodes there alone).
 *
 * - Top centre of the window, newest on top, at most `MOST_VISIBLE` (the oldest gives way).
 * - Each goes after `SHOWN_FOR_MS`; the clock stops while a toast is hovered or focused, or
 *   the tab is hidden. 'Cerrar notificación' or Escape closes one at once.
 * - A toast with the `id` of one still on screen replaces it in place instead of stacking.
 * - Screen readers hear each one through two live regions made when this module loads (polite
 *   for success and info, assertive for errors): a region created together with its message is
 *   often not announced. Each toast is a line of its own there, gone with the toast.
 * - Tests find a toast by `[data-toast]` and its tone by `data-kind`.
 */

const SHOWN_FOR_MS = 6000;
const MOST_VISIBLE = 3;
/** How long a new live region waits before it speaks: screen readers must first see it empty. */
const LIVE_REGION_SETTLE_MS = 500;
/** The leaving transition's length (none when reduced motion is asked for). */
const LEAVE_MS = 200;

type ShownToast = {
  element: HTMLElement;
  parts: ToastParts;
  id?: string;
  /** Time left before it goes, counted while the clock runs. */
  remaining: number;
  runningSince?: number;
  timer?: ReturnType<typeof setTimeout>;
  silence: () => void;
};

type ToastParts = { icon: HTMLElement; title: HTMLElement; description: HTMLElement };

type Host = {
  section: HTMLElement;
  list: HTMLElement;
  polite: HTMLElement;
  assertive: HTMLElement;
  createdAt: number;
};

let host: Host | undefined;
/** Toasts on screen (not those leaving), newest first. */
const shown: ShownToast[] = [];
let hovered = false;
let focused = false;

const svg = (paths: string, className: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" class="${className}">${paths}</svg>`;

const icons: Record<ToastKind, string> = {
  success: svg(
    '<circle cx="12" cy="12" r="10"/><path d="m9 12 2 2 4-4"/>',
    "size-5 text-green-700",
  ),
  error: svg(
    '<circle cx="12" cy="12" r="10"/><path d="M12 8v4"/><path d="M12 16h.01"/>',
    "size-5 text-red-700",
  ),
  info: svg(
    '<circle cx="12" cy="12" r="10"/><path d="M12 16v-4"/><path d="M12 8h.01"/>',
    "size-5 text-brand-700",
  ),
};

function element(tag: string, className: string, attributes: Record<string, string> = {}) {
  const node = document.createElement(tag);
  node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** The toasts' nodes, made once (again if something took them out of the document). */
function ensureHost(): Host {
  if (host?.section.isConnected) return host;
  const root = element("div", "", { "data-toast-host": "" });
  // Bare aria-live, no role: an empty status or alert on every page would be one more for
  // assistive technology to list, beside the alerts a page has of its own.
  const polite = element("div", "sr-only", { "aria-live": "polite" });
  const assertive = element("div", "sr-only", { "aria-live": "assertive" });
  // Only the toasts take the pointer: the space between them leaves the page usable. At the
  // bottom (the end's corner on wider screens) they never cover the header and its menu, and a
  // form puts its faulty field in the middle of the screen, clear of them.
  const section = element(
    "section",
    "pointer-events-none fixed inset-x-4 bottom-4 z-60 sm:inset-x-auto sm:right-6 sm:bottom-6 sm:w-[356px]",
    { "aria-label": "Notificaciones" },
  );
  section.hidden = true;
  const list = element("ol", "flex flex-col gap-3");
  section.append(list);
  section.addEventListener("mouseenter", () => setPaused(() => (hovered = true)));
  section.addEventListener("mouseleave", () => setPaused(() => (hovered = false)));
  section.addEventListener("focusin", () => setPaused(() => (focused = true)));
  section.addEventListener("focusout", (event) =>
    setPaused(() => (focused = section.contains(event.relatedTarget as Node | null))),
  );
  section.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const toast = shown.find((one) => one.element.contains(event.target as Node));
    if (toast) dismiss(toast);
  });
  root.append(polite, assertive, section);
  document.body.append(root);
  host = { section, list, polite, assertive, createdAt: Date.now() };
  return host;
}

// Made at start, so the live regions are in the page before the first toast speaks.
if (typeof document !== "undefined") {
  if (document.body) ensureHost();
  else document.addEventListener("DOMContentLoaded", () => ensureHost(), { once: true });
  document.addEventListener("visibilitychange", () => setPaused(() => {}));
}

const isPaused = () => hovered || focused || document.visibilityState === "hidden";

/** Applies a change of the pause state to every toast's clock. */
function setPaused(change: () => void) {
  change();
  const paused = isPaused();
  for (const toast of shown) {
    if (paused) stopClock(toast);
    else startClock(toast);
  }
}

function startClock(toast: ShownToast) {
  if (toast.runningSince !== undefined) return;
  toast.runningSince = Date.now();
  toast.timer = setTimeout(() => dismiss(toast), toast.remaining);
}

function stopClock(toast: ShownToast) {
  if (toast.runningSince === undefined) return;
  clearTimeout(toast.timer);
  toast.remaining = Math.max(0, toast.remaining - (Date.now() - toast.runningSince));
  toast.runningSince = undefined;
}

/** What a screen reader says: the title, then the description as a sentence of its own. */
function spoken({ title, description }: ToastText) {
  if (!description) return title;
  return /[.!?…:]$/.test(title) ? `${title} ${description}` : `${title}. ${description}`;
}

/** Says the toast through the live region of its tone; answers how to take it back. */
function announce(kind: ToastKind, text: ToastText): () => void {
  const { polite, assertive, createdAt } = ensureHost();
  const line = element("p", "");
  line.textContent = spoken(text);
  const region = kind === "error" ? assertive : polite;
  const wait = Math.max(0, createdAt + LIVE_REGION_SETTLE_MS - Date.now());
  const timer = setTimeout(() => region.append(line), wait);
  return () => {
    clearTimeout(timer);
    line.remove();
  };
}

/** Writes a toast's tone and text into its element (a new one, or the one it replaces). */
function fill(toast: ShownToast, kind: ToastKind, { title, description }: ToastText) {
  toast.element.dataset.kind = kind;
  toast.parts.icon.innerHTML = icons[kind];
  toast.parts.title.textContent = title;
  toast.parts.description.textContent = description ?? "";
  toast.parts.description.hidden = !description;
}

/** A toast's element and the parts `fill` writes; its close button dismisses `toast()`. */
function build(toast: () => ShownToast): { element: HTMLElement; parts: ToastParts } {
  const node = element(
    "li",
    "pointer-events-auto relative flex items-start gap-3 rounded-lg border border-slate-200 bg-white py-4 pr-12 pl-4 text-sm shadow-lg transition-[opacity,translate] duration-200 ease-out starting:-translate-y-2 starting:opacity-0 motion-reduce:transition-none data-leaving:-translate-y-2 data-leaving:opacity-0",
    { "data-toast": "" },
  );
  const parts: ToastParts = {
    icon: element("span", "mt-0.5 shrink-0"),
    title: element("p", "font-semibold text-ink"),
    description: element("p", "mt-1 text-slate-600"),
  };
  const text = element("div", "min-w-0 flex-1");
  text.append(parts.title, parts.description);
  const close = element(
    "button",
    "absolute top-2 right-2 inline-flex size-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-ink",
    { type: "button", "aria-label": "Cerrar notificación" },
  );
  close.innerHTML = svg('<path d="M18 6 6 18"/><path d="m6 6 12 12"/>', "size-4");
  close.addEventListener("click", () => dismiss(toast()));
  node.append(parts.icon, text, close);
  return { element: node, parts };
}

function dismiss(toast: ShownToast) {
  const index = shown.indexOf(toast);
  if (index < 0) return;
  shown.splice(index, 1);
  stopClock(toast);
  toast.silence();
  const { element: node } = toast;
  // Focus leaves with the toast it was in: to the next toast, if there is one.
  if (node.contains(document.activeElement)) {
    const next = shown[Math.min(index, shown.length - 1)];
    if (next) next.element.querySelector("button")?.focus();
    else (document.activeElement as HTMLElement).blur();
  }
  // Leaving: out of reach and out of the tests' count, while it fades.
  node.inert = true;
  node.removeAttribute("data-toast");
  node.setAttribute("data-leaving", "");
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  setTimeout(
    () => {
      node.remove();
      if (shown.length === 0 && host) {
        host.section.hidden = true;
        hovered = focused = false;
      }
    },
    reduced ? 0 : LEAVE_MS,
  );
}

/** Shows a toast; a toast with the `id` of one still on screen replaces it instead of stacking. */
export function showToast(kind: ToastKind, text: ToastText, { id }: { id?: string } = {}): void {
  if (typeof document === "undefined" || !document.body) return;
  const { section, list } = ensureHost();
  const same = id === undefined ? undefined : shown.find((toast) => toast.id === id);
  if (same) {
    same.silence();
    fill(same, kind, text);
    same.silence = announce(kind, text);
    stopClock(same);
    same.remaining = SHOWN_FOR_MS;
    if (!isPaused()) startClock(same);
    return;
  }
  const toast: ShownToast = {
    ...build(() => toast),
    id,
    remaining: SHOWN_FOR_MS,
    silence: announce(kind, text),
  };
  fill(toast, kind, text);
  section.hidden = false;
  list.prepend(toast.element);
  shown.unshift(toast);
  if (!isPaused()) startClock(toast);
  while (shown.length > MOST_VISIBLE) dismiss(shown[shown.length - 1]!);
}

const kinds: readonly string[] = ["success", "error", "info"] satisfies ToastKind[];

/**
 * Shows the toast a server-rendered page carries for the browser (after a redirect, on a page
 * without React): `<script type="application/json" id="page-toast">` holding a `Toast`. Answers
 * it (for its `milestone`), or null when there is none; a second call shows nothing again.
 */
export function showToastFromDocument(doc: Document = document): Toast | null {
  const script = doc.getElementById("page-toast");
  if (!script || script.hasAttribute("data-shown")) return null;
  script.setAttribute("data-shown", "");
  let toast: unknown;
  try {
    toast = JSON.parse(script.textContent ?? "");
  } catch {
    return null;
  }
  if (!isToast(toast)) return null;
  showToast(toast.kind, toast);
  return toast;
}

function isToast(value: unknown): value is Toast {
  if (typeof value !== "object" || value === null) return false;
  const { kind, title, description } = value as Record<string, unknown>;
  return (
    typeof kind === "string" &&
    kinds.includes(kind) &&
    typeof title === "string" &&
    (description === undefined || typeof description === "string")
  );
}
