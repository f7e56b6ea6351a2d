/**
 * Focuses a form's faulty field in the middle of the screen: a plain `focus()` scrolls it only
 * just into view, under the sticky header or the toasts at the bottom.
 */
export function focusInMiddle(control: HTMLElement) {
  control.scrollIntoView({ block: "center" });
  control.focus({ preventScroll: true });
}
