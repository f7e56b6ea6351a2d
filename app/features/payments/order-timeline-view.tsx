import { Check, Circle } from "lucide-react";
import { formatDate } from "~/platform/dates";
import type { OrderTimeline } from "./order-timeline";

/**
 * An order's timeline as a list of its steps, the same on the customer's Compras and on the
 * staff's payment page: what happened (with its date) and what may still come.
 */
export function OrderTimelineView({
  timeline,
  className = "",
}: {
  timeline: OrderTimeline;
  className?: string;
}) {
  return (
    <ol aria-label="Historial del pedido" className={`space-y-2 text-sm ${className}`}>
      {timeline.steps.map((step) => {
        const done = step.state === "done";
        return (
          <li key={step.key} className="flex gap-2" data-step={step.key} data-state={step.state}>
            {done ? (
              <Check className="mt-0.5 size-4 shrink-0 text-emerald-700" aria-hidden />
            ) : (
              <Circle className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden />
            )}
            <div className="min-w-0">
              <p className={done ? "font-semibold text-ink" : "text-slate-600"}>
                {step.title}
                {done ? null : <span className="font-normal"> (pendiente)</span>}
                {step.at ? (
                  <span className="font-normal text-slate-600">
                    {" "}
                    · {formatDate(step.at, "longDateTime")}
                  </span>
                ) : null}
              </p>
              {step.details.map((detail) => (
                <p key={detail} className="wrap-anywhere text-slate-700">
                  {detail}
                </p>
              ))}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
