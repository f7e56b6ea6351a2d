import { CHALLENGE_URL, solveHumanCheck } from "./solver";

/**
 * The forms' proof of work in plain DOM code, for light pages and, through `HumanCheck`, React
 * ones: it solves a challenge on the visitor's first interaction, puts the solution in the form's
 * hidden `altcha` field and says how it goes in a one-line status. The markup is `HumanCheck`'s:
 * `[data-human-check]` holding `input[name=altcha]` and `[data-human-check-status]`.
 */

export const HUMAN_CHECK_TEXTS = {
  solving: "Comprobación de seguridad…",
  solved: "Comprobación de seguridad completada",
  failed: "La comprobación de seguridad ha fallado. Vuelve a intentarlo.",
} as const;

/** What counts as a visitor starting on the form; a pointer over the form counts too. */
const FIRST_INTERACTIONS = ["pointerdown", "keydown", "focusin", "touchstart"] as const;

/** A challenge lasts ten minutes on the server; a new one is solved half a minute before. */
const FRESH_MS = 9.5 * 60_000;

/** After a failure (a refused or lost challenge), the first interaction this much later retries. */
const RETRY_AFTER_MS = 3_000;

/** Once the visitor has started on a form, a form shown later in the document starts at once. */
let visitorStarted = false;

export type HumanCheckController = {
  /** The solution was spent (an answer of the server): solve a new one. */
  renew: () => void;
  /** Stops listening and solving. */
  stop: () => void;
};

/**
 * Runs the check of `form`, if it has one (else undefined). A solution is good for one
 * submission and ten minutes: after the form is reset, on `renew()` and before it expires, a new
 * one is solved. `onReadyChange` hears whether the form may be sent.
 */
export function startHumanCheck(
  form: HTMLFormElement,
  {
    onReadyChange,
    startOn = "form",
    challengeUrl = CHALLENGE_URL,
  }: {
    onReadyChange: (ready: boolean) => void;
    /** Where the first interaction starts the check: on the form (a page people mostly read) or anywhere on the page (a page that is the form). */
    startOn?: "form" | "page";
    challengeUrl?: string;
  },
): HumanCheckController | undefined {
  const container = form.querySelector("[data-human-check]");
  const input = container?.querySelector("input");
  const status = container?.querySelector("[data-human-check-status]");
  if (!input || !status) return undefined;
  // A value left by an earlier check is not known to be fresh or unspent.
  input.value = "";

  let state: "idle" | keyof typeof HUMAN_CHECK_TEXTS = "idle";
  let run: AbortController | undefined;
  let ready = false;
  /** When the solution goes stale, or when a failure may be retried (wall clock). */
  let dueAt = 0;
  let expiry: ReturnType<typeof setTimeout> | undefined;
  let renewal: ReturnType<typeof setTimeout> | undefined;

  const show = (next: typeof state, value = "") => {
    state = next;
    input.value = value;
    status.textContent = next === "idle" ? "" : HUMAN_CHECK_TEXTS[next];
    if (ready !== Boolean(value)) onReadyChange((ready = Boolean(value)));
  };

  const solve = async () => {
    visitorStarted = true;
    run?.abort();
    clearTimeout(expiry);
    const current = (run = new AbortController());
    show("solving");
    try {
      const value = await solveHumanCheck(challengeUrl, current.signal);
      if (current.signal.aborted) return;
      dueAt = Date.now() + FRESH_MS;
      expiry = setTimeout(() => void solve(), FRESH_MS);
      show("solved", value);
    } catch {
      if (current.signal.aborted) return;
      dueAt = Date.now() + RETRY_AFTER_MS;
      show("failed");
    }
  };

  // Starts the check; later, retries a failure and replaces a solution that went stale while
  // its timer could not run (a sleeping laptop).
  const onInteraction = () => {
    if (state === "idle" || (state !== "solving" && Date.now() >= dueAt)) void solve();
  };
  const renew = () => {
    if (state === "idle") return;
    // One renewal for a reset and an answer that arrive together.
    renewal ??= setTimeout(() => {
      renewal = undefined;
      void solve();
    });
  };

  const target = startOn === "form" ? form : form.ownerDocument;
  // Capture phase: a click on the still-disabled submit button counts too.
  for (const type of FIRST_INTERACTIONS)
    target.addEventListener(type, onInteraction, { capture: true, passive: true });
  // A pointer reaching for the form is a head start on the proof of work.
  form.addEventListener("pointerover", onInteraction, { passive: true });
  form.addEventListener("reset", renew);
  if (visitorStarted) void solve();

  return {
    renew,
    stop() {
      for (const type of FIRST_INTERACTIONS)
        target.removeEventListener(type, onInteraction, { capture: true });
      form.removeEventListener("pointerover", onInteraction);
      form.removeEventListener("reset", renew);
      run?.abort();
      clearTimeout(expiry);
      clearTimeout(renewal);
    },
  };
}
