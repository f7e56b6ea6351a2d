import { lazy, Suspense, useEffect, useSyncExternalStore } from "react";
import type { ToastKind, ToastText } from "~/platform/http/toast";

/**
 * Toasts through sonner, loaded on the first toast: pages that never show one never download it.
 */

const Toaster = lazy(() => import("sonner").then((module) => ({ default: module.Toaster })));

/** A tiny store: has any toast been requested yet? The host renders the toaster once it has. */
let toasterWanted = false;
const listeners = new Set<() => void>();
let markReady: () => void = () => {};
const toasterReady = new Promise<void>((resolve) => (markReady = resolve));

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

function requestToaster(): Promise<void> {
  if (!toasterWanted) {
    toasterWanted = true;
    for (const listener of listeners) listener();
  }
  return toasterReady;
}

/** Shows a toast; a toast with the `id` of one still on screen replaces it instead of stacking. */
export async function showToast(
  kind: ToastKind,
  { title, description }: ToastText,
  { id }: { id?: string } = {},
) {
  const [{ toast }] = await Promise.all([import("sonner"), requestToaster()]);
  toast[kind](title, { description, id });
}

/** Mounted after the toaster (same Suspense boundary): from now on toasts are displayed. */
function ToasterMounted() {
  useEffect(() => markReady(), []);
  return null;
}

/** Placed once in the document; renders the toaster when the first toast is requested. */
export function ToastHost() {
  const wanted = useSyncExternalStore(
    subscribe,
    () => toasterWanted,
    () => false,
  );
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      {/* Sonner's rich colours fail the text contrast AA asks for; its plain toasts pass. */}
      <Toaster position="top-center" closeButton toastOptions={{ duration: 6000 }} />
      <ToasterMounted />
    </Suspense>
  );
}
