import { AlertCircle, CheckCircle2 } from "lucide-react";
import {
  createContext,
  createElement,
  useContext,
  useEffect,
  useId,
  useRef,
  useState,
  type ComponentProps,
  type FormEvent,
  type MouseEvent as ReactMouseEvent,
  type ReactNode,
} from "react";
import { Form, Link, type FetcherWithComponents } from "react-router";
import {
  checkForm,
  fieldErrorText,
  issuesOf,
  placeReply,
  replyOf,
  type FieldIssue,
  type FormFields,
  type FormReply,
  type FormSchema,
  type MessageBook,
} from "~/platform/forms/form-answer";
import type { ToastText } from "~/platform/http/toast";
import { focusInMiddle } from "./focus";
import { showToast } from "./toast";

/**
 * The form kit: every form of the site is built from these parts, so fields look alike, errors
 * sit next to their field (also without JavaScript) and the server's answer is shown the same way:
 * each error once, by the one rule of `placeReply` (decision 055).
 */

export const cardClasses = "rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200";

const controlClasses = [
  "mt-1 block w-full rounded-lg border-0 px-3 py-2.5 text-ink shadow-sm ring-1 ring-slate-300",
  "ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-brand-600 focus:ring-inset",
  "aria-[invalid=true]:ring-2 aria-[invalid=true]:ring-red-600",
  "[&[readonly]]:bg-slate-50 [&[readonly]]:text-slate-700 [&[readonly]]:shadow-none",
].join(" ");

const labelClasses = "block text-sm font-medium text-ink";

export type { FieldIssue, FormReply };

/** What a kit form tells its controls: each field's error, and how its controls' ids begin. */
const KitForm = createContext<{
  errors: Partial<Record<string, ToastText>>;
  idPrefix?: string;
  /**
   * The first faulty field: rendered with `autofocus`, so a page answered to a post without
   * JavaScript opens at that field, scrolled into view on a phone (issue 39, item 13); with
   * JavaScript `focusFirstProblem` moves the focus instead.
   */
  firstFaulty?: string;
}>({
  errors: {},
});

/** The id of a kit form's control named `name`, known to the form's summary before it renders. */
const controlId = (idPrefix: string, name: string) => `${idPrefix}-${name}`;

/** Ids and error of the control named `name`, read from the form around it. */
function useControl(name: string | undefined, describedBy: string | undefined) {
  const ownId = useId();
  const { errors, idPrefix, firstFaulty } = useContext(KitForm);
  // Inside a kit form a named control's id comes from its name, so the summary can link to it.
  const id = name && idPrefix ? controlId(idPrefix, name) : ownId;
  const error = name ? errors[name] : undefined;
  const errorId = `${id}-error`;
  const describers = [describedBy, error ? errorId : undefined].filter(Boolean).join(" ");
  return {
    id,
    error,
    errorId,
    controlProps: {
      id,
      autoFocus: name !== undefined && name === firstFaulty ? true : undefined,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": describers || undefined,
    },
  };
}

/** A control's error under it, the element its `aria-describedby` names. */
function ControlError({ control }: { control: ReturnType<typeof useControl> }) {
  if (!control.error) return null;
  return (
    <p id={control.errorId} className="mt-1 text-sm text-red-700">
      {fieldErrorText(control.error)}
    </p>
  );
}

type ControlFrame = {
  label: ReactNode;
  /** Shows '*' after the label of a required field. */
  markRequired?: boolean;
  /** Text under the control, read with it by screen readers. */
  hint?: ReactNode;
  /** Classes of the block around label, control and messages (for grid placement). */
  frameClassName?: string;
};

function Frame({
  control,
  label,
  markRequired,
  hint,
  hintId,
  frameClassName,
  children,
}: ControlFrame & {
  control: ReturnType<typeof useControl>;
  hintId: string;
  children: ReactNode;
}) {
  return (
    <div className={frameClassName}>
      <label htmlFor={control.id} className={labelClasses}>
        {label}
        {markRequired ? (
          <span className="text-red-700" aria-hidden>
            {" "}
            *
          </span>
        ) : null}
      </label>
      {children}
      {hint ? (
        <div id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </div>
      ) : null}
      <ControlError control={control} />
    </div>
  );
}

/** Splits a control's props into its frame's and its own, with ids, state and the one style. */
function useFramed<Props extends ControlFrame & { name?: string; className?: string }>({
  label,
  markRequired,
  hint,
  frameClassName,
  className = "",
  ...own
}: Props) {
  const hintId = `${useId()}-hint`;
  const control = useControl(own.name, hint ? hintId : undefined);
  return {
    frame: { control, label, markRequired, hint, hintId, frameClassName },
    own: { ...own, ...control.controlProps, className: `${controlClasses} ${className}` },
  };
}

/** A kit control: the native `tag` in its frame (label, hint, error) with the one style. */
function framedControl<Tag extends "input" | "textarea" | "select">(tag: Tag) {
  return function FramedControl(props: ControlFrame & ComponentProps<Tag>) {
    const { frame, own } = useFramed(props);
    return <Frame {...frame}>{createElement(tag, own)}</Frame>;
  };
}

