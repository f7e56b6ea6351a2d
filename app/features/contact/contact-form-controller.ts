import { track } from "~/features/analytics/track";
import { serviceCodeLabel } from "~/features/catalogue/services";
import {
  pendingPurchaseMessage,
  selectedServiceText,
  takePendingPurchase,
} from "~/features/payments/pending-purchase";
import {
  checkForm,
  fieldErrorText,
  issuesOf,
  placeReply,
  replyOf,
  type FieldIssue,
  type FormReply,
} from "~/platform/forms/form-answer";
import { newSubmissionKey } from "~/platform/forms/submission-key";
import { startHumanCheck } from "~/platform/human-check/human-check-element";
import { focusInMiddle } from "~/ui/focus";
import { showToast } from "~/ui/toast";
import {
  contactMessages,
  contactSubmitLabels,
  contactToasts,
  type ContactSubmitState,
} from "./contact-messages";

/** The rules (zod with them) load when the visitor reaches for the form, not with the page. */
const loadRules = () => import("./contact-schema");

const FORM_SELECTOR = "form[data-contact-form]";
/** The contact action answering in JSON (app/routes/api-contacto.ts). */
const ANSWER_URL = "/api/contacto";
/** One toast for the form: a new one replaces the last. */
const TOAST_ID = "contact-form";

/**
 * The contact form on a light page (decision 038). The server renders it, its answers too: a
 * post without JavaScript gets the page back with the form's errors or its notice. With
 * JavaScript the same rules run before sending (contact-schema.ts, loaded when the visitor
 * reaches for the form), each problem in the message book's words under its field, and the form
 * is posted in the background to the action's JSON twin; its answer is shown by the form kit's
 * rule (`placeReply`, decision 055) as a running page shows it: each field's problem under it and,
 * the spec's contact errors being toasts, the first problem or the notice as a toast.
 */
export function controlContactForm(doc: Document): void {
  const form = doc.querySelector<HTMLFormElement>(FORM_SELECTOR);
  if (!form) return;
  attach(form);
  applyPendingPurchase(form);
}

/** A service chosen with 'Consultar primero' pre-fills the form once (spec section 3). */
function applyPendingPurchase(form: HTMLFormElement) {
  const pending = takePendingPurchase(window.localStorage);
  if (!pending) return;
  const select = form.elements.namedItem("service") as HTMLSelectElement;
  if (![...select.options].some((option) => option.value === pending.code))
    select.add(new Option(serviceCodeLabel(pending.code), pending.code));
  select.value = pending.code;
  (form.elements.namedItem("message") as HTMLTextAreaElement).value =
    pendingPurchaseMessage(pending);
  form.querySelector("[data-slot=selected-service]")!.textContent = selectedServiceText(pending);
  form.querySelector<HTMLElement>("[data-selected-service]")!.hidden = false;
  void showToast("info", contactToasts.serviceSelected(pending.name));
}

function attach(form: HTMLFormElement) {
  for (const key of form.querySelectorAll<HTMLInputElement>("input[data-fresh]"))
    key.value = newSubmissionKey();
  let humanCheckReady = !form.querySelector("[data-human-check]");
  let sending = false;
  const submit = form.querySelector<HTMLButtonElement>("button[data-submit]")!;
  const render = () =>
    setSubmitState(submit, sending ? "busy" : humanCheckReady ? "idle" : "loading");
  const humanCheck = startHumanCheck(form, {
    onReadyChange: (ready) => {
      humanCheckReady = ready;
      render();
    },
  });
  render();

  // What the visitor typed is checked by the schema's rules first, then sent.
  const checkAndSend = async () => {
    let rules: Awaited<ReturnType<typeof loadRules>>;
    try {
      rules = await loadRules();
    } catch {
      return void showToast("error", contactMessages.error, { id: TOAST_ID });
    }
    if (sending) return;
    const fields = fieldsOf(form);
    const checked = checkForm(rules.contactSchema, fields);
    if (!checked.ok) {
      const issues = issuesOf(checked.errors, contactMessages, fields);
      return show(form, { tone: "error", text: issues[0]!.text, issues });
    }
    if (!humanCheckReady)
      return void showToast("error", contactToasts.humanCheckNotReady, { id: TOAST_ID });
    sending = true;
    render();
    const answered = await send(form);
    sending = false;
    render();
    // Any answer of the server spent the solution: a new one is solved for the next post.
    if (answered) return humanCheck?.renew();
    void showToast("error", contactMessages.error, { id: TOAST_ID });
  };

  for (const type of ["pointerover", "focusin", "touchstart"])
    form.addEventListener(type, () => void loadRules().catch(() => undefined), {
      once: true,
      passive: true,
    });
  form.addEventListener("input", (event) => {
    const name = (event.target as { name?: unknown }).name;
    if (typeof name === "string") clearIssue(form, name);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!sending) void checkAndSend();
  });
}

