import { Link } from "react-router";

/** The brand's square mark, without its name. */
export function LogoMark({ className = "size-8 shrink-0" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
      <rect width="32" height="32" rx="8" className="fill-brand-600" />
      <path
        d="M8 10l8 13 8-13"
        fill="none"
        stroke="white"
        strokeWidth="3"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function Logo({ brandName, inverse = false }: { brandName: string; inverse?: boolean }) {
  return (
    <Link to="/" className="flex items-center gap-2 rounded-md" aria-label={`${brandName}, inicio`}>
      <LogoMark />
      <span className={`text-lg font-bold tracking-tight ${inverse ? "text-white" : "text-ink"}`}>
        {brandName}
      </span>
    </Link>
  );
}