export const Field = framedControl("input");
export const TextArea = framedControl("textarea");
export const Select = framedControl("select");

/** A checkbox with its label beside it; its error shows under it, linked to it. */
export function Checkbox({
  label,
  className = "",
  ...own
}: { label: ReactNode } & Omit<ComponentProps<"input">, "type">) {
  const control = useControl(own.name, undefined);
  return (
    <div className={className}>
      <div className="flex gap-3 text-sm leading-5">
        <input
          type="checkbox"
          {...own}
          {...control.controlProps}
          className="mt-0.5 size-4 shrink-0 accent-brand-600"
        />
        <label htmlFor={control.id} className="text-slate-700">
          {label}
        </label>
      </div>
      <ControlError control={control} />
    </div>
  );
}

const alertTones = {
  error: { role: "alert", box: "bg-red-50 text-red-900 ring-red-200", icon: "text-red-600" },
  success: {
    role: "status",
    box: "bg-emerald-50 text-emerald-900 ring-emerald-200",
    icon: "text-emerald-600",
  },
  info: {
    role: "status",
    box: "bg-brand-50 text-brand-900 ring-brand-200",
    icon: "text-brand-600",
  },
} as const;

/**
 * The server's answer inside the form: one message, or the summary of what to correct, each
 * problem a link to its field (whose error says the rest). `idPrefix` is the form's, for the links.
 */
