import { X } from "lucide-react";

/**
 * The × in a dialog's corner, placed by `className` (absolute, in the parent's corner). Its name
 * is 'Cerrar'; the icon is decoration.
 */
export function CloseButton({
  onClick,
  className,
  ...data
}: {
  /** Without it, the button's behaviour comes from a script that finds it (`data-*`). */
  onClick?: () => void;
  className: string;
} & { [data: `data-${string}`]: string | boolean }) {
  return (
    <button
      type="button"
      onClick={onClick}
      {...data}
      aria-label="Cerrar"
      className={`absolute inline-flex size-9 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-ink ${className}`}
    >
      <X className="size-5" aria-hidden />
    </button>
  );
}
