import { LifeBuoy, Plus } from "lucide-react";
import type { KeyboardEvent, ReactNode } from "react";
import { Link } from "react-router";
import { formatPrice } from "~/features/catalogue/services";
import { PurchaseList, type PurchaseListItem } from "~/features/payments/purchase-list";
import { TicketList, type TicketListItem } from "~/features/support/support-ui";
import { ButtonLink } from "~/ui/button";
import type { ToastText } from "~/platform/http/toast";
import { FormAlert } from "~/ui/form";
import { StatCardGrid } from "~/ui/signed-in/stat-cards";
import { accountLoadMessages, accountTabPath, accountTabs, type AccountTab } from "./account-tabs";

/** The pieces of Mi Cuenta: its tabs, the stat cards and the lists of each tab. */

export const NEW_TICKET_PATH = "/mi-cuenta/tickets/nuevo";

const tabId = (tab: AccountTab) => `tab-${tab}`;
export const tabPanelId = (tab: AccountTab) => `panel-${tab}`;

/** Arrow keys move between tabs (each tab is a link, so Tab and Enter work too). */
function moveFocus(event: KeyboardEvent<HTMLElement>) {
  const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
  if (!step) return;
  const tabs = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')];
  const current = tabs.indexOf(document.activeElement as HTMLElement);
  if (current < 0) return;
  event.preventDefault();
  tabs[(current + step + tabs.length) % tabs.length]?.focus();
}

/** The tabs: links to `?tab=…` (they work without JavaScript), announced as tabs. */
export function AccountTabs({ active }: { active: AccountTab }) {
  return (
    // The focus ring is drawn inside each tab: the strip scrolls, and would clip it outside.
    <div
      role="tablist"
      aria-label="Secciones de Mi Cuenta"
      onKeyDown={moveFocus}
      className="scroll-fade-x mt-8 flex overflow-x-auto border-b border-slate-200 sm:gap-1"
    >
      {accountTabs.map((tab) => {
        const selected = tab.id === active;
        return (
          <Link
            key={tab.id}
            id={tabId(tab.id)}
            role="tab"
            to={accountTabPath(tab.id)}
            aria-selected={selected}
            aria-controls={selected ? tabPanelId(tab.id) : undefined}
            preventScrollReset
            className={`-mb-px flex-1 border-b-2 px-1 py-2.5 text-center text-sm font-semibold whitespace-nowrap focus-visible:-outline-offset-2 sm:flex-none sm:px-4 ${
              selected
                ? "border-brand-600 text-brand-700"
                : "border-transparent text-slate-600 hover:border-slate-300 hover:text-ink"
            }`}
          >
            {tab.label}
          </Link>
        );
      })}
    </div>
  );
}

export function AccountTabPanel({ tab, children }: { tab: AccountTab; children: ReactNode }) {
  return (
    <div
      id={tabPanelId(tab)}
      role="tabpanel"
      aria-labelledby={tabId(tab)}
      tabIndex={-1}
      className="mt-6 outline-none"
    >
      {children}
    </div>
  );
}

export type AccountStats = {
  totalPurchases: number;
  totalSpentCents: number;
  activeTickets: number;
  resolvedTickets: number;
};

/** The four stat cards (spec section 2). */
export function StatCards({ stats }: { stats: AccountStats | null }) {
  const cards = [
    { label: "Compras", value: stats?.totalPurchases },
    {
      label: "Total gastado",
      value: stats ? formatPrice(stats.totalSpentCents, { cents: "always" }) : undefined,
    },
    { label: "Tickets activos", value: stats?.activeTickets },
    { label: "Tickets resueltos", value: stats?.resolvedTickets },
  ];
  return (
    <div className="mt-6">
      <StatCardGrid cards={cards} columns="lg:grid-cols-4" />
    </div>
  );
}

/** What a list says when it is empty: a title, a sentence and what to do next. */
function EmptyState({ title, text, action }: { title: string; text: string; action?: ReactNode }) {
  return (
    <div className="rounded-2xl bg-slate-50 p-8 text-center ring-1 ring-slate-200">
      <p className="text-lg font-semibold text-ink">{title}</p>
      <p className="mt-2 text-slate-600">{text}</p>
      {action}
    </div>
  );
}

const loadFailed = (text: ToastText) => <FormAlert reply={{ tone: "error", text }} />;

const helpLink = (purchase: PurchaseListItem) => (
  <Link
    to={`${NEW_TICKET_PATH}?compra=${purchase.id}`}
    className="inline-flex items-center gap-1 font-semibold text-brand-700 underline-offset-2 hover:underline"
  >
    <LifeBuoy className="size-4" aria-hidden />
    Necesito ayuda con esta compra
  </Link>
);

/** Compras, and the purchases of Resumen; null when they could not be read. */
export function PurchasesPanel({
  purchases,
  withHelp,
}: {
  purchases: PurchaseListItem[] | null;
  withHelp: boolean;
}) {
  if (!purchases) return loadFailed(accountLoadMessages.purchasesFailed);
  if (purchases.length > 0)
    return <PurchaseList purchases={purchases} help={withHelp ? helpLink : undefined} />;
  const seePrices = (
    <ButtonLink to="/precios" className="mt-6">
      Ver precios
    </ButtonLink>
  );
  return (
    <EmptyState
      title="Aún no tienes compras"
      text="Cuando contrates un servicio, aquí verás su estado y su historial."
      action={seePrices}
    />
  );
}

/** Soporte, and the tickets of Resumen; null when they could not be read. */
export function TicketsPanel({
  tickets,
  withButton,
}: {
  tickets: TicketListItem[] | null;
  withButton: boolean;
}) {
  if (!tickets) return loadFailed(accountLoadMessages.ticketsFailed);
  if (tickets.length > 0) return <TicketList tickets={tickets} />;
  const newTicket = (
    <ButtonLink to={NEW_TICKET_PATH} className="mt-6">
      <Plus className="size-4" aria-hidden />
      Crear Ticket
    </ButtonLink>
  );
  return (
    <EmptyState
      title="No tienes tickets de soporte"
      text="Si necesitas ayuda con un servicio, abre un ticket y te responderemos en menos de 24 horas."
      action={withButton ? newTicket : null}
    />
  );
}
