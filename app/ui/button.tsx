import type { ComponentProps } from "react";
import { Link } from "react-router";

const variants = {
  primary:
    "bg-brand-600 text-white shadow-sm hover:bg-brand-700 active:bg-brand-800 disabled:bg-slate-500",
  secondary:
    "bg-white text-ink ring-1 ring-slate-300 ring-inset hover:bg-slate-50 active:bg-slate-100",
  ghost: "text-slate-700 hover:bg-slate-100 hover:text-ink",
  danger:
    "bg-red-700 text-white shadow-sm hover:bg-red-800 active:bg-red-900 disabled:bg-slate-500",
  inverse: "bg-white text-brand-800 shadow-sm hover:bg-brand-50",
  outlineInverse: "text-white ring-1 ring-white/60 ring-inset hover:bg-white/10",
} as const;

const sizes = {
  sm: "h-9 px-3 text-sm",
  md: "h-11 px-5 text-sm",
  lg: "h-12 px-6 text-base",
} as const;

export type ButtonStyle = { variant?: keyof typeof variants; size?: keyof typeof sizes };

export function buttonClasses({ variant = "primary", size = "md" }: ButtonStyle = {}) {
  return [
    "inline-flex items-center justify-center gap-2 rounded-lg font-semibold whitespace-nowrap",
    "transition-colors disabled:cursor-not-allowed",
    variants[variant],
    sizes[size],
  ].join(" ");
}

export function Button({
  variant,
  size,
  className = "",
  type = "button",
  ...props
}: ComponentProps<"button"> & ButtonStyle) {
  return (
    <button type={type} className={`${buttonClasses({ variant, size })} ${className}`} {...props} />
  );
}

export function ButtonLink({
  variant,
  size,
  className = "",
  ...props
}: ComponentProps<typeof Link> & ButtonStyle) {
  return <Link className={`${buttonClasses({ variant, size })} ${className}`} {...props} />;
}