export function FormAlert({
  reply,
  idPrefix,
  className = "",
}: {
  reply: FormReply;
  idPrefix?: string;
  className?: string;
}) {
  const tone = alertTones[reply.tone];
  const Icon = reply.tone === "error" ? AlertCircle : CheckCircle2;
  const listed = reply.issues && reply.issues.length > 1 ? reply.issues : null;
  return (
    <div
      role={tone.role}
      tabIndex={-1}
      data-form-alert
      className={`flex gap-3 rounded-lg p-4 text-sm ring-1 outline-none ${tone.box} ${className}`}
    >
      <Icon className={`size-5 shrink-0 ${tone.icon}`} aria-hidden />
      <div>
        {listed ? (
          <>
            <p className="font-semibold" data-alert-title>
              {summaryTitle(listed.length)}
            </p>
            <ul className="mt-1 list-disc space-y-1 pl-5" data-alert-summary>
              {listed.map(({ field, text }) => (
                <li key={`${field ?? ""}:${text.title}`}>
                  {field && idPrefix ? (
                    <a
                      href={`#${controlId(idPrefix, field)}`}
                      className="font-semibold underline"
                      onClick={(event) => focusLinked(event, controlId(idPrefix, field))}
                    >
                      {text.title}
                    </a>
                  ) : (
                    // A problem about no field is said only here: all of it.
                    <>
                      <strong>{text.title}</strong>
                      {text.description ? ` ${text.description}` : null}
                    </>
                  )}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <>
            <p className="font-semibold" data-alert-title>
              {reply.text.title}
            </p>
            {reply.text.description ? (
              <p className="mt-1" data-alert-description>
                {reply.text.description}
              </p>
            ) : null}
          </>
        )}
        {reply.action ? (
          <Link to={reply.action.to} className="mt-2 inline-block font-semibold underline">
            {reply.action.label}
          </Link>
        ) : null}
      </div>
    </div>
  );
}

const summaryTitle = (count: number) => `Hay ${count} errores en el formulario:`;

/** A summary's link focuses its field (following the link alone only scrolls to it). */
function focusLinked(event: ReactMouseEvent<HTMLAnchorElement>, id: string) {
  const control = document.getElementById(id);
  if (!control) return;
  event.preventDefault();
  focusInMiddle(control);
}

/**
 * A form's alert of each tone as an inert `<template>`, for a script without React to fill in
 * with a reply's words (a light page's contact form): the markup stays this component's.
 */
export function FormAlertTemplates() {
  return (
    <>
      {(["error", "success"] as const).map((tone) => (
        <template key={tone} data-form-alert-template={tone}>
          <FormAlert
            reply={{ tone, text: { title: " ", description: " " } }}
            className="mb-5 sm:col-span-full"
          />
        </template>
      ))}
    </>
  );
}

const issueMap = (issues: FieldIssue[]) =>
  Object.fromEntries(
    issues.flatMap((issue) => (issue.field ? [[issue.field, issue.text] as const] : [])),
  );

export type ValidatedFormProps<Answer> = {
  /** The server's schema, run in the browser before sending; its problems show as the server's. */
  schema?: FormSchema<unknown>;
  /** The feature's messages: the texts of the schema's codes and of the server's answers. */
  messages: MessageBook;
  /** A reason, checked after the schema, not to send the form yet. */
  blockedBy?: ToastText;
  /** The server's latest answer (the route's `actionData` or a fetcher's `data`). */
  answer?: Answer;
  /** Called once per new reply of the server, after it is shown (a success may reset the form). */
  onReply?: (reply: FormReply, form: HTMLFormElement) => void;
  /** Send through this fetcher, staying on the page, instead of navigating. */
  fetcher?: FetcherWithComponents<Answer>;
  /**
   * With JavaScript, say what is about the whole form as a toast instead of the box: in the forms
   * whose errors the spec makes toasts (registration, contact) and in a dialog with no room for
   * the box. Errors about a field stay under it.
   */
  toasts?: boolean;
} & Omit<ComponentProps<typeof Form>, "onSubmit">;

/** A form's text fields as typed (files are the server's to check). */
function fieldsOf(form: HTMLFormElement): FormFields {
  const fields: FormFields = {};
  for (const [name, value] of new FormData(form))
    if (typeof value === "string") fields[name] = value;
  return fields;
}

/** What a form shows: the answer it is about, its reply, and whether it came to a running page. */
type Shown<Answer> = {
  answer: Answer | undefined;
  reply: FormReply | undefined;
  /** False for the answer the server's HTML came with: nothing to announce, no toast. */
  live: boolean;
  /** True when the reply is the server's (not the browser's own check). */
  fromServer: boolean;
};

/**
 * A form of the form protocol (`platform/forms/form-answer.ts`): it checks the server's schema
 * before sending and shows the server's answer, a refusal or a notice, in the words of the
 * feature's message book, each error once (`placeReply`, decision 055): a field's error under it,
 * the field marked (`aria-invalid`) and described by it, focus on the first one; the box only
 * for what no field says and as a summary of several; a toast only where `toasts` asks for it.
 * A new toast of this form replaces the previous one. Without JavaScript the server's answer
 * renders by the same rule.
 */
export function ValidatedForm<Answer>({
  schema,
  messages,
  blockedBy,
  answer,
  onReply,
  fetcher,
  toasts = false,
  children,
  ...formProps
}: ValidatedFormProps<Answer>) {
  const formRef = useRef<HTMLFormElement>(null);
  const formId = useId();
  const [shown, setShown] = useState<Shown<Answer>>(() => ({
    answer,
    reply: replyOf(answer, messages),
    live: false,
    fromServer: true,
  }));
  const [issues, setIssues] = useState<FieldIssue[]>(shown.reply?.issues ?? []);
  const [focusRequest, setFocusRequest] = useState(0);

  // A new answer replaces what the form showed (state adjusted while rendering; its toast and
  // the focus move happen in the effects below).
  if (answer !== shown.answer) {
    const reply = replyOf(answer, messages);
    setShown({ answer, reply, live: true, fromServer: true });
    setIssues(reply?.issues ?? []);
    if (reply) setFocusRequest((count) => count + 1);
  }

  const { reply, live, fromServer } = shown;
  const places = reply ? placeReply(reply, { toasts, live }) : {};
  useEffect(() => {
    if (!reply) return;
    if (places.toast) void showToast(reply.tone, reply.text, { id: formId });
    if (fromServer && formRef.current) onReply?.(reply, formRef.current);
    // Only a new reply is announced; onReply may change identity on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reply, formId]);

  useEffect(() => {
    if (focusRequest > 0) focusFirstProblem(formRef.current, issues);
    // Runs when a check or an answer asks for it, not on every edit of the issues.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRequest]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const fields = fieldsOf(event.currentTarget);
    const checked = schema ? checkForm(schema, fields) : undefined;
    const found = checked && !checked.ok ? issuesOf(checked.errors, messages, fields) : [];
    const problems = found.length > 0 ? found : blockedBy ? [{ text: blockedBy }] : [];
    if (problems.length === 0) return;
    event.preventDefault();
    // The browser's own check is shown as the server's refusal would be.
    setShown({
      answer: shown.answer,
      reply: { tone: "error", text: problems[0]!.text, issues: problems },
      live: true,
      fromServer: false,
    });
    setIssues(problems);
    setFocusRequest((count) => count + 1);
  };

  // Correcting a field takes its error away; the others stay until the next check.
  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const name = (event.target as { name?: unknown }).name;
    if (typeof name === "string" && issues.some((issue) => issue.field === name))
      setIssues(issues.filter((issue) => issue.field !== name));
  };

  const FormComponent = fetcher ? fetcher.Form : Form;
  return (
    <FormComponent
      ref={formRef}
      method="post"
      noValidate
      {...formProps}
      onSubmit={onSubmit}
      onInput={onInput}
    >
      {places.box ? (
        <FormAlert reply={places.box} idPrefix={formId} className="mb-5 sm:col-span-full" />
      ) : null}
      <KitForm.Provider
        value={{
          errors: issueMap(issues),
          idPrefix: formId,
          firstFaulty: issues.find((issue) => issue.field)?.field,
        }}
      >
        {children}
      </KitForm.Provider>
    </FormComponent>
  );
}

function focusFirstProblem(form: HTMLFormElement | null, issues: FieldIssue[]) {
  if (!form) return;
  for (const { field } of issues) {
    const control = field ? form.elements.namedItem(field) : null;
    if (control instanceof HTMLElement) return focusInMiddle(control);
  }
  form.querySelector<HTMLElement>("[data-form-alert]")?.focus();
}
