import { UserCog } from "lucide-react";
import { useId, useLayoutEffect, useRef } from "react";
import { Form } from "react-router";
import type { StaffRole } from "~/features/identity/staff-roles";
import { buttonClasses } from "~/ui/button";
import type { RoleChangeQuestion } from "./role-change";

/** The fields that make the change: the panel's `set-role`, with its explicit confirmation. */
export function RoleChangeFields({ userId, role }: { userId: string; role: StaffRole | null }) {
  return (
    <>
      <input type="hidden" name="intent" value="set-role" />
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="role" value={role ?? ""} />
      <input type="hidden" name="confirm" value="yes" />
    </>
  );
}

export type RoleChangeRequest = {
  userId: string;
  role: StaffRole | null;
  question: RoleChangeQuestion;
};

/**
 * 'Cambiar rol' asked as a modal `<dialog>` (decision 054): the question names the person and
 * the role and says what it may do; 'Cancelar' (or Escape) leaves everything as it was, the
 * confirm button posts the change to the panel. Focus starts on 'Cancelar', the safe choice,
 * and goes back to whatever opened it (`onClose`).
 */
export function RoleChangeDialog({
  request,
  onConfirm,
  onClose,
}: {
  request: RoleChangeRequest;
  /** Called as the change is posted. */
  onConfirm: () => void;
  /** Called once the dialog is closed, confirmed or not. */
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descriptionId = useId();
  const { question } = request;

  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    cancel.current?.focus();
    return () => {
      if (element.open) element.close();
    };
  }, []);

  const close = () => dialog.current?.close();

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      data-role-change-dialog={request.userId}
      // Escape closes it (the browser's cancel), as 'Cancelar' does.
      onClose={onClose}
      className="fixed inset-0 z-40 m-auto h-fit max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md overflow-y-auto rounded-2xl bg-white p-0 text-ink shadow-2xl ring-1 ring-slate-200 backdrop:bg-slate-900/50"
    >
      <div className="p-5 sm:p-6">
        <p className="text-sm font-semibold text-brand-700">Cambiar rol</p>
        <h2 id={titleId} className="mt-1 text-lg font-bold tracking-tight wrap-anywhere">
          {question.title}
        </h2>
        <p id={descriptionId} className="mt-2 text-sm text-slate-700">
          {question.description}
        </p>
        <div className="mt-6 flex flex-wrap justify-end gap-2">
          <button
            ref={cancel}
            type="button"
            onClick={close}
            className={buttonClasses({ variant: "secondary", size: "sm" })}
          >
            {question.unchanged ? "Cerrar" : "Cancelar"}
          </button>
          {question.unchanged ? null : (
            <Form
              method="post"
              preventScrollReset
              onSubmit={() => {
                onConfirm();
                close();
              }}
            >
              <RoleChangeFields userId={request.userId} role={request.role} />
              <button type="submit" className={buttonClasses({ size: "sm" })}>
                <UserCog className="size-4" aria-hidden />
                {question.confirmLabel}
              </button>
            </Form>
          )}
        </div>
      </div>
    </dialog>
  );
}