/**
 * Posts the form to the action's JSON twin (/api/contacto) and shows the answer as the form kit
 * does on a running page. False when no answer came.
 */
async function send(form: HTMLFormElement): Promise<boolean> {
  let answer: unknown;
  try {
    const response = await fetch(ANSWER_URL, {
      method: "POST",
      body: new URLSearchParams(fieldsOf(form)),
      headers: { accept: "application/json" },
    });
    answer = await response.json();
  } catch {
    return false;
  }
  const reply = replyOf(answer, contactMessages);
  if (!reply) return false;
  show(form, reply);
  if (reply.tone === "success") {
    form.reset();
    form.querySelector<HTMLElement>("[data-selected-service]")!.hidden = true;
    for (const key of form.querySelectorAll<HTMLInputElement>("input[data-fresh]"))
      key.value = newSubmissionKey();
    track("enquiry");
  }
  return true;
}

/**
 * Shows a reply by the form kit's rule (`placeReply`) on a running page: each field's problem
 * under it, focus on the first, and the box or the toast the rule asks for, once.
 */
function show(form: HTMLFormElement, reply: FormReply) {
  const places = placeReply(reply, { toasts: true, live: true });
  form.querySelector("[data-form-alert]")?.remove();
  if (places.box) showAlert(form, places.box);
  if (places.toast) void showToast(places.toast.tone, places.toast.text, { id: TOAST_ID });
  showIssues(form, reply.issues ?? []);
}

/** The form's alert for `reply` (one message: the rule never gives this form a summary). */
function showAlert(form: HTMLFormElement, reply: FormReply) {
  const template = form.ownerDocument.querySelector<HTMLTemplateElement>(
    `template[data-form-alert-template=${reply.tone === "error" ? "error" : "success"}]`,
  );
  const alert = template?.content.firstElementChild?.cloneNode(true);
  if (!(alert instanceof HTMLElement)) return;
  alert.querySelector("[data-alert-title]")!.textContent = reply.text.title;
  const description = alert.querySelector("[data-alert-description]")!;
  if (reply.text.description) description.textContent = reply.text.description;
  else description.remove();
  form.prepend(alert);
}

function setSubmitState(button: HTMLButtonElement, state: ContactSubmitState) {
  button.dataset.state = state;
  button.disabled = state !== "idle";
  button.querySelector("[data-label]")!.textContent = contactSubmitLabels[state];
}

function fieldsOf(form: HTMLFormElement): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new FormData(form))
    if (typeof value === "string") fields[name] = value;
  return fields;
}

const ERROR_CLASSES = "mt-1 text-sm text-red-700";

/** As the form kit shows a field's error: under the field, described by it, marked invalid. */
function showIssues(form: HTMLFormElement, issues: FieldIssue[]) {
  for (const control of form.querySelectorAll("[aria-invalid]"))
    clearIssue(form, (control as HTMLInputElement).name);
  for (const { field, text } of issues) {
    const control = field ? (form.elements.namedItem(field) as HTMLElement | null) : null;
    if (!control) continue;
    const error = form.ownerDocument.createElement("p");
    error.id = `${control.id}-error`;
    error.className = ERROR_CLASSES;
    error.textContent = fieldErrorText(text);
    control.parentElement!.append(error);
    control.setAttribute("aria-invalid", "true");
    const describers = (control.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
    control.setAttribute("aria-describedby", [...describers, error.id].join(" "));
  }
  focusFirstProblem(form, issues);
}

function clearIssue(form: HTMLFormElement, name: string) {
  const control = form.elements.namedItem(name);
  if (!(control instanceof HTMLElement) || !control.hasAttribute("aria-invalid")) return;
  const errorId = `${control.id}-error`;
  form.ownerDocument.getElementById(errorId)?.remove();
  control.removeAttribute("aria-invalid");
  const rest = (control.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .filter((id) => id && id !== errorId);
  if (rest.length) control.setAttribute("aria-describedby", rest.join(" "));
  else control.removeAttribute("aria-describedby");
}

function focusFirstProblem(form: HTMLFormElement, issues: FieldIssue[]) {
  for (const { field } of issues) {
    const control = field ? form.elements.namedItem(field) : null;
    if (control instanceof HTMLElement) return focusInMiddle(control);
  }
  form.querySelector<HTMLElement>("[data-form-alert]")?.focus();
}
